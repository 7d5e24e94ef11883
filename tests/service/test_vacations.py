"""Vacations: a player's clocks stand still, no reminder and no time-out during one (even
across a restart, with deadlines that passed while the bot was down), deadlines move later
by the time spent, and the time is counted against the year's allowance, in hours."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.db import Database, open_database
from bot.services import ALLOWANCE, GameService, ServiceError, VacationRefused
from rules import Termination

from .conftest import (
    ALICE,
    BOB,
    FakeClock,
    RecordingEvents,
    assert_consistent,
    before_next_write,
    checked,
    play_all,
    start_game,
)
from .test_takebacks import accept

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
    assert await checked(service) is not None
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
    db = await open_database(path)
    service = GameService(db, clock=clock, rng=random.Random(3))
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f"])  # Bob to move, 1 day
    await service.vacations.start(BOB.user_id)
    await service.close()
    await db.close()
    clock.advance(days=3)  # the bot was down; Bob's old deadline passed meanwhile
    db = await open_database(path)
    try:
        events = RecordingEvents()
        again = GameService(db, clock=clock, events=events)
        await checked(again)
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
    await checked(service)
    [ended] = events.vacations_ended
    assert ended.vacation.ended_at == start + ALLOWANCE
    assert ended.status.used == ALLOWANCE and ended.status.left == timedelta()
    shown = await service.games.get(game.id)
    # The deadline: one day after the allowance ran out, which has passed by now.
    assert shown.status == "finished" or shown.deadline == start + ALLOWANCE + DAY
    await checked(service)
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


async def deadline_row(service: GameService, game_id: int) -> datetime | None:
    """The game's deadline computed from the game row, checked against the `deadlines`
    row the deadline task reads: they must agree for the task to act in time. While the
    player to move is on vacation the task skips their row (their vacation's end writes
    it anew), so it is not compared then."""
    shown = await service.games.get(game_id)
    stored = shown.row.deadline
    if shown.away_until(shown.turn) is None:
        assert (None if stored is None else stored.due_at) == shown.deadline
    return shown.deadline


# ------------------------------------------------------------------ giving time


async def test_no_time_is_given_to_a_player_on_vacation(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f"])  # Bob to move
    clock.advance(hours=20)
    await service.vacations.start(BOB.user_id)
    before = await deadline_row(service, game.id)
    clock.advance(days=3)
    with pytest.raises(ServiceError, match="Bob is on vacation; their clock is paused"):
        await service.extra_time.give(game.id, ALICE.user_id)
    assert await deadline_row(service, game.id) == before  # nothing stored
    await service.vacations.end(BOB.user_id)
    # Back: Bob's 4 hours left, as before the vacation; a full day can now be given.
    assert await deadline_row(service, game.id) == clock.now + timedelta(hours=4)
    given = await service.extra_time.give(game.id, ALICE.user_id)
    assert given.deadline == clock.now + DAY
    assert await deadline_row(service, game.id) == clock.now + DAY


async def test_a_move_after_a_vacation_ran_out_unnoticed_is_charged_the_time_since(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=10)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=14, hours=5)  # ran out 5 hours ago; the deadline task did not look
    played = await service.moves.play(game.id, ALICE.user_id, "7g7f")
    assert played.game.row.sente_bank == timedelta(days=2) - timedelta(hours=15)
    [ended] = await service.vacations.run_out()
    assert ended.status.used == ALLOWANCE
    assert (await service.games.get(game.id)).row.sente_bank == timedelta(hours=33)


# ------------------------------------------------------------------ takebacks


async def test_a_takeback_restarts_the_askers_turn_paused_if_they_are_on_vacation(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="1d+1d")
    await play_all(service, game.id, ["7g7f"])  # Bob to move; Alice's bank whole
    clock.advance(hours=1)
    started = await service.vacations.start(ALICE.user_id)
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    clock.advance(hours=2)
    await accept(service, asked)
    # Alice to move again, on vacation: the deadline past its latest end, and the same in
    # the deadline task's row, as a move writes it.
    assert await deadline_row(service, game.id) == started.vacation.ends_by + 2 * DAY
    stored = (await service.games.get(game.id)).row.deadline
    assert stored is not None and stored.due_at == started.vacation.ends_by + 2 * DAY
    clock.advance(days=5)  # past the deadline the turn would have without the vacation
    await checked(service)
    assert events.timed_out == [] and events.reminders == []
    await service.vacations.end(ALICE.user_id)
    assert await deadline_row(service, game.id) == clock.now + 2 * DAY


async def test_accepting_a_takeback_on_vacation_does_not_end_it(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="1d+1d")
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])  # Bob to move
    await service.vacations.start(BOB.user_id)
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    clock.advance(hours=3)
    await accept(service, asked)
    assert (await service.vacations.status(BOB.user_id)).current is not None
    # Alice's turn runs as usual, from now: her whole bank and a period.
    assert await deadline_row(service, game.id) == clock.now + 2 * DAY


# ------------------------------------------------------------------ races


async def test_a_vacation_ended_between_a_moves_checks_and_its_write(
    service: GameService, db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=10)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=3)
    before_next_write(db, monkeypatch, lambda: service.vacations.end(ALICE.user_id))
    played = await service.moves.play(game.id, ALICE.user_id, "7g7f")
    await assert_moved_once_off_vacation(service, db, game.id, played.deadline)


async def test_a_move_between_a_vacation_ends_checks_and_its_write(
    service: GameService, db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=10)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=3)
    before_next_write(db, monkeypatch, lambda: service.moves.play(game.id, ALICE.user_id, "7g7f"))
    await service.vacations.end(ALICE.user_id)
    await assert_moved_once_off_vacation(service, db, game.id, clock.now + 3 * DAY)


async def assert_moved_once_off_vacation(
    service: GameService, db: Database, game_id: int, bobs_deadline: datetime | None
) -> None:
    """After Alice's first move (10 hours before her vacation, 3 days into it) and the
    vacation's end, in either order: the move charged only the 10 hours, the vacation
    ended once and counted 3 days, and Bob's clock runs from the move."""
    shown = await service.games.get(game_id)
    assert shown.ply == 1 and shown.row.sente_bank == timedelta(days=2) - timedelta(hours=10)
    assert bobs_deadline == shown.row.turn_started_at + 3 * DAY
    assert await deadline_row(service, game_id) == bobs_deadline
    status = await service.vacations.status(ALICE.user_id)
    assert status.current is None and status.used == timedelta(days=3)
    assert await assert_consistent(db) == 1


async def test_a_vacation_run_out_between_a_moves_checks_and_its_write(
    service: GameService,
    db: Database,
    clock: FakeClock,
    events: RecordingEvents,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=10)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=14, hours=5)  # ran out 5 hours ago
    before_next_write(db, monkeypatch, service.deadlines.check)
    await service.moves.play(game.id, ALICE.user_id, "7g7f")
    await service.outbox.deliver_all()  # the deadline task queued its post
    assert len(events.vacations_ended) == 1
    assert (await service.games.get(game.id)).row.sente_bank == timedelta(hours=33)
    assert await deadline_row(service, game.id) == clock.now + 3 * DAY


async def test_a_move_between_a_vacations_run_out_checks_and_its_write(
    service: GameService,
    db: Database,
    clock: FakeClock,
    events: RecordingEvents,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=10)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=14, hours=5)
    before_next_write(db, monkeypatch, lambda: service.moves.play(game.id, ALICE.user_id, "7g7f"))
    await checked(service)
    assert len(events.vacations_ended) == 1
    assert (await service.games.get(game.id)).row.sente_bank == timedelta(hours=33)
    assert await deadline_row(service, game.id) == clock.now + 3 * DAY


async def test_the_opponents_vacation_ended_between_a_moves_checks_and_its_write(
    service: GameService, db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f", "3c3d"])  # Alice to move
    await service.vacations.start(BOB.user_id)
    clock.advance(hours=5)
    before_next_write(db, monkeypatch, lambda: service.vacations.end(BOB.user_id))
    played = await service.moves.play(game.id, ALICE.user_id, "2g2f")
    # Bob is back: his deadline is a day from the move, not past the vacation's end,
    # in the row the deadline task reads too.
    assert played.deadline == clock.now + DAY
    assert await deadline_row(service, game.id) == clock.now + DAY


async def test_a_vacation_ended_between_a_takebacks_checks_and_its_write(
    service: GameService, db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service, time_control="1d+1d")
    await play_all(service, game.id, ["7g7f"])  # Bob to move
    await service.vacations.start(ALICE.user_id)
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    clock.advance(hours=2)
    before_next_write(db, monkeypatch, lambda: service.vacations.end(ALICE.user_id))
    await accept(service, asked)
    # Alice is back and to move: her whole bank and a period from now.
    assert await deadline_row(service, game.id) == clock.now + 2 * DAY
    assert await assert_consistent(db) == 0


async def two_services(
    path: Path, clock: FakeClock, events: RecordingEvents
) -> tuple[GameService, GameService]:
    """Two services on one SQLite file, each with its own connection, as two bot
    processes would be; the first reports to `events`."""
    first = GameService(await open_database(path), clock=clock, events=events)
    second = GameService(await open_database(path), clock=clock, events=RecordingEvents())
    return first, second


async def close_all(*services: GameService) -> None:
    for service in services:
        await service.close()
        await service.store.db.close()


async def test_two_processes_end_the_same_vacation_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    first, second = await two_services(tmp_path / "shogi.db", clock, RecordingEvents())
    try:
        game = await start_game(first, time_control="1d")
        await play_all(first, game.id, ["7g7f"])  # Bob to move from now
        turn_start = clock.now
        await first.vacations.start(BOB.user_id)
        clock.advance(days=2)
        # The second process ends it between the first one's checks and its write.
        before_next_write(first.store.db, monkeypatch, lambda: second.vacations.end(BOB.user_id))
        with pytest.raises(VacationRefused, match="not on vacation"):
            await first.vacations.end(BOB.user_id)
        for service in (first, second):
            # The turn moved later once, by the two days, not twice.
            assert await deadline_row(service, game.id) == turn_start + 3 * DAY
            status = await service.vacations.status(BOB.user_id)
            assert status.current is None and status.used == 2 * DAY

        # And racing for real: one ends it, the other is told it had ended.
        await second.vacations.start(BOB.user_id)
        clock.advance(hours=3)
        results = await asyncio.gather(
            first.vacations.end(BOB.user_id),
            second.vacations.end(BOB.user_id),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["VacationChange", "VacationRefused"]
        assert await deadline_row(first, game.id) == turn_start + 3 * DAY + timedelta(hours=3)
        assert await assert_consistent(first.store.db) == 1
    finally:
        await close_all(first, second)


async def test_the_deadline_task_and_another_process_end_a_vacation_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = FakeClock()
    first_events = RecordingEvents()
    first, second = await two_services(tmp_path / "shogi.db", clock, first_events)
    try:
        game = await start_game(first, time_control="1d")
        await play_all(first, game.id, ["7g7f"])
        turn_start = clock.now
        started = await first.vacations.start(BOB.user_id)
        clock.advance(days=15)  # ran out a day ago
        before_next_write(first.store.db, monkeypatch, lambda: second.vacations.end(BOB.user_id))
        await checked(first)
        assert first_events.vacations_ended == []  # the other process ended it
        status = await first.vacations.status(BOB.user_id)
        assert status.current is None and status.used == ALLOWANCE
        assert started.vacation.ends_by == turn_start + ALLOWANCE
        # Ended where it ran out, once: Bob's day runs from then, and has passed by now.
        shown = await first.games.get(game.id)
        assert shown.status == "finished" or shown.deadline == turn_start + ALLOWANCE + DAY
    finally:
        await close_all(first, second)


async def test_a_vacation_over_new_year_counts_against_the_year_it_began_in(
    service: GameService, clock: FakeClock
) -> None:
    clock.now = datetime(2025, 12, 31, 12, 0, tzinfo=UTC)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=3)  # into 2026
    ended = await service.vacations.end(ALICE.user_id)
    assert ended.status.year == 2026 and ended.status.used == timedelta()
    assert ended.status.left == ALLOWANCE  # the new year's allowance is whole
    # The three days were charged to 2025, as its status would have said.
    clock.now = datetime(2025, 12, 31, 23, 0, tzinfo=UTC)
    assert (await service.vacations.status(ALICE.user_id)).used == 3 * DAY


async def test_a_forecast_reply_to_a_vacationers_move_starts_their_turn_paused(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f"])  # Bob to move
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    started = await service.vacations.start(BOB.user_id)
    clock.advance(hours=5)
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")  # looking in from afar
    assert played.forecast is not None and played.forecast.move.usi == "2g2f"
    # Bob to move again, still on vacation: his deadline is past its latest end.
    assert played.forecast.deadline == started.vacation.ends_by + DAY
    assert await deadline_row(service, game.id) == started.vacation.ends_by + DAY
    stored = (await service.games.get(game.id)).row.deadline
    assert stored is not None and stored.due_at == started.vacation.ends_by + DAY
