"""The databases a storage benchmark measures on, the same way in every script: a fresh
SQLite file in a scratch folder, then, when given its address, a PostgreSQL database; each
headed by its name, so the two runs' lines read apart, and each closed whatever happens."""

from __future__ import annotations

import argparse
import tempfile
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.db import Database, open_database


async def on_each_database(
    measure: Callable[[Database], Awaitable[None]], postgres: str | None = None
) -> None:
    """`measure` on a fresh SQLite file, then on the PostgreSQL database at `postgres` if
    one is given (its tables must be empty: each run adds its own rows)."""
    with tempfile.TemporaryDirectory() as scratch:
        db = await open_database(Path(scratch) / "bench.db")
        try:
            print("== SQLite")
            await measure(db)
        finally:
            await db.close()
    if postgres is None:
        return
    db = await open_database(postgres)
    try:
        print("== PostgreSQL")
        await measure(db)
    finally:
        await db.close()


async def challenge_bench(
    measure: Callable[[Database, int, int, int], Awaitable[None]],
    *,
    description: str,
    samples: int,
) -> None:
    """The command line of a benchmark that fills a database with challenges and times
    requests against them: `measure(db, challenges, samples, seed)` on each database."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--challenges", type=int, default=5_000)
    parser.add_argument("--samples", type=int, default=samples)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.challenges, args.samples, args.seed)

    await on_each_database(run, args.database)
