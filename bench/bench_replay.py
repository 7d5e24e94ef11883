"""Benchmark of looking back: `/replay`'s step and `/games status:finished`.

    python bench/bench_replay.py [--games 4000] [--samples 300] [--seed 1]

On a database of random playouts of 0 to 150 moves among 400 players (as
`bench_service.py` builds it), it measures, each on games or players picked at random:

* `at_ply` warm: a replay button's service work on a game already loaded (the game
  replayed to the ply pressed, and the moves around it written in three notations);
* the reference, measured in the same run: `get` warm, the same game shown as it stands;
* the board drawn for that ply (`render_board`), which a press also pays: the step's own
  work should be small beside it;
* `listed` finished: a player's latest finished games read from their rows (half the
  games are resigned first), against `active_for`, their active games (what `/games`
  listed before).

It prints medians, 99th percentiles and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_service import PLAYERS, generate, store
from bench.timing import lap, report
from bot.db import open_database
from bot.services import GameService, ListedStatus
from render import render_board


async def finish_half(service: GameService, ids: list[int], seed: int) -> None:
    """Resign half of the active games, so that players have finished games to list."""
    rng = random.Random(seed)
    started = time.perf_counter()
    finished = 0
    for game_id in rng.sample(ids, len(ids) // 2):
        game = await service.games.get(game_id)
        if game.to_move is not None:
            await service.endings.resign(game_id, game.to_move.user_id)
            finished += 1
    print(f"resigned {finished:,} games in {time.perf_counter() - started:.1f} s")


async def measure(service: GameService, ids: list[int], samples: int, seed: int) -> None:
    rng = random.Random(seed)
    chosen = [rng.choice(ids) for _ in range(samples)]
    for game_id in chosen:
        await service.games.get(game_id)  # warm: the replay's game is the one shown
    shown: list[float] = []
    stepped: list[float] = []
    drawn: list[float] = []
    for game_id in chosen:
        game = await service.games.get(game_id)
        ply = rng.randint(0, game.ply)
        with lap(shown):
            await service.games.get(game_id)
        with lap(stepped):
            await service.games.at_ply(game_id, ply, guild_id=1)
        step = await service.games.at_ply(game_id, ply, guild_id=1)
        with lap(drawn):
            render_board(step.board.game.position, last_move=step.board.last_move)
    plain = report("get warm (reference)", shown)
    at_ply = report("at_ply warm", stepped)
    drawing = report("render_board", drawn)
    ratio, share = at_ply / plain, at_ply / drawing
    print(f"at_ply / get: {ratio:.1f}x; at_ply / render: {share:.2f}x")

    active: list[float] = []
    finished: list[float] = []
    for _ in range(samples):
        player = rng.randint(1, PLAYERS)
        with lap(active):
            await service.games.active_for(player, guild_id=1)
        with lap(finished):
            await service.games.listed(player, guild_id=1, status=ListedStatus.FINISHED)
    reference = report("active_for (reference)", active)
    listed = report("listed finished", finished)
    ratio = listed / reference
    print(f"listed finished / active_for: {ratio:.1f}x")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    playouts = generate(args.games, args.seed)
    with tempfile.TemporaryDirectory() as scratch:
        db = await open_database(Path(scratch) / "bench.db")
        try:
            ids = await store(db, playouts, args.seed)
            service = GameService(db)
            await finish_half(service, ids, args.seed)
            await measure(service, ids, args.samples, args.seed)
        finally:
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
