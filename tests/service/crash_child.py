"""The child process of the crash test: plays random legal moves in a few games for ever,
printing `game ply usi` after each move the service reports as stored. The test kills
it with SIGKILL at a random moment and checks the database afterwards.

Run as `python -m tests.service.crash_child DATABASE SEED`.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.db import open_database
from bot.services import GameService, PlayerRef, ServiceError

PAIRS = [(PlayerRef(11, "A"), PlayerRef(12, "B")), (PlayerRef(21, "C"), PlayerRef(22, "D"))]


async def current_game(service: GameService, first: PlayerRef, second: PlayerRef) -> int:
    games = await service.games.active_for(first.user_id)
    if games:
        return games[0].id
    challenge = await service.challenges.offer(
        guild_id=1, channel_id=1, challenger=first, opponent=second, time_control="unlimited"
    )
    return (await service.challenges.accept(challenge.id, second.user_id)).id


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    db = await open_database(path)
    service = GameService(db, rng=rng)
    print("ready", flush=True)
    while True:
        first, second = rng.choice(PAIRS)
        game_id = await current_game(service, first, second)
        view = await service.games.get(game_id)
        assert view.to_move is not None
        if rng.random() < 0.01:
            await service.endings.resign(game_id, view.to_move.user_id)
            print(f"resigned {game_id}", flush=True)
            continue
        move = rng.choice(view.game.position.legal_moves())
        try:
            result = await service.moves.play(game_id, view.to_move.user_id, move.usi())
        except ServiceError as error:  # pragma: no cover - would be a bug; the test sees it
            print(f"error {error.message}", flush=True)
            raise
        print(f"{game_id} {result.game.ply} {result.move.usi}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
