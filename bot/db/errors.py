"""Errors of the storage layer. The service turns them into sentences for players."""

from __future__ import annotations


class DatabaseError(Exception):
    """Something the storage layer cannot do."""


class SchemaTooNewError(DatabaseError):
    """The database was written by a newer version of the bot than this one."""


class MigrationCheckError(DatabaseError):
    """A migration's own check found a problem it left; the migration was rolled back."""


class Conflict(DatabaseError):
    """A write lost a race: a row with the same key (a game's move at a ply) exists."""


class IntegrityError(DatabaseError):
    """A write broke a rule of the schema other than a unique key (a foreign key, a
    CHECK, a NOT NULL): a bug in the caller, never a race. The same on every backend."""


class DatabaseUnreachable(DatabaseError):
    """The database cannot be opened: a PostgreSQL server that does not answer, or refuses
    the database, the role or the password it was given; a SQLite file that cannot be
    opened. The message is one sentence for the operator, naming which, never a password."""
