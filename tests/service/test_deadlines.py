"""Clocks and deadlines with a fake clock: banks and periods, losing on time exactly once,
one reminder per deadline, giving time, and challenges that expire after 7 days."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.db import Database
from bot.services import GameOver, GameService, ServiceError
from rules import Color, Outcome, Termination

from .conftest import ALICE, BOB, FakeClock, RecordingEvents, checked, play_all, start_game

DAY = timedelta(days=1)


async def test_bank_is_spent_first_then_each_move_has_the_period(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="2d+1d")
    assert game.deadline == clock.now + 3 * DAY
    clock.advance(days=1.5)  # Alice thinks 1.5 days: 0.5 days of bank left
    result = await service.moves.play(game.id, ALICE.user_id, "7g7f")
    assert result.deadline == clock.now + 3 * DAY  # Bob's bank is untouched
    clock.advance(hours=1)
    result = await service.moves.play(game.id, BOB.user_id, "3c3d")
    assert result.deadline == clock.now + 1.5 * DAY  # Alice: 0.5 days of bank + 1 day
    clock.advance(days=1.2)  # more than her bank: it is empty now, the period covered the rest
    await service.moves.play(game.id, ALICE.user_id, "2g2f")
    clock.advance(hours=1)
    result = await service.moves.play(game.id, BOB.user_id, "4c4d")
    assert result.deadline == clock.now + DAY  # only the period from now on


async def test_overdue_game_ends_on_time_once(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="1d")
    await service.moves.play(game.id, ALICE.user_id, "7g7f")
    await service.moves.play(game.id, BOB.user_id, "3c3d")
    deadline = clock.now + DAY
    assert await checked(service) == clock.now + DAY * 4 / 5  # the reminder
    clock.advance(days=1)
    await checked(service)
    assert [view.id for view in events.timed_out] == [game.id]
    ended = events.timed_out[0]
    assert ended.outcome is not None and ended.outcome.termination is Termination.TIME
    assert ended.outcome.winner is Color.GOTE and ended.status == "finished"
    assert ended.finished_at == deadline
    assert await checked(service) is None
    assert len(events.timed_out) == 1
    view = await service.games.get(game.id)
    assert view.outcome == ended.outcome and view.deadline is None
    assert events.reminders == []  # the reminder time had passed unseen: no late reminder


async def test_a_move_after_the_deadline_is_refused_and_the_game_lost(
    service: GameService, clock: FakeClock, events: RecordingEvents, db: Database
) -> None:
    game = await start_game(service, time_control="3d")
    await service.moves.play(game.id, ALICE.user_id, "7g7f")
    await service.moves.play(game.id, BOB.user_id, "3c3d")
    clock.advance(days=3, seconds=1)
    with pytest.raises(GameOver) as refused:
        await service.moves.play(game.id, ALICE.user_id, "2g2f")
    assert refused.value.outcome == Outcome(Termination.TIME, Color.GOTE)
    # The ending's post is queued in the outbox: the refusal does not wait for it.
    assert events.timed_out == []
    await service.outbox.deliver_all()
    assert [view.id for view in events.timed_out] == [game.id]
    assert events.timed_out[0].outcome is not None
    assert events.timed_out[0].outcome.winner is Color.GOTE
    async with db.read() as tx:
        assert await tx.moves.usi_list(game.id) == ["7g7f", "3c3d"]
    await checked(service)
    assert len(events.timed_out) == 1


@pytest.mark.parametrize("first_moves", [[], ["7g7f"]])
async def test_a_player_out_of_time_before_their_first_move_aborts_the_game(
    service: GameService, clock: FakeClock, events: RecordingEvents, first_moves: list[str]
) -> None:
    """Neither player loses a game one of them never started: it is aborted, no result."""
    game = await start_game(service, time_control="1d")
    for usi in first_moves:
        await service.moves.play(game.id, ALICE.user_id, usi)
    clock.advance(days=1, seconds=1)
    await checked(service)
    [ended] = events.timed_out
    assert ended.outcome == Outcome(Termination.ABORT, None)
    late = BOB if first_moves else ALICE
    with pytest.raises(GameOver) as refused:
        await service.moves.play(game.id, late.user_id, "3c3d" if first_moves else "7g7f")
    assert refused.value.outcome == Outcome(Termination.ABORT, None)


async def test_one_reminder_per_deadline(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="3d")
    start = clock.now
    reminder = start + 3 * DAY * 4 / 5  # 80 % is later than 24 hours before
    assert await checked(service) == reminder
    clock.now = reminder - timedelta(seconds=1)
    await checked(service)
    assert events.reminders == []
    clock.now = reminder
    assert await checked(service) == start + 3 * DAY
    assert [view.to_move for view in events.reminders] == [ALICE]
    clock.advance(hours=3)
    await checked(service)
    assert len(events.reminders) == 1
    await service.moves.play(game.id, ALICE.user_id, "7g7f")  # a new deadline for Bob
    clock.advance(days=3 * 0.8)
    await checked(service)
    assert [view.to_move for view in events.reminders] == [ALICE, BOB]
    await checked(service)
    assert len(events.reminders) == 2


async def test_long_periods_remind_24_hours_before(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    await start_game(service, time_control="14d")
    assert await checked(service) == clock.now + 13 * DAY


async def test_give_time_resets_the_opponents_period(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="3d")
    clock.advance(days=2.5)
    await checked(service)
    assert len(events.reminders) == 1
    with pytest.raises(ServiceError, match="your move"):
        await service.extra_time.give(game.id, ALICE.user_id)
    view = await service.extra_time.give(game.id, BOB.user_id)
    assert view.deadline == clock.now + 3 * DAY and view.to_move == ALICE
    with pytest.raises(ServiceError, match="would not move"):  # a second press adds nothing
        await service.extra_time.give(game.id, BOB.user_id)
    clock.advance(days=2.4)
    await checked(service)
    assert len(events.reminders) == 2  # the new deadline gets its own reminder
    clock.advance(days=0.5)
    await checked(service)
    assert events.timed_out == []  # the old deadline has passed; the new one has not


async def test_challenges_expire_after_seven_days_once(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    challenge = await service.challenges.offer(
        guild_id=1, channel_id=2, challenger=ALICE, opponent=BOB
    )
    assert await checked(service) == clock.now + 7 * DAY
    clock.advance(days=6, hours=23)
    await checked(service)
    assert events.expired == []
    clock.advance(hours=1)
    assert await checked(service) is None
    assert [c.id for c in events.expired] == [challenge.id]
    assert events.expired[0].status == "expired"
    await checked(service)
    assert len(events.expired) == 1


async def test_events_survive_a_failing_handler(
    db: Database, clock: FakeClock, caplog: pytest.LogCaptureFixture
) -> None:
    class Broken(RecordingEvents):
        async def game_timed_out(self, game: object) -> None:
            raise RuntimeError("Discord is down")

    service = GameService(db, clock=clock, events=Broken())
    game = await start_game(service, time_control="1d")
    other = await start_game(service, opponent=BOB.__class__(77, "Zed"), time_control="2d")
    clock.advance(days=3)
    await checked(service)
    assert "Discord is down" in caplog.text
    for game_id in (game.id, other.id):
        assert (await service.games.get(game_id)).status == "finished"


async def test_endings_stored_but_never_posted_are_reported_at_the_next_start(
    db: Database, clock: FakeClock
) -> None:
    """The bot stores an ending, then posts it; a run that stopped in between leaves it
    unposted, and the first deadline check of the next run reports it, once."""
    first_run = GameService(db, clock=clock, events=RecordingEvents())
    resigned = await start_game(first_run)
    await play_all(first_run, resigned.id, ["7g7f", "3c3d"])
    await first_run.endings.resign(resigned.id, ALICE.user_id)
    posted = await start_game(first_run)
    await first_run.endings.resign(posted.id, BOB.user_id)
    await first_run.deadlines.ending_posted(posted.id)  # this one was posted
    overdue = await start_game(first_run, time_control="1d")
    clock.advance(days=2)  # falls due while the bot is down

    events = RecordingEvents()
    next_run = GameService(db, clock=clock, events=events)
    await checked(next_run)
    # The old ending is reported; the time-out of this run goes its own way, not twice.
    assert [game.id for game in events.unannounced] == [resigned.id]
    assert events.unannounced[0].outcome is not None
    assert events.unannounced[0].outcome.termination is Termination.RESIGNATION
    assert [game.id for game in events.timed_out] == [overdue.id]
    await checked(next_run)
    assert len(events.unannounced) == 1 and len(events.timed_out) == 1

    # A run that posts what it is told notes it; the run after has nothing left to post.
    for game in (*events.unannounced, *events.timed_out):
        await next_run.deadlines.ending_posted(game.id)
    third = RecordingEvents()
    await checked(GameService(db, clock=clock, events=third))
    assert third.unannounced == [] and third.timed_out == []


async def test_time_is_not_given_while_the_bank_lasts(service: GameService) -> None:
    """With main time left, a fresh period would end at the same deadline: refused."""
    game = await start_game(service, time_control="7d+1d")
    with pytest.raises(ServiceError, match="would not move"):
        await service.extra_time.give(game.id, BOB.user_id)
