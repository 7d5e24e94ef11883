"""The deadline task's queries: the next event is the earliest pending reminder or running
deadline, and on a wake-up they walk the deadline indexes instead of the active games."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from bot.db import Database, DeadlineRow, open_database
from bot.services import GameService

from .conftest import ALICE, BOB, CAROL, START, FakeClock, start_game

HOUR = timedelta(hours=1)


async def _deadline(
    db: Database, game_id: int, player_id: int, due: datetime, remind: datetime
) -> None:
    async with db.transaction() as tx:
        await tx.deadlines.set(DeadlineRow(game_id, player_id, due, remind))


async def test_the_next_event_is_the_earliest_pending_reminder_or_running_deadline(
    db: Database, service: GameService, clock: FakeClock
) -> None:
    reminded = await start_game(service)  # Alice to move in each: her deadlines
    pending = await start_game(service)
    paused = await start_game(service, challenger=CAROL, opponent=BOB)
    ended = await start_game(service)
    # The reminder of `reminded` went out: its deadline (10 h) is its next event.
    await _deadline(db, reminded.id, ALICE.user_id, START + 10 * HOUR, START + 2 * HOUR)
    async with db.transaction() as tx:
        assert await tx.deadlines.claim_reminder(reminded.id, START + 10 * HOUR, START)
    # `pending` reminds at 12 h, before its deadline at 20 h.
    await _deadline(db, pending.id, ALICE.user_id, START + 20 * HOUR, START + 12 * HOUR)
    # Carol is on vacation: her clock stands still, whatever its times say.
    await _deadline(db, paused.id, CAROL.user_id, START + HOUR, START)
    async with db.transaction() as tx:
        await tx.vacations.start(CAROL.user_id, START, START + 30 * 24 * HOUR)
    await service.endings.resign(ended.id, ALICE.user_id)
    async with db.query() as q:
        assert await q.deadlines.next_event() == START + 10 * HOUR
    await _deadline(db, reminded.id, ALICE.user_id, START + 30 * HOUR, START + 25 * HOUR)
    async with db.transaction() as tx:
        assert await tx.deadlines.claim_reminder(reminded.id, START + 30 * HOUR, START)
    async with db.query() as q:
        assert await q.deadlines.next_event() == START + 12 * HOUR  # the pending reminder
    async with db.transaction() as tx:
        assert await tx.deadlines.claim_reminder(pending.id, START + 20 * HOUR, START)
    async with db.query() as q:
        assert await q.deadlines.next_event() == START + 20 * HOUR  # then its deadline
    for game in (reminded, pending):
        await service.endings.resign(game.id, ALICE.user_id)
    async with db.query() as q:
        assert await q.deadlines.next_event() is None  # only Carol's, standing still


async def test_each_wake_up_walks_the_deadline_indexes_not_the_active_games(
    tmp_path: Path,
) -> None:
    db = await open_database(tmp_path / "plans.db")
    try:
        async with db.query() as q:
            plans = await q.deadlines.plans(START, backend=db.backend)
    finally:
        await db.close()
    assert set(plans) == {"overdue", "reminders_due", "next_event"}
    for query, plan in plans.items():
        steps = [step for step in plan if " d " in f" {step} " or " g " in f" {step} "]
        assert steps, (query, plan)
        assert all("USING" in step for step in steps), (query, plan)  # no bare scan
        assert not any("games_unannounced" in step for step in steps), (query, plan)
        assert any("deadlines_by_" in step for step in steps), (query, plan)
        assert not any("TEMP B-TREE" in step for step in plan), (query, plan)  # index order
