"""The deadline task and restarts: games overdue while the bot was down end once at
start-up, a sooner deadline wakes the task, errors do not kill it, and a game goes on
after the database is closed and opened again by a new service."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.db import Database, GameRow, open_database
from bot.services import DeadlineScheduler, GameService, GameSnapshot, OutboxSender

from .conftest import ALICE, BOB, FakeClock, RecordingEvents, checked, play_all, start_game


async def eventually(condition: Callable[[], bool], timeout: float = 3.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.01)


async def test_games_overdue_while_down_end_once_at_start(
    db: Database, clock: FakeClock, events: RecordingEvents
) -> None:
    service = GameService(db, clock=clock, events=events)
    game = await start_game(service, time_control="1d")
    clock.advance(days=2)  # the bot was down

    async def start_once(run: GameService) -> None:
        scheduler = DeadlineScheduler(run.deadlines)
        sender = OutboxSender(run.outbox, rate=1000)  # the bot's sender, beside it
        scheduler.start()
        sender.start()
        await eventually(lambda: scheduler.checks >= 1)
        await sender.settled()
        await scheduler.stop()
        await sender.stop()

    await start_once(service)
    assert [view.id for view in events.timed_out] == [game.id]
    await start_once(GameService(db, clock=clock, events=events))  # restarted
    assert len(events.timed_out) == 1


async def test_wake_runs_a_check_early(
    db: Database, clock: FakeClock, events: RecordingEvents
) -> None:
    service = GameService(db, clock=clock, events=events)
    scheduler = DeadlineScheduler(service.deadlines, max_sleep=timedelta(hours=1))
    sender = OutboxSender(service.outbox, rate=1000)
    scheduler.start()
    sender.start()
    await eventually(lambda: scheduler.checks >= 1)
    game = await start_game(service, time_control="1d")  # accept() announces the deadline
    await eventually(lambda: scheduler.checks >= 2)
    clock.advance(days=1)
    scheduler.wake()
    await eventually(lambda: len(events.timed_out) == 1)
    await scheduler.stop()
    await sender.stop()
    assert events.timed_out[0].id == game.id
    assert not scheduler.running


async def test_a_later_deadline_does_not_wake_the_task(db: Database, clock: FakeClock) -> None:
    service = GameService(db, clock=clock)
    await start_game(service, time_control="1d")
    scheduler = DeadlineScheduler(service.deadlines)
    scheduler.start()
    await eventually(lambda: scheduler.checks >= 1)
    scheduler.wake(clock.now + timedelta(days=30))
    await asyncio.sleep(0.05)
    assert scheduler.checks == 1
    scheduler.wake(clock.now + timedelta(minutes=1))
    await eventually(lambda: scheduler.checks == 2)
    await scheduler.stop()


async def test_scheduler_survives_errors(caplog: pytest.LogCaptureFixture) -> None:
    class Flaky:
        def __init__(self) -> None:
            self.calls = 0

        def now(self) -> datetime:
            return FakeClock()()

        def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
            pass

        async def check(self) -> datetime | None:
            self.calls += 1
            if self.calls == 1:
                raise RuntimeError("database went away")
            return None

    flaky = Flaky()
    scheduler = DeadlineScheduler(flaky, retry_delay=timedelta(milliseconds=10))
    with caplog.at_level(logging.ERROR):
        scheduler.start()
        await eventually(lambda: flaky.calls >= 2)
    await scheduler.stop()
    assert "database went away" in caplog.text


async def test_restart_in_the_middle_continues_the_game(tmp_path: Path, clock: FakeClock) -> None:
    path = tmp_path / "shogi.db"
    events = RecordingEvents()
    db = await open_database(path)
    service = GameService(db, clock=clock, events=events)
    game = await start_game(service, time_control="2d+1d")
    clock.advance(hours=30)
    await play_all(service, game.id, ["7g7f", "3c3d", "8h2b+"])
    clock.advance(days=2.5)
    await checked(service)  # Bob gets his reminder before the restart
    before = await service.games.get(game.id)
    assert len(events.reminders) == 1
    await db.close()

    db = await open_database(path)
    try:
        service = GameService(db, clock=clock, events=events)
        after = await service.games.get(game.id)
        assert after.deadline == before.deadline
        assert after.to_move == BOB and after.ply == 3
        assert after.game.position.sfen() == before.game.position.sfen()
        assert after.last_move_text == before.last_move_text
        await checked(service)
        assert len(events.reminders) == 1  # not sent again after the restart
        result = await service.moves.play(game.id, BOB.user_id, "同銀")
        assert result.move.usi == "3a2b"
        # Alice spent 30 hours of her 2-day bank before the restart: 18 hours remain.
        assert result.deadline == clock.now + timedelta(hours=18) + timedelta(days=1)
        await service.endings.resign(game.id, ALICE.user_id)
    finally:
        await db.close()


async def test_warm_up_replays_active_games_into_the_cache(
    tmp_path: Path, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.services.play import snapshots as loading
    from bot.services.play import store

    db = await open_database(tmp_path / "shogi.db")
    try:
        service = GameService(db, clock=clock)
        games = [await start_game(service, time_control="unlimited") for _ in range(3)]
        await play_all(service, games[0].id, ["7g7f"])
        await service.endings.resign(games[2].id, ALICE.user_id)
        fresh = GameService(db, clock=clock)
        replays: list[int] = []
        original = loading.replay

        def counted(row: GameRow, moves: Sequence[str]) -> GameSnapshot:
            replays.append(row.id)
            return original(row, moves)

        monkeypatch.setattr(store, "replay", counted)
        assert await fresh.games.warm_up() == 2
        assert sorted(replays) == sorted([games[0].id, games[1].id])
        await fresh.moves.play(games[0].id, BOB.user_id, "3c3d")
        await fresh.games.get(games[1].id)
        assert len(replays) == 2  # both served from the cache
    finally:
        await db.close()
