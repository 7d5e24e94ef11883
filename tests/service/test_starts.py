"""Starting a game happens once, on SQLite (file and memory) and PostgreSQL: a game against
the computer is stored whole or not at all (challenge, game and the computer's seat in one
transaction), and Accept, Accept unrated, Rematch and Play again pressed twice, one after
the other or at once, by one member or two, and from two processes, start one game; every
other press is told it started, naming that game (`AlreadyStarted`)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.db import Database, open_database
from bot.db.engine import ComputerRepository
from bot.engine import EnginePool
from bot.services import AlreadyStarted, Budgets, GameService, GameSnapshot, PlayerRef, ServiceError

from ..support.engines import fake_engine
from .conftest import (
    ALICE,
    BOB,
    BOT,
    CAROL,
    CHANNEL,
    GUILD,
    FakeClock,
    play_all,
    start_game,
    versus_computer,
    with_engine,
)

PRESSES = 4


async def computer_game(service: GameService) -> GameSnapshot:
    return await versus_computer(service, level=2)


async def finished_computer_game(service: GameService) -> GameSnapshot:
    game = await computer_game(service)
    return await service.endings.resign(game.id, ALICE.user_id)


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


async def test_play_again_pressed_twice_starts_one_game(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    first = await finished_computer_game(service)
    again = await service.computer.again(first.id, ALICE.user_id, guild_id=GUILD)
    with pytest.raises(AlreadyStarted, match="already been played again") as second:
        await service.computer.again(first.id, ALICE.user_id, guild_id=GUILD)
    assert second.value.game_id == again.id
    assert await active_games(service) == [again.id]
    ended = await service.endings.resign(again.id, ALICE.user_id)  # the next one may go again
    third = await service.computer.again(ended.id, ALICE.user_id, guild_id=GUILD)
    assert await active_games(service) == [third.id]


async def test_play_again_pressed_at_once_starts_one_game(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    first = await finished_computer_game(service)
    results = await asyncio.gather(
        *(service.computer.again(first.id, ALICE.user_id, guild_id=GUILD) for _ in range(PRESSES)),
        return_exceptions=True,
    )
    started = [r for r in results if isinstance(r, GameSnapshot)]
    assert len(started) == 1, results
    assert all(isinstance(r, AlreadyStarted) for r in results if r not in started), results
    assert await active_games(service) == [started[0].id]


async def test_play_again_pressed_at_once_at_a_budget_of_one_game_names_the_game_started(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    """The presses after the first find the member's one game against the computer under
    way: what they are told is that this game was played again, not the budget."""
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0], budgets=Budgets(computer_games=1))
    first = await finished_computer_game(service)
    results = await asyncio.gather(
        *(service.computer.again(first.id, ALICE.user_id, guild_id=GUILD) for _ in range(PRESSES)),
        return_exceptions=True,
    )
    started = [r for r in results if isinstance(r, GameSnapshot)]
    assert len(started) == 1, results
    later = [r for r in results if r not in started]
    assert all(isinstance(r, AlreadyStarted) for r in later), results
    assert {r.game_id for r in later if isinstance(r, AlreadyStarted)} == {started[0].id}


async def test_play_again_from_two_processes_starts_one_game(
    shared_location: str | Path, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    one, two = await open_database(shared_location), await open_database(shared_location)
    try:
        first, second = with_engine(one, clock, engines[0]), with_engine(two, clock, engines[0])
        for _ in range(3):
            game = await finished_computer_game(first)
            results = await asyncio.gather(
                first.computer.again(game.id, ALICE.user_id, guild_id=GUILD),
                second.computer.again(game.id, ALICE.user_id, guild_id=GUILD),
                return_exceptions=True,
            )
            started = [r for r in results if isinstance(r, GameSnapshot)]
            assert len(started) == 1, results
            assert any(isinstance(r, AlreadyStarted) for r in results), results
            assert await active_games(first) == [started[0].id]
            await first.endings.resign(started[0].id, ALICE.user_id)
    finally:
        await one.close()
        await two.close()


@pytest.mark.parametrize("rated", [True, False])
async def test_accept_pressed_again_is_told_the_game_started(
    service: GameService, rated: bool
) -> None:
    challenge = await service.challenges.offer(
        guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOB
    )
    game = await service.challenges.accept(challenge.id, BOB, rated=rated)
    for again in (True, False):  # Accept, then Accept unrated, or the other way round
        with pytest.raises(AlreadyStarted, match="it was accepted") as refused:
            await service.challenges.accept(challenge.id, BOB, rated=again)
        assert refused.value.game_id == game.id
    assert await active_games(service, BOB) == [game.id]


async def test_an_open_challenge_accepted_at_once_by_two_members_and_twice_starts_one_game(
    service: GameService,
) -> None:
    for takers in ((BOB, CAROL), (BOB, BOB, BOB)):
        challenge = await service.challenges.offer(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE
        )
        results = await asyncio.gather(
            *(
                service.challenges.accept(challenge.id, taker, rated=index % 2 == 0)
                for index, taker in enumerate(takers)
            ),
            return_exceptions=True,
        )
        started = [r for r in results if isinstance(r, GameSnapshot)]
        assert len(started) == 1, results
        assert all(isinstance(r, ServiceError) for r in results if r not in started), results
        assert (await service.challenges.get(challenge.id)).game_id == started[0].id
        await service.endings.resign(started[0].id, ALICE.user_id)
    assert await active_games(service) == []


async def test_accept_from_two_processes_starts_one_game(
    shared_location: str | Path, clock: FakeClock
) -> None:
    one, two = await open_database(shared_location), await open_database(shared_location)
    try:
        first, second = GameService(one, clock=clock), GameService(two, clock=clock)
        for _ in range(3):
            challenge = await first.challenges.offer(
                guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE
            )
            results = await asyncio.gather(
                first.challenges.accept(challenge.id, BOB),
                second.challenges.accept(challenge.id, CAROL, rated=False),
                return_exceptions=True,
            )
            started = [r for r in results if isinstance(r, GameSnapshot)]
            assert len(started) == 1, results
            assert all(isinstance(r, ServiceError) for r in results if r not in started)
            assert await active_games(first) == [started[0].id]
            await first.endings.resign(started[0].id, ALICE.user_id)
    finally:
        await one.close()
        await two.close()


async def test_a_rematch_pressed_after_it_started_names_its_game(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.endings.resign(game.id, BOB.user_id)
    await service.rematches.ask(game.id, ALICE.user_id)
    started = await service.rematches.ask(game.id, BOB.user_id)
    assert started.game is not None
    for user in (ALICE, BOB):
        with pytest.raises(
            AlreadyStarted, match="rematch of this game has already started"
        ) as late:
            await service.rematches.ask(game.id, user.user_id)
        assert late.value.game_id == started.game.id
