"""Benchmark of ratings: what rating adds to a game's ending, a server's rebuild from its
history, and the profile's chart.

    python bench/bench_ratings.py [--games 300] [--history 1000] [--seed 1]

* ending: a resignation stored through the service on a real SQLite file, for a rated
  game and, as the reference measured in the same run, for an unrated one (the same
  ending without the rating update); the ratio is what rating costs an ending;
* rebuild: a server's ratings recomputed from a history of `--history` rated games and
  written back (`Ratings.rebuild`), once per sample;
* chart: a 40-game rating chart drawn, against a random midgame's board drawn by the same
  Pillow (the reference: the image the bot posts with every move).

It prints the median and 95th percentile of each, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import Clock, lap, ratio, report
from bot.db import open_database
from bot.services import GameService, PlayerRef
from render import render_board, render_rating_chart
from rules import Position

GUILD = 1
MEMBERS = [PlayerRef(100 + i, f"Member {i}") for i in range(20)]


async def endings(service: GameService, clock: Clock, games: int, rng: random.Random) -> None:
    rated: list[float] = []
    unrated: list[float] = []
    for index in range(games * 2):
        a, b = rng.sample(MEMBERS, 2)
        counted = index % 2 == 0  # interleaved, so both see the same machine
        challenge = await service.challenges.offer(
            guild_id=GUILD, channel_id=1, challenger=a, opponent=b, rated=counted
        )
        game = await service.challenges.accept(challenge.id, b.user_id)
        await service.moves.play(game.id, game.sente.user_id, "7g7f")
        await service.moves.play(game.id, game.gote.user_id, "3c3d")
        clock.now += timedelta(hours=rng.uniform(1, 48))
        with lap(rated if counted else unrated):
            await service.endings.resign(game.id, rng.choice([a, b]).user_id)
    plain = report("ending, unrated (reference)", unrated, tail=0.95)
    with_rating = report("ending, rated", rated, tail=0.95)
    ratio("rated / unrated", with_rating, plain)


async def rebuilds(service: GameService, history: int, samples: int) -> None:
    have = len(await service.ratings.recompute(GUILD))
    async with service.store.db.query() as q:
        entries = len(await q.ratings.history(GUILD)) // 2
    times: list[float] = []
    for _ in range(samples):
        with lap(times):
            await service.ratings.rebuild(GUILD)
    report(f"rebuild from {entries} rated games ({have} members)", times, tail=0.95)


def charts(samples: int, rng: random.Random) -> None:
    ratings = [1500.0]
    for _ in range(40):
        ratings.append(ratings[-1] + rng.uniform(-60, 60))
    board: list[float] = []
    chart: list[float] = []
    for _ in range(samples):
        position = Position.initial()
        for _ in range(rng.randrange(20, 60)):  # a new midgame each time: nothing cached
            moves = position.legal_moves()
            if not moves:
                break
            position.push(rng.choice(moves))
        with lap(board):
            render_board(position)
        with lap(chart):
            render_rating_chart(ratings, title="Member: rating")
    reference = report("midgame board (reference)", board, tail=0.95)
    drawn = report("rating chart, 40 games", chart, tail=0.95)
    ratio("chart / board", drawn, reference)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300, help="endings of each kind")
    parser.add_argument("--history", type=int, default=1000, help="rated games to rebuild")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    rng = random.Random(options.seed)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "shogi.db")
        clock = Clock()
        service = GameService(db, clock=clock, rng=random.Random(options.seed))
        try:
            await endings(service, clock, options.games, rng)
            extra = max(options.history - options.games, 0)
            await endings_quietly(service, clock, extra, rng)
            await rebuilds(service, options.history, 20)
        finally:
            await db.close()
    charts(50, rng)


async def endings_quietly(
    service: GameService, clock: Clock, games: int, rng: random.Random
) -> None:
    """More rated games, unmeasured, to make the history `--history` games long."""
    for _ in range(games):
        a, b = rng.sample(MEMBERS, 2)
        challenge = await service.challenges.offer(
            guild_id=GUILD, channel_id=1, challenger=a, opponent=b
        )
        game = await service.challenges.accept(challenge.id, b.user_id)
        # Both players move: a game that ends sooner is aborted, not rated.
        await service.moves.play(game.id, game.sente.user_id, "7g7f")
        await service.moves.play(game.id, game.gote.user_id, "3c3d")
        clock.now += timedelta(hours=rng.uniform(1, 48))
        await service.endings.resign(game.id, rng.choice([a, b]).user_id)


if __name__ == "__main__":
    asyncio.run(main())
