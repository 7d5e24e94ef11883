"""The little every repository shares: running one statement on the session's connection.

A repository runs its statements through `Statements`, which each backend provides: for
PostgreSQL one asyncpg connection (`bot.db.postgres`); for SQLite two kinds: on the
aiosqlite connection, where every statement is a round trip to aiosqlite's thread (a
queue, a wake-up, a callback on the event loop), or straight on the sqlite3 connection,
for a whole transaction that `Database.run` executes in that thread in one round trip.
The repositories' methods are the same coroutines either way; in the second kind they
never suspend, which is what lets `Database.run` complete them inside the thread.

The repositories' SQL is written once, with `?` placeholders, in the dialect both
databases share. Each backend's `Statements` turns its own unique-key violation into
`Conflict` (one mapping per backend, so a repository never knows which one lost the race).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import aiosqlite

from .errors import Conflict, DatabaseError, IntegrityError

Row = Sequence[Any]
Params = Sequence[object]


class Statements(Protocol):
    """What the repositories ask of a connection. A write that clashes with a unique or
    primary key raises `Conflict`, one that breaks another rule of the schema
    `IntegrityError`, on every backend."""

    async def fetch(self, sql: str, params: Params) -> list[Row]: ...

    async def change(self, sql: str, params: Params) -> int:
        """Run an INSERT/UPDATE/DELETE; the number of rows it touched."""
        ...

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None: ...

    async def fetch_for_update(self, sql: str, params: Params) -> list[Row]:
        """Run a SELECT and hold the rows it returns until the transaction ends: another
        transaction updating them waits for this one, and this one waits for a writer
        of them under way, then sees its rows as it committed them."""
        ...

    async def fetch_skipping_locked(self, sql: str, params: Params) -> list[Row]:
        """Run a SELECT that holds the rows it returns, as `fetch_for_update`, but leaves
        out the rows another transaction holds instead of waiting for them."""
        ...

    async def lock(self, keys: Iterable[str], *, shared: bool = False) -> None:
        """Hold a lock on each key until the transaction ends, so that writers of the
        same keys take turns where no conditional update or unique key orders them.
        `shared` locks exclude only the keys' exclusive holders, not one another: many
        writers may share a key that one other writer needs alone."""
        ...


def sqlite_conflict(error: sqlite3.IntegrityError) -> DatabaseError:
    """SQLite's unique or primary-key clash as `Conflict`; any other broken rule (a
    foreign key, a CHECK) as `IntegrityError`."""
    text = str(error)
    return Conflict(text) if "UNIQUE" in text or "PRIMARY KEY" in text else IntegrityError(text)


class _SQLiteLocking:
    """What SQLite needs no lock for: a write transaction holds its one write lock."""

    async def fetch(self, sql: str, params: Params) -> list[Row]:
        raise NotImplementedError

    async def fetch_for_update(self, sql: str, params: Params) -> list[Row]:
        """A plain SELECT: a write transaction holds SQLite's one write lock already."""
        return await self.fetch(sql, params)

    async def fetch_skipping_locked(self, sql: str, params: Params) -> list[Row]:
        """A plain SELECT: no other transaction holds a row while this one writes."""
        return await self.fetch(sql, params)

    async def lock(self, keys: Iterable[str], *, shared: bool = False) -> None:
        """Nothing to do: a write transaction holds SQLite's one write lock already."""


class HoppingStatements(_SQLiteLocking):
    """Each statement a round trip to aiosqlite's thread, from the event loop."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params) -> list[Row]:
        # `execute_fetchall` runs, fetches and closes in one round trip, a cursor in three.
        try:
            rows = await self._connection.execute_fetchall(sql, params)
        except sqlite3.IntegrityError as error:
            raise sqlite_conflict(error) from error
        return [tuple(row) for row in rows]

    async def change(self, sql: str, params: Params) -> int:
        # The change counter instead of a cursor's rowcount: one round trip, not two. The
        # database lock keeps every other statement out meanwhile, and there are no triggers.
        before = self._connection.total_changes
        try:
            await self._connection.execute_fetchall(sql, params)
        except sqlite3.IntegrityError as error:
            raise sqlite_conflict(error) from error
        return self._connection.total_changes - before

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._connection.executemany(sql, rows)


class DirectStatements(_SQLiteLocking):
    """Statements on the sqlite3 connection itself: only in the thread that owns it
    (aiosqlite's), where `Database.run` runs a whole transaction. Never suspends."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params) -> list[Row]:
        try:
            return [tuple(row) for row in self._connection.execute(sql, params).fetchall()]
        except sqlite3.IntegrityError as error:
            raise sqlite_conflict(error) from error

    async def change(self, sql: str, params: Params) -> int:
        before = self._connection.total_changes
        try:
            self._connection.execute(sql, params).close()
        except sqlite3.IntegrityError as error:
            raise sqlite_conflict(error) from error
        return self._connection.total_changes - before

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None:
        self._connection.executemany(sql, rows).close()


class Repository:
    """Base of the repositories: one method per query, each returning dataclasses.

    A repository never opens or commits a transaction; the caller does that with
    `Database.transaction()`, `Database.read()` or `Database.run()`, so several queries
    can share one.
    """

    def __init__(self, statements: Statements) -> None:
        self._statements = statements

    async def _one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self._statements.fetch(sql, params)
        return rows[0] if rows else None

    async def _all(self, sql: str, params: Params = ()) -> list[Row]:
        return await self._statements.fetch(sql, params)

    async def _hold(self, sql: str, params: Params = ()) -> list[Row]:
        """Run a SELECT whose rows this transaction keeps other writers off until it ends
        (`Statements.fetch_for_update`)."""
        return await self._statements.fetch_for_update(sql, params)

    async def _write(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT/UPDATE/DELETE; the number of rows it touched. A unique or
        primary-key clash raises `Conflict` (someone else wrote that row first)."""
        return await self._statements.change(sql, params)

    async def _landed(self, sql: str, params: Params = ()) -> bool:
        """Run a write meant for one row; whether it landed. False when no row matched: the
        row is gone, or the write was conditional on what the writer last saw (`WHERE ply =
        ? AND status = 'active'`) and another writer got there first."""
        return await self._statements.change(sql, params) == 1

    async def _insert(self, sql: str, params: Params = ()) -> int:
        """Run an `INSERT ... RETURNING id`; the new row's id. A clash raises `Conflict`,
        as in `_write`."""
        row = await self._one(sql, params)
        assert row is not None
        return int(row[0])

    async def _write_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._statements.change_many(sql, rows)
