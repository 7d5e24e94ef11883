"""Benchmark of starting games: what the computer's one-transaction start costs, and what
a second press of a start button costs the bot.

    python bench/bench_starts.py [--games 200] [--seed 1]

On a real SQLite file, interleaved so that all see the same machine:

* a game between members started by a challenge and its Accept (two transactions): the
  reference;
* `/computer`: the challenge, its acceptance, the game and the computer's seat in one
  transaction (the engine is not asked: the member moves first);
* Play again pressed a second time under a finished computer game: refused with the game
  it started (`AlreadyStarted`), the cost of every press after the first.

It prints the median and 95th percentile of each, and the ratios to the reference.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import Clock, lap, ratio, report
from bot.db import open_database
from bot.engine import EnginePool
from bot.services import AlreadyStarted, GameService, PlayerRef

GUILD = 1
MEMBERS = [PlayerRef(100 + i, f"Member {i}") for i in range(20)]
COMPUTER = PlayerRef(99, "Shogi Bot", True)
#: Never started: no search is asked of it here.
ENGINE = "/usr/games/fairy-stockfish"


async def starts(service: GameService, games: int, rng: random.Random) -> None:
    members: list[float] = []
    computer: list[float] = []
    refused: list[float] = []
    for _ in range(games):
        a, b = rng.sample(MEMBERS, 2)
        with lap(members):
            challenge = await service.challenges.offer(
                guild_id=GUILD, channel_id=1, challenger=a, opponent=b
            )
            await service.challenges.accept(challenge.id, b.user_id)
        with lap(computer):
            game = await service.computer.start(
                guild_id=GUILD, channel_id=1, member=a, computer=COMPUTER, level=1, color="sente"
            )
        await service.endings.resign(game.id, a.user_id)
        await service.computer.again(game.id, a.user_id, guild_id=GUILD)
        with lap(refused):
            try:
                await service.computer.again(game.id, a.user_id, guild_id=GUILD)
            except AlreadyStarted:
                pass
            else:
                raise AssertionError("a second Play again started a game")
        for active in await service.games.active_for(a.user_id):
            await service.endings.resign(active.id, a.user_id)
    reference = report("challenge + Accept (reference)", members, tail=0.95)
    one = report("/computer, one transaction", computer, tail=0.95)
    second = report("Play again, second press refused", refused, tail=0.95)
    ratio("computer / members", one, reference)
    ratio("refused press / members", second, reference)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="starts of each kind")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = await open_database(Path(folder) / "shogi.db")
        engine = EnginePool(ENGINE)
        service = GameService(db, clock=Clock(), rng=random.Random(options.seed), engine=engine)
        try:
            await starts(service, options.games, random.Random(options.seed))
        finally:
            await engine.close()
            await db.close()


if __name__ == "__main__":
    asyncio.run(main())
