"""Vacations: a player's clocks stand still, no reminder and no time-out during one (even
across a restart, with deadlines that passed while the bot was down), deadlines move later
by the time spent, and the time is counted against the year's allowance, in hours."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import Database
from bot.services import ALLOWANCE, GameService, VacationRefused
from rules import Termination

from .conftest import ALICE, BOB, FakeClock, RecordingEvents, play_all, start_game

DAY = timedelta(days=1)


async def test_a_paused_clock_moves_the_deadline_by_the_time_spent(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="3d")  # Alice (sente) to move
    await play_all(service, game.id, ["7g7f", "3c3d"])
    before = (await service.games.get(game.id)).deadline
    assert before == clock.now + 3 * DAY
    clock.advance(days=1)
    started = await service.vacations.start(ALICE.user_id)
    assert [g.id for g in started.games] == [game.id]
    assert started.vacation.ends_by == clock.now + ALLOWANCE
    paused = await service.games.get(game.id)
    assert paused.away_until(paused.turn) == started.vacation.ends_by
    clock.advance(days=5)  # past the old deadline: nothing happens
    assert await service.deadlines.check() is not None
    assert events.timed_out == [] and events.reminders == []
    assert (await service.games.get(game.id)).is_active
    clock.advance(hours=2, minutes=30)
    ended = await service.vacations.end(ALICE.user_id)
    spent = timedelta(days=5, hours=2, minutes=30)
    after = await service.games.get(game.id)
    assert after.deadline == before + spent and after.away_until(after.turn) is None
    assert ended.status.used == timedelta(days=5, hours=3)  # rounded up to the hour
    assert ended.status.left == ALLOWANCE - ended.status.used
    # The time on vacation was not thinking time: Alice still has her two days.
    clock.advance(days=1, hours=23)
    await service.moves.play(game.id, ALICE.user_id, "2g2f")
    assert (await service.games.get(game.id)).is_active


async def test_no_time_out_during_a_vacation_even_across_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    clock = FakeClock()
    db = await Database.open(path)
    service = GameService(db, clock=clock, rng=random.Random(3))
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f"])  # Bob to move, 1 day
    await service.vacations.start(BOB.user_id)
    await service.close()
    await db.close()
    clock.advance(days=3)  # the bot was down; Bob's old deadline passed meanwhile
    db = await Database.open(path)
    try:
        events = RecordingEvents()
        again = GameService(db, clock=clock, events=events)
        await again.deadlines.check()
        assert events.timed_out == [] and events.reminders == []
        shown = await again.games.get(game.id)
        assert shown.is_active and shown.deadline is not None and shown.deadline > clock.now
        status = await again.vacations.status(BOB.user_id)
        assert status.current is not None
    finally:
        await db.close()


async def test_the_allowance_runs_out_and_ends_the_vacation_once(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="1d")
    start = clock.now
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=20)  # past the allowance (and the bot did not look in time)
    await service.deadlines.check()
    [ended] = events.vacations_ended
    assert ended.vacation.ended_at == start + ALLOWANCE
    assert ended.status.used == ALLOWANCE and ended.status.left == timedelta()
    shown = await service.games.get(game.id)
    # The deadline: one day after the allowance ran out, which has passed by now.
    assert shown.status == "finished" or shown.deadline == start + ALLOWANCE + DAY
    await service.deadlines.check()
    assert len(events.vacations_ended) == 1  # once
    with pytest.raises(VacationRefused, match="used all of this year's vacation"):
        await service.vacations.start(ALICE.user_id)
    with pytest.raises(VacationRefused, match="not on vacation"):
        await service.vacations.end(ALICE.user_id)


async def test_refusals_store_nothing(service: GameService, clock: FakeClock) -> None:
    with pytest.raises(VacationRefused, match="not on vacation"):
        await service.vacations.end(ALICE.user_id)
    await service.vacations.start(ALICE.user_id)
    with pytest.raises(VacationRefused, match="already on vacation"):
        await service.vacations.start(ALICE.user_id)
    clock.advance(minutes=10)
    ended = await service.vacations.end(ALICE.user_id)
    assert ended.status.used == timedelta(hours=1)
    assert (await service.vacations.status(ALICE.user_id)).current is None


async def test_a_game_already_out_of_time_is_not_saved(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f", "3c3d"])
    clock.advance(days=2)
    await service.vacations.start(ALICE.user_id)
    shown = await service.games.get(game.id)
    assert shown.outcome is not None and shown.outcome.termination is Termination.TIME


async def test_a_move_during_a_vacation_costs_no_vacation_time(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=10)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=4)
    played = await service.moves.play(game.id, ALICE.user_id, "7g7f")
    row = played.game.row
    assert row.sente_bank == timedelta(days=2) - timedelta(hours=10)
    # Bob is not on vacation: his clock runs as usual.
    assert played.deadline == clock.now + timedelta(days=3)


async def test_the_opponent_moving_during_a_vacation_pauses_the_new_turn(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f"])
    await service.vacations.start(ALICE.user_id)
    clock.advance(hours=5)
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    status = await service.vacations.status(ALICE.user_id)
    assert status.current is not None
    assert played.deadline == status.current.ends_by + DAY  # the whole vacation, then a day
    clock.advance(days=2)
    await service.vacations.end(ALICE.user_id)
    assert (await service.games.get(game.id)).deadline == clock.now + DAY
