"""The little every repository shares: running one statement on the session's connection.

A repository runs its statements through `Statements`, which comes in two kinds: on the
aiosqlite connection, where every statement is a round trip to aiosqlite's thread (a
queue, a wake-up, a callback on the event loop), or straight on the sqlite3 connection,
for a whole transaction that `Database.run` executes in that thread in one round trip.
The repositories' methods are the same coroutines either way; in the second kind they
never suspend, which is what lets `Database.run` complete them inside the thread.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any, Protocol

import aiosqlite

from .errors import Conflict

Row = Sequence[Any]
Params = Sequence[object]


class Statements(Protocol):
    """What the repositories ask of a connection."""

    async def fetch(self, sql: str, params: Params) -> list[Row]: ...

    async def change(self, sql: str, params: Params) -> int:
        """Run an INSERT/UPDATE/DELETE; the number of rows it touched."""
        ...

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None: ...


class HoppingStatements:
    """Each statement a round trip to aiosqlite's thread, from the event loop."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params) -> list[Row]:
        # `execute_fetchall` runs, fetches and closes in one round trip, a cursor in three.
        rows = await self._connection.execute_fetchall(sql, params)
        return [tuple(row) for row in rows]

    async def change(self, sql: str, params: Params) -> int:
        # The change counter instead of a cursor's rowcount: one round trip, not two. The
        # database lock keeps every other statement out meanwhile, and there are no triggers.
        before = self._connection.total_changes
        await self._connection.execute_fetchall(sql, params)
        return self._connection.total_changes - before

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._connection.executemany(sql, rows)


class DirectStatements:
    """Statements on the sqlite3 connection itself: only in the thread that owns it
    (aiosqlite's), where `Database.run` runs a whole transaction. Never suspends."""

    def __init__(self, connection: sqlite3.Connection) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params) -> list[Row]:
        return [tuple(row) for row in self._connection.execute(sql, params).fetchall()]

    async def change(self, sql: str, params: Params) -> int:
        before = self._connection.total_changes
        self._connection.execute(sql, params).close()
        return self._connection.total_changes - before

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None:
        self._connection.executemany(sql, rows).close()


def _clash(error: sqlite3.IntegrityError) -> bool:
    """A unique or primary-key clash: a race lost. Any other integrity error (a foreign
    key, a check) is a bug, not a race."""
    return "UNIQUE" in str(error) or "PRIMARY KEY" in str(error)


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

    async def _write(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT/UPDATE/DELETE; the number of rows it touched. A unique or
        primary-key clash becomes `Conflict` (someone else wrote that row first)."""
        try:
            return await self._statements.change(sql, params)
        except sqlite3.IntegrityError as error:
            if _clash(error):
                raise Conflict(str(error)) from error
            raise

    async def _insert(self, sql: str, params: Params = ()) -> int:
        """Run an `INSERT ... RETURNING id`; the new row's id. A clash becomes `Conflict`,
        as in `_write`."""
        try:
            row = await self._one(sql, params)
        except sqlite3.IntegrityError as error:
            if _clash(error):
                raise Conflict(str(error)) from error
            raise
        assert row is not None
        return int(row[0])

    async def _write_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._statements.change_many(sql, rows)
