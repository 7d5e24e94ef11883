"""Benchmark of the computer opponent and of analysis, with the real engine.

    python bench/bench_engine.py [--moves 3] [--plies 20] [--engine /usr/games/fairy-stockfish]

* move at each level: the computer's move through the service (`Computer.play_turn` on a
  real SQLite file: the search, reading and checking its move, storing it), `--moves`
  times per level in games after a few random opening moves; the reference, measured in
  the same run, is a bare engine search of the same time and skill on the same process
  pool, so the ratio is what the bot adds to the engine's own thinking;
* analysis per position: a finished game of `--plies` moves analysed through the service
  (time per position evaluated, everything stored), against a bare search of the
  analysis time.

It prints the median and 95th percentile of each, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import lap, ratio, report
from bot.db import open_database
from bot.engine import EnginePool
from bot.services import LEVELS, GameService, PlayerRef
from bot.services.computer.analysis import ANALYSIS_MS, ANALYSIS_SKILL

GUILD, CHANNEL = 1, 2
MEMBER = PlayerRef(100, "Member")
COMPUTER = PlayerRef(900, "Computer", True)


async def member_move(service: GameService, game_id: int, rng: random.Random) -> None:
    legal = await service.games.legal_moves(game_id, MEMBER.user_id)
    await service.moves.play(game_id, MEMBER.user_id, rng.choice(legal).usi)


async def levels(service: GameService, pool: EnginePool, moves: int, rng: random.Random) -> None:
    for level, setting in LEVELS.items():
        played: list[float] = []
        bare: list[float] = []
        for _ in range(moves):
            game = await service.computer.start(
                guild_id=GUILD, channel_id=CHANNEL, member=MEMBER, computer=COMPUTER,
                level=level, color="sente",
            )  # fmt: skip
            for _ in range(rng.randrange(0, 4)):
                await member_move(service, game.id, rng)
                await service.computer.play_turn(game.id)
            await member_move(service, game.id, rng)
            snapshot = await service.games.get(game.id)
            moves_so_far = [m.usi() for m in snapshot.game.moves]
            with lap(bare):
                await pool.search(
                    snapshot.game.start.sfen(), moves_so_far,
                    movetime_ms=setting.movetime_ms, skill=setting.skill,
                )  # fmt: skip
            with lap(played):
                done = await service.computer.play_turn(game.id)
            assert done is not None and done.played is not None
            await service.endings.resign(game.id, MEMBER.user_id)
        ours = report(f"level {level} move ({setting.movetime_ms} ms)", played, tail=0.95)
        engine = report(f"level {level} bare search", bare, tail=0.95)
        ratio("move / bare search", ours, engine)


async def analysis(service: GameService, pool: EnginePool, plies: int, rng: random.Random) -> None:
    challenge = await service.challenges.offer(
        guild_id=GUILD, channel_id=CHANNEL, challenger=MEMBER,
        opponent=PlayerRef(101, "Other"), time_control="unlimited",
    )  # fmt: skip
    game = await service.challenges.accept(challenge.id, 101)
    for _ in range(plies):
        view = await service.games.get(game.id)
        if view.to_move is None:
            break
        legal = await service.games.legal_moves(game.id, view.to_move.user_id)
        await service.moves.play(game.id, view.to_move.user_id, rng.choice(legal).usi)
    view = await service.games.get(game.id)
    if view.outcome is None:
        await service.endings.resign(game.id, MEMBER.user_id)
    stamps: list[float] = [time.perf_counter()]

    async def progress(done: int, total: int) -> None:
        stamps.append(time.perf_counter())

    await service.analyses.analyse(game.id, progress=progress)
    per_position = [b - a for a, b in itertools.pairwise(stamps)]
    bare: list[float] = []
    for _ in range(min(5, len(per_position))):
        with lap(bare):
            await pool.search(
                view.game.start.sfen(), [], movetime_ms=ANALYSIS_MS, skill=ANALYSIS_SKILL
            )
    ours = report(f"analysis per position ({ANALYSIS_MS} ms)", per_position, tail=0.95)
    engine = report("analysis bare search", bare, tail=0.95)
    ratio("position / bare search", ours, engine)
    again: list[float] = []
    with lap(again):
        await service.analyses.analyse(game.id)
    report("analysis again (stored)", again, tail=0.95)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--moves", type=int, default=3)
    parser.add_argument("--plies", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--engine",
        default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish",
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    pool = EnginePool(args.engine)
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "bench.db")
        service = GameService(db, engine=pool, rng=rng)
        try:
            await levels(service, pool, args.moves, rng)
            await analysis(service, pool, args.plies, rng)
        finally:
            await pool.close()
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
