"""Starting a game, on SQLite (file and memory) and PostgreSQL: a game against the computer
is stored whole or not at all (challenge, game and the computer's seat in one transaction)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.db import Database
from bot.db.engine import ComputerRepository
from bot.engine import EnginePool
from bot.services import GameService, GameSnapshot, PlayerRef

from ..support.engines import fake_engine
from .conftest import ALICE, CHANNEL, GUILD, FakeClock

BOT = PlayerRef(9009, "ShogiBot", True)
PRESSES = 4


def with_engine(db: Database, clock: FakeClock, pool: EnginePool) -> GameService:
    return GameService(db, clock=clock, rng=random.Random(7), engine=pool)


async def computer_game(service: GameService) -> GameSnapshot:
    return await service.computer.start(
        guild_id=GUILD, channel_id=CHANNEL, member=ALICE, computer=BOT, level=2, color="gote"
    )


async def finished_computer_game(service: GameService) -> GameSnapshot:
    game = await computer_game(service)
    return await service.moves.resign(game.id, ALICE.user_id)


async def active_games(service: GameService, user: PlayerRef = ALICE) -> list[int]:
    return [game.id for game in await service.games.active_for(user.user_id)]


async def test_a_computer_start_that_fails_halfway_stores_nothing_and_asking_again_starts_it(
    db: Database,
    clock: FakeClock,
    tmp_path: Path,
    engines: list[EnginePool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])

    async def broken(self: ComputerRepository, game_id: int, user_id: int, level: int) -> None:
        raise RuntimeError("the disk filled up between the game and its seat")

    with monkeypatch.context() as patched:
        patched.setattr(ComputerRepository, "add", broken)
        with pytest.raises(RuntimeError, match="disk filled up"):
            await computer_game(service)
    async with db.read() as tx:
        assert await tx.games.ids("active") == [] and await tx.games.ids("finished") == []
        assert await tx.challenges.get(1) is None
        assert (
            await tx.challenges.open_between(GUILD, ALICE.user_id, BOT.user_id, clock.now) is None
        )
    game = await computer_game(service)  # Retry: /computer again
    seat = await service.computer.seat_in(game.id, guild_id=GUILD)
    assert seat.level == 2 and await active_games(service) == [game.id]
