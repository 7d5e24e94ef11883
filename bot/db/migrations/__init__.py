"""Numbered, forward-only schema migrations, the version kept inside the database.

Each migration runs in its own transaction together with the row that records
it, so a crash leaves the database at one version or the next, never between.
A database whose version is newer than the newest migration here was written
by a newer bot; opening it would risk corrupting data the code does not
understand, so it is refused (`SchemaTooNewError`).

Times are stored as integer microseconds since the Unix epoch (UTC) and
durations as integer microseconds: exact for Python's `datetime`, sortable,
and the same on SQLite and PostgreSQL (BIGINT).

One list of migrations (`history.MIGRATIONS`) serves both backends, with the same
numbers; each migration's SQL lives in the module of its versions (`versions_1_to_9`,
`versions_10_to_16`, `versions_17_on`), and once released it never changes. The DDL is written for
SQLite; PostgreSQL runs it through `postgres_statements` (`migration`), which makes the
few mechanical changes the dialects need. SQLite's runner is `sqlite_runner`;
PostgreSQL's lives with its backend (`bot.db.postgres`).
"""

from .history import LATEST_VERSION, MIGRATIONS
from .migration import (
    VERSION_TABLE,
    Migration,
    postgres_ddl,
    postgres_statements,
    refuse_newer,
)
from .sqlite_runner import current_version, migrate

__all__ = [
    "LATEST_VERSION",
    "MIGRATIONS",
    "VERSION_TABLE",
    "Migration",
    "current_version",
    "migrate",
    "postgres_ddl",
    "postgres_statements",
    "refuse_newer",
]
