"""Games against the computer: its start, its moves through the same path as a member's,
and every way an engine can fail (nonsense, an illegal move, a crash, a hang, a process
killed mid-search) leaving the game playable."""

from __future__ import annotations

import asyncio
import os
import signal
from pathlib import Path

import pytest

from bot.db import Database
from bot.engine import EnginePool, usi
from bot.services import ComputerFailed, GameService, ServiceError
from rules import Termination

from ..support.engines import fairy_stockfish, fake_engine
from .conftest import (
    ALICE,
    BOT,
    CHANNEL,
    GUILD,
    FakeClock,
    assert_consistent,
    versus_computer,
    with_engine,
)


async def computer_game(service: GameService, *, level: int = 1, color: str = "gote") -> int:
    """Alice against the computer; by default the computer is sente and moves first."""
    game = await versus_computer(service, level=level, color=color, time_control="3d")
    return game.id


async def test_without_an_engine_the_computer_cannot_be_challenged(
    db: Database, clock: FakeClock
) -> None:
    service = with_engine(db, clock, None)
    with pytest.raises(ServiceError, match="No computer engine is set up"):
        await computer_game(service)


async def test_the_level_is_one_to_eight(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    for level in (0, 9):
        with pytest.raises(ServiceError, match="from 1 to 8"):
            await computer_game(service, level=level)


async def test_members_still_cannot_challenge_other_bots(db: Database, clock: FakeClock) -> None:
    service = with_engine(db, clock, None)
    with pytest.raises(ServiceError, match="Bots cannot play"):
        await service.challenges.offer(
            guild_id=GUILD, channel_id=CHANNEL, challenger=ALICE, opponent=BOT
        )


async def test_the_computer_plays_its_turn_through_the_move_path(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    game_id = await computer_game(service, level=4)
    game = await service.games.get(game_id)
    assert game.to_move == BOT and game.takebacks.value == "never"
    assert (await service.computer.seat(game_id)) is not None
    done = await service.computer.play_turn(game_id)
    assert done is not None and done.played is not None
    assert done.played.mover == BOT and done.played.next_player == ALICE
    # Nothing to do on the member's turn; the member's move gives the computer its turn.
    assert await service.computer.play_turn(game_id) is None
    legal = (await service.games.legal_moves(game_id, ALICE.user_id))[0].usi
    await service.moves.play(game_id, ALICE.user_id, legal)
    again = await service.computer.play_turn(game_id)
    assert again is not None and again.played is not None and again.played.game.ply == 3
    assert await assert_consistent(db) == 3


@pytest.mark.parametrize("failure", ["illegal", "garbage", "crash", "hang"])
async def test_one_failure_restarts_the_engine_and_tries_again(
    failure: str,
    db: Database,
    clock: FakeClock,
    tmp_path: Path,
    engines: list[EnginePool],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(usi, "GRACE_SECONDS", 0.5)  # a hang is noticed quickly
    program, _ = fake_engine(tmp_path, failure)
    engines.append(EnginePool(program))
    service = with_engine(db, clock, engines[0])
    game_id = await computer_game(service)
    done = await service.computer.play_turn(game_id)
    assert done is not None and done.played is not None and done.played.game.ply == 1
    assert engines[0].started == 2  # the failed process was replaced


async def test_two_failures_tell_the_player_and_the_game_waits_for_a_retry(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    program, _ = fake_engine(tmp_path, "illegal garbage")
    engines.append(EnginePool(program))
    service = with_engine(db, clock, engines[0])
    game_id = await computer_game(service)
    with pytest.raises(ComputerFailed, match="press Retry"):
        await service.computer.play_turn(game_id)
    game = await service.games.get(game_id)
    assert game.ply == 0 and game.to_move == BOT and game.outcome is None
    assert (await service.computer.seat_in(game_id, guild_id=GUILD)).level == 1
    retried = await service.computer.play_turn(game_id)
    assert retried is not None and retried.played is not None


async def test_an_engine_that_resigns_resigns_the_game(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path, "resign")[0]))
    service = with_engine(db, clock, engines[0])
    game_id = await computer_game(service)
    await service.moves.play(game_id, BOT.user_id, "7g7f")  # as if its engine had
    await service.moves.play(game_id, ALICE.user_id, "3c3d")
    done = await service.computer.play_turn(game_id)
    assert done is not None and done.resigned is not None
    outcome = done.resigned.outcome
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    assert done.resigned.player(outcome.winner) == ALICE  # type: ignore[arg-type]


async def test_retry_in_a_game_between_members_says_so(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    from .conftest import start_game

    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    game = await start_game(service)
    assert await service.computer.play_turn(game.id) is None
    with pytest.raises(ServiceError, match="not played against the computer"):
        await service.computer.seat_in(game.id, guild_id=GUILD)


async def test_the_job_limit_runs_one_search_at_a_time(
    tmp_path: Path, engines: list[EnginePool]
) -> None:
    """Three searches at once share one process with one job, and take two with two."""
    program, _ = fake_engine(tmp_path)
    start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    for jobs in (1, 2):
        pool = EnginePool(program, jobs=jobs)
        engines.append(pool)
        found = await asyncio.gather(*(pool.search(start, movetime_ms=10) for _ in range(3)))
        assert all(search.best for search in found)
        assert pool.started == jobs


async def test_a_whole_game_against_the_real_engine(
    db: Database, clock: FakeClock, engines: list[EnginePool]
) -> None:
    """Alice, helped by the engine at full strength, plays the level-1 computer until
    the game ends (by mate, or her resignation after 300 moves): the record replays."""
    path = fairy_stockfish()
    pool, helper = EnginePool(path), EnginePool(path)
    engines += [pool, helper]
    service = with_engine(db, clock, pool)
    game_id = await computer_game(service, level=1)
    for _ in range(300):
        game = await service.games.get(game_id)
        if game.outcome is not None:
            break
        if game.to_move == BOT:
            assert await service.computer.play_turn(game_id) is not None
            continue
        moves = [move.usi() for move in game.game.moves]
        best = await helper.search(game.game.start.sfen(), moves, movetime_ms=30, skill=20)
        await service.moves.play(game_id, ALICE.user_id, best.best)
    else:
        await service.endings.resign(game_id, ALICE.user_id)
    game = await service.games.get(game_id)
    assert game.outcome is not None and game.status == "finished"
    # In practice a checkmate within a hundred moves; the cap only keeps the test finite.
    assert game.outcome.termination in (Termination.CHECKMATE, Termination.RESIGNATION)
    assert await assert_consistent(db) == game.ply


async def test_an_engine_killed_mid_search_is_replaced(
    db: Database, clock: FakeClock, engines: list[EnginePool]
) -> None:
    pool = EnginePool(fairy_stockfish())
    engines.append(pool)
    service = with_engine(db, clock, pool)
    game_id = await computer_game(service, level=8)  # two seconds a move
    turn = asyncio.create_task(service.computer.play_turn(game_id))
    while not pool.processes() or pool.started == 0:
        await asyncio.sleep(0.02)
    await asyncio.sleep(0.3)  # well inside the search
    pid = pool.processes()[0].pid
    assert pid is not None
    os.kill(pid, signal.SIGKILL)
    done = await turn
    assert done is not None and done.played is not None and done.played.game.ply == 1
    assert pool.started == 2


async def test_play_again_swaps_colours_and_keeps_the_level(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    engines.append(EnginePool(fake_engine(tmp_path)[0]))
    service = with_engine(db, clock, engines[0])
    game_id = await computer_game(service, level=7)  # alice is gote
    with pytest.raises(ServiceError, match="still going on"):
        await service.computer.again(game_id, ALICE.user_id, guild_id=GUILD)
    await service.endings.resign(game_id, ALICE.user_id)
    with pytest.raises(ServiceError, match="Only Alice"):
        await service.computer.again(game_id, BOT.user_id, guild_id=GUILD)
    again = await service.computer.again(game_id, ALICE.user_id, guild_id=GUILD)
    assert again.sente == ALICE and again.gote == BOT and again.id != game_id
    seat = await service.computer.seat(again.id)
    assert seat is not None and seat.level == 7


async def test_two_calls_for_one_turn_play_one_move(
    db: Database, clock: FakeClock, tmp_path: Path, engines: list[EnginePool]
) -> None:
    """The thread's turn and a Retry press at once: the computer moves once."""
    engines.append(EnginePool(fake_engine(tmp_path)[0], jobs=2))
    service = with_engine(db, clock, engines[0])
    game_id = await computer_game(service)
    done = await asyncio.gather(*(service.computer.play_turn(game_id) for _ in range(3)))
    assert sum(1 for d in done if d is not None) == 1
    assert (await service.games.get(game_id)).ply == 1
