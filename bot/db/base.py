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

    async def _one(self, sql: str, params: Params = ()) -> Row | None:
        async with self._connection.execute(sql, params) as cursor:
            row = await cursor.fetchone()
        return None if row is None else tuple(row)

    async def _all(self, sql: str, params: Params = ()) -> list[Row]:
        async with self._connection.execute(sql, params) as cursor:
            rows = await cursor.fetchall()
        return [tuple(row) for row in rows]

    async def _write(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT/UPDATE/DELETE; the number of rows it touched. A unique or
        primary-key clash becomes `Conflict` (someone else wrote that row first)."""
        try:
            async with self._connection.execute(sql, params) as cursor:
                return cursor.rowcount
        except sqlite3.IntegrityError as error:
            if "UNIQUE" in str(error) or "PRIMARY KEY" in str(error):
                raise Conflict(str(error)) from error
            raise

    async def _write_many(self, sql: str, rows: Iterable[Params]) -> None:
        await self._connection.executemany(sql, rows)
