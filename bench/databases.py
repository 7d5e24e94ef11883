"""The databases a storage benchmark measures on, the same way in every script: a fresh
SQLite file in a scratch folder, then, when given its address, a PostgreSQL database; each
headed by its name, so the two runs' lines read apart, and each closed whatever happens."""

from __future__ import annotations

import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.db import Database


async def on_each_database(
    measure: Callable[[Database], Awaitable[None]], postgres: str | None = None
) -> None:
    """`measure` on a fresh SQLite file, then on the PostgreSQL database at `postgres` if
    one is given (its tables must be empty: each run adds its own rows)."""
    with tempfile.TemporaryDirectory() as scratch:
        db = await Database.open(Path(scratch) / "bench.db")
        try:
            print("== SQLite")
            await measure(db)
        finally:
            await db.close()
    if postgres is None:
        return
    db = await Database.open(postgres)
    try:
        print("== PostgreSQL")
        await measure(db)
    finally:
        await db.close()
