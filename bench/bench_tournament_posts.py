"""Benchmark of what the announcement's edit costs after a result, on a real database: a
30-player double round robin (870 games), a game resigned, then the standings the post
shows read and drawn (`tournaments.crosstables`: the table, its games and the players'
names; then the crosstable's PNG and its text for screen readers), against the
reference of the service acting on that result (`tournaments.game_ended`).

    python bench/bench_tournament_posts.py [--players 30] [--results 20]
                                           [--database postgresql://user@host/empty]

It prints the medians and 95th percentiles, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_tournament_service import ORGANIZER, a_tournament
from bench.databases import on_each_database
from bench.timing import Clock, lap, ratio, report
from bot.db import Database
from bot.services import GameService
from bot.services.tournaments.model import Runner
from bot.ui.text.tournaments.crosstable import crosstable_words
from render.crosstable import describe_crosstable, render_crosstable


async def measure(db: Database, players: int, results: int, seed: int) -> None:
    clock = Clock()
    service = GameService(db, clock=clock, rng=random.Random(seed))
    async with db.transaction() as tx:
        await tx.players.upsert(ORGANIZER.to_row(), clock())
    guild = 10
    tournament_id = await a_tournament(service, clock, guild, players)
    change = await service.tournaments.start(
        tournament_id, Runner(ORGANIZER.user_id, True), guild_id=guild
    )
    words = crosstable_words("ja")
    acting: list[float] = []
    reading: list[float] = []
    drawing: list[float] = []
    rng = random.Random(seed)
    for game_id in rng.sample(list(change.games_created), results):
        game = await service.games.get(game_id)
        await service.endings.resign(game_id, rng.choice((game.sente, game.gote)).user_id)
        with lap(acting):
            await service.tournaments.game_ended(game_id)
        with lap(reading):
            [table] = await service.tournaments.crosstables(tournament_id)
        with lap(drawing):
            render_crosstable(table, words=words)
            describe_crosstable(table, words=words)
    print(f"{players} players, double round robin: {len(change.games_created)} games")
    floor = report("tournaments.game_ended (reference)", acting, tail=0.95)
    read = report("tournaments.crosstables (table, games, names)", reading, tail=0.95)
    drawn = report("crosstable drawn and described", drawing, tail=0.95)
    ratio("read / reference", read, floor)
    ratio("read and drawn / reference", read + drawn, floor)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--results", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.players, args.results, args.seed)

    await on_each_database(run, args.database or os.environ.get("TEST_DATABASE_URL"))


if __name__ == "__main__":
    asyncio.run(main())
