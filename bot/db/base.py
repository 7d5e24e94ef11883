"""The little every repository shares: running one statement on the session's connection."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

import aiosqlite

from .errors import Conflict

Row = Sequence[Any]
Params = Sequence[object]


class Repository:
    """Base of the repositories: one method per query, each returning dataclasses.

    A repository never opens or commits a transaction; the caller does that with
    `Database.transaction()` or `Database.read()`, so several queries can share one.
    """

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self._connection = connection

    # Each await on aiosqlite is a round trip to its thread (a queue, a wake-up, a callback
    # on the loop): `execute_fetchall` runs, fetches and closes in one, where a cursor
    # takes three. Every move takes several queries.

    async def _one(self, sql: str, params: Params = ()) -> Row | None:
        rows = await self._connection.execute_fetchall(sql, params)
        for row in rows:
            return tuple(row)
        return None

    async def _all(self, sql: str, params: Params = ()) -> list[Row]:
        rows = await self._connection.execute_fetchall(sql, params)
        return [tuple(row) for row in rows]

    async def _write(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT/UPDATE/DELETE; the number of rows it touched. A unique or
        primary-key clash becomes `Conflict` (someone else wrote that row first)."""
        # The change counter instead of a cursor's rowcount: one round trip, not two. The
        # database lock keeps every other statement out meanwhile, and there are no triggers.
        before = self._connection.total_changes
        try:
            await self._connection.execute_fetchall(sql, params)
            return self._connection.total_changes - before
        except sqlite3.IntegrityError as error:
            if "UNIQUE" in str(error) or "PRIMARY KEY" in str(error):
                raise Conflict(str(error)) from error
            raise

    async def _write_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._connection.executemany(sql, rows)
