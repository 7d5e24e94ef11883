"""Speed of `/explorer`'s lookups over a server with 10,000 indexed games.

Stores 10,000 finished games of one server (random openings of 40 to 120 plies, grown
from a few common first moves, so the start position has every game and later positions
fewer), indexes them as a first use does (`Explorer.backfill`, which also gives the
indexing rate), then times, in the same run:

- the reference: a plain indexed lookup (one row of `explorer_moves` found through the
  index by server, position and move, `ExplorerRepository.passed`);
- the two lookups of an answer for the start position (which moves, how often, with what
  results; the latest games through it), and the whole `Explorer.explore`, which adds the
  moves' notation;
- the same for a position after two plies.

It prints the medians, the ratios against the reference, and how the database runs the two
lookups (EXPLAIN): each a range scan of its index, never of the table.

    python bench/bench_explorer.py [--games 10000] [--samples 200]
    scripts/test_postgres.sh bash -c \
        '.venv/bin/python bench/bench_explorer.py --database "$TEST_DATABASE_URL"'
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.databases import on_each_database  # noqa: E402
from bench.timing import Clock, lap, ratio, report  # noqa: E402
from bot.db import BulkGame, Database, MoveRow, NewGame, PlayerRow, Terms  # noqa: E402
from bot.services import GameService, position_hash  # noqa: E402
from rules import Game, Move, Position  # noqa: E402

GUILD = 1
BATCH = 500
OPENINGS = ("7g7f", "2g2f", "5g5f", "6g6f", "1g1f", "9g9f", "3g3f", "4g4f")


def random_game(rng: random.Random, n: int) -> BulkGame:
    """A finished game: a common first move (weighted, as clubs open), then random legal
    moves; a third are draws."""
    game = Game()
    first = rng.choices(OPENINGS, weights=(40, 30, 10, 8, 4, 3, 3, 2))[0]
    game.push(Move.from_usi(first))
    length = rng.randint(40, 120)
    while len(game.moves) < length and game.outcome is None:
        moves = game.position.legal_moves()
        if not moves:
            break
        game.push(rng.choice(moves))
    started = datetime(2025, 1, 1, tzinfo=UTC)
    rows = tuple(
        MoveRow(0, ply + 1, move.usi(), 1 + ply % 2, started) for ply, move in enumerate(game.moves)
    )
    terms = Terms(bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27")
    new = NewGame(GUILD, 10, 1, 2, terms, Position.initial().sfen(), started)
    winner = ("sente", "gote", None)[n % 3]
    termination = "resignation" if winner is not None else "sennichite"
    return BulkGame(new, rows, game.position.sfen(), started, termination, winner)


async def fill(db: Database, games: int, seed: int) -> list[BulkGame]:
    rng = random.Random(seed)
    made = [random_game(rng, n) for n in range(games)]
    now = datetime(2025, 1, 1, tzinfo=UTC)
    async with db.transaction() as tx:
        await tx.players.upsert(PlayerRow(1, "one"), now)
        await tx.players.upsert(PlayerRow(2, "two"), now)
    for start in range(0, games, BATCH):
        async with db.transaction() as tx:
            await tx.games.bulk_insert(made[start : start + BATCH])
    return made


async def timed(samples: int, work: Callable[[], Awaitable[None]]) -> list[float]:
    times: list[float] = []
    for _ in range(samples):
        with lap(times):
            await work()
    return times


async def measure(db: Database, games: int, samples: int, seed: int) -> None:
    made = await fill(db, games, seed)
    service = GameService(db, clock=Clock())
    started = time.perf_counter()
    left = await service.explorer.backfill(GUILD, limit=games)
    took = time.perf_counter() - started
    assert left == 0
    rows = sum(len(g.moves) for g in made)
    print(f"indexed {games:,} games ({rows:,} moves) in {took:.1f} s: {games / took:,.0f} games/s")
    await db.refresh_statistics()
    start = Position.initial()
    later = Game.replay(None, ["7g7f", "3c3d"]).position
    key, later_key = position_hash(start), position_hash(later)

    async def reference() -> None:
        async with db.query() as q:
            await q.explorer.passed(GUILD, key, "7g7f")

    def lookups(at: int) -> Callable[[], Awaitable[None]]:
        async def both() -> None:
            async with db.read() as tx:
                await tx.explorer.tally(GUILD, at, limit=25)
                await tx.explorer.games_at(GUILD, at, limit=5)

        return both

    async with db.query() as q:
        counted = await q.explorer.tally(GUILD, key, limit=25)
    print(f"start position: {sum(t.games for t in counted):,} moves played there, "
          f"{len(counted)} different")  # fmt: skip
    base = report("plain indexed lookup (reference)", await timed(samples, reference))
    for name, at, position in (("start", key, start), ("after 7g7f 3c3d", later_key, later)):
        both = report(f"{name}: tally + games", await timed(samples, lookups(at)))
        ratio("against the reference", both, base)

        async def explore(p: Position = position) -> None:
            await service.explorer.explore(GUILD, p)

        whole = report(f"{name}: explore (with notation)", await timed(samples, explore))
        ratio("against the reference", whole, base)
    async with db.query() as q:
        plans = await q.explorer.plans(GUILD, key, backend=db.backend)
    for name, lines in plans.items():
        print(f"plan of {name}:")
        for line in lines:
            print(f"    {line}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.games, args.samples, args.seed)

    asyncio.run(on_each_database(run, args.database))


if __name__ == "__main__":
    main()
