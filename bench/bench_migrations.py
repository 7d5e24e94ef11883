"""Benchmark of the challenges table rebuild (the migration that allows open challenges),
which runs once, at the first start-up of the new bot, while the bot waits.

    python bench/bench_migrations.py [--challenges 100000] [--runs 5]

It builds a database one version older with that many challenges (between 200 players,
a tenth of them accepted with their game), then times, on fresh copies of the file:

* the migration itself (new table, copy, drop, rename, indexes, foreign key check);
* the reference: the same rows copied into a plain new table with the same two indexes,
  the least any rebuild of that table costs on this machine.

It prints the median of each and their ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiosqlite

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.db.migrations import MIGRATIONS, migrate

PLAYERS = 200
REBUILD = next(m for m in MIGRATIONS if m.description.startswith("challenges: open to anyone"))


async def build(path: Path, count: int) -> None:
    """A database at the version before the rebuild, with `count` challenges."""
    before = tuple(m for m in MIGRATIONS if m.version < REBUILD.version)
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        await migrate(connection, 0, migrations=before)
        await connection.execute("BEGIN")
        await connection.executemany(
            "INSERT INTO players (user_id, name, updated_at) VALUES (?, ?, 0)",
            [(n, f"player{n}") for n in range(1, PLAYERS + 1)],
        )
        games = [(n, 1 + n % PLAYERS, 1 + (n + 1) % PLAYERS) for n in range(count // 10)]
        await connection.executemany(
            "INSERT INTO games (id, guild_id, channel_id, sente_id, gote_id, handicap,"
            " start_sfen, bank_us, impasse_rule, status, ply, sfen, sente_bank_us,"
            " gote_bank_us, turn_started_at, started_at)"
            " VALUES (?, 1, 1, ?, ?, 'even', 's', 0, '27', 'active', 0, 's', 0, 0, 0, 0)",
            games,
        )
        rows = []
        for n in range(count):
            challenger, opponent = 1 + n % PLAYERS, 1 + (n * 7 + 1) % PLAYERS
            if opponent == challenger:
                opponent = 1 + challenger % PLAYERS
            accepted = n % 10 == 0 and n // 10 < len(games)
            rows.append(
                (
                    challenger,
                    opponent,
                    "accepted" if accepted else "expired",
                    n // 10 if accepted else None,
                )
            )
        await connection.executemany(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color,"
            " bank_us, period_us, handicap, impasse_rule, status, created_at, expires_at,"
            " message_id, game_id) VALUES (1, 2, ?, ?, 'random', 0, 259200000000, 'even',"
            " '27', ?, 0, 1, 5, ?)",
            rows,
        )
        await connection.execute("COMMIT")


async def time_migration(path: Path) -> float:
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        await connection.execute("PRAGMA foreign_keys = ON")
        started = time.perf_counter()
        await migrate(connection, 0, migrations=MIGRATIONS[: REBUILD.version])
        return time.perf_counter() - started


def time_reference(path: Path) -> float:
    with sqlite3.connect(path, isolation_level=None) as connection:
        started = time.perf_counter()
        connection.execute("BEGIN IMMEDIATE")
        connection.execute("CREATE TABLE copied AS SELECT * FROM challenges")
        connection.execute("CREATE INDEX copied_status ON copied (status, expires_at)")
        connection.execute(
            "CREATE INDEX copied_pair ON copied (guild_id, challenger_id, opponent_id)"
        )
        connection.execute("COMMIT")
        return time.perf_counter() - started


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--challenges", type=int, default=100_000)
    parser.add_argument("--runs", type=int, default=5)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        original = Path(folder) / "before.db"
        await build(original, options.challenges)
        rebuilt, copied = [], []
        for run in range(options.runs):
            copy = Path(folder) / f"run{run}.db"
            shutil.copyfile(original, copy)
            rebuilt.append(await time_migration(copy))
            shutil.copyfile(original, copy)
            copied.append(time_reference(copy))
    rebuild, reference = statistics.median(rebuilt), statistics.median(copied)
    print(f"{options.challenges:,} challenges, median of {options.runs} runs")
    print(f"  migration {REBUILD.version} (rebuild + foreign key check): {rebuild * 1000:8.1f} ms")
    print(f"  reference (copy + 2 indexes):                 {reference * 1000:8.1f} ms")
    print(f"  ratio: {rebuild / reference:.2f}")


if __name__ == "__main__":
    asyncio.run(main())
