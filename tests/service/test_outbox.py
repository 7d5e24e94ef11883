"""The outbox: what the bot sends on its own goes out most urgent first, paced, each row
claimed once however many processes share the database, and rows still queued at a
restart go out after it, none twice."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta
from pathlib import Path

from bot.db import Database, OutboxRow, open_database
from bot.services import GameService, OutboxSender, Send

from .conftest import ALICE, BOB, FakeClock, RecordingEvents, start_game

DAY = timedelta(days=1)


class FakeTime:
    """A monotonic clock that moves only when the sender sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.slept = 0.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.now += seconds
        self.slept += seconds
        await asyncio.sleep(0)


def record_starts(service: GameService) -> list[str]:
    """The kinds of the rows in the order the sender starts delivering them (deliveries
    overlap: a post that renders a board may end after a direct message begun later)."""
    started: list[str] = []
    deliver = service.outbox.deliver

    async def recorded(row: OutboxRow) -> None:
        started.append(row.kind if row.content is None else row.content)
        await deliver(row)

    service.outbox.deliver = recorded  # type: ignore[method-assign]
    return started


async def settle(*senders: OutboxSender) -> None:
    for sender in senders:
        sender.start()
    for sender in senders:
        await asyncio.wait_for(sender.settled(), timeout=60)


async def test_the_ending_goes_before_reminders_and_the_digest(
    db: Database, clock: FakeClock
) -> None:
    events = RecordingEvents()
    service = GameService(db, clock=clock, events=events, rng=random.Random(1))
    started = record_starts(service)
    # Queued first, sent last: a digest; then two games whose reminders fall due, and one
    # whose time runs out, all found by the same check.
    await service.outbox.message(Send.DIGEST, ALICE.user_id, "digest", silent=False)
    reminded = [await start_game(service, time_control="3d") for _ in range(2)]
    clock.advance(hours=1)
    await service.moves.play(reminded[0].id, ALICE.user_id, "7g7f")
    timed = await start_game(service, time_control="1d")
    await service.outbox.message(Send.TURN, BOB.user_id, "turn", silent=True)
    clock.advance(days=2, hours=12)
    await service.deadlines.check()
    time = FakeTime()
    sender = OutboxSender(service.outbox, rate=30, clock=time, sleep=time.sleep)
    try:
        await settle(sender)
    finally:
        await sender.stop()
    assert started == ["ending", "reminder", "reminder", "turn", "digest"]
    assert [game.id for game in events.timed_out] == [timed.id]
    assert len(events.reminders) == 2
    assert await service.outbox.waiting() == 0


async def test_sends_keep_their_pace(db: Database, clock: FakeClock) -> None:
    events = RecordingEvents()
    service = GameService(db, clock=clock, events=events)
    count, rate = 40, 10.0
    for number in range(count):
        await service.outbox.message(Send.MESSAGE, number, f"news {number}", silent=False)
    time = FakeTime()
    sender = OutboxSender(service.outbox, rate=rate, clock=time, sleep=time.sleep)
    try:
        await settle(sender)
    finally:
        await sender.stop()
    assert [content for _, content, _ in events.messages] == [f"news {n}" for n in range(count)]
    # N sends take (N - 1) / rate: never less, and no more than a little slack.
    assert (count - 1) / rate - 1e-6 <= time.now <= (count - 1) / rate + 0.5
    assert sender.sent == count


async def test_two_processes_send_each_row_once(
    shared_location: str | Path, clock: FakeClock
) -> None:
    first_db, second_db = await open_database(shared_location), await open_database(shared_location)
    first_events, second_events = RecordingEvents(), RecordingEvents()
    first = GameService(first_db, clock=clock, events=first_events)
    second = GameService(second_db, clock=clock, events=second_events)
    senders = [OutboxSender(s.outbox, rate=1000) for s in (first, second)]
    try:
        for number in range(300):
            await (first, second)[number % 2].outbox.message(
                Send.MESSAGE, number, str(number), silent=False
            )
        await settle(*senders)
    finally:
        for sender in senders:
            await sender.stop()
        await first_db.close()
        await second_db.close()
    sent = [int(content) for _, content, _ in first_events.messages + second_events.messages]
    assert sorted(sent) == list(range(300))  # every row once: none lost, none twice
    assert first_events.messages and second_events.messages  # both processes took a share


async def test_rows_queued_at_a_restart_go_out_after_it_once(
    tmp_path: Path, clock: FakeClock
) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    first_events = RecordingEvents()
    service = GameService(db, clock=clock, events=first_events)
    for number in range(50):
        await service.outbox.message(Send.MESSAGE, number, str(number), silent=False)
    sender = OutboxSender(service.outbox, rate=20)
    sender.start()
    await asyncio.sleep(0.5)  # some go out, then the bot stops
    await sender.stop()
    before = [int(content) for _, content, _ in first_events.messages]
    await db.close()
    assert 0 < len(before) < 50

    db = await open_database(path)
    events = RecordingEvents()
    restarted = GameService(db, clock=clock, events=events)
    sender = OutboxSender(restarted.outbox, rate=1000)
    try:
        await settle(sender)
    finally:
        await sender.stop()
        await db.close()
    after = [int(content) for _, content, _ in events.messages]
    assert sorted(before + after) == list(range(50))


async def test_a_reminder_overtaken_by_a_move_is_not_sent(db: Database, clock: FakeClock) -> None:
    events = RecordingEvents()
    service = GameService(db, clock=clock, events=events)
    game = await start_game(service, time_control="3d")
    clock.advance(days=2, hours=12)
    await service.deadlines.check()  # the reminder is queued...
    await service.moves.play(game.id, ALICE.user_id, "7g7f")  # ...and overtaken
    assert await service.outbox.deliver_all() == 1
    assert events.reminders == []


async def test_a_row_whose_delivery_fails_is_dropped_once(db: Database, clock: FakeClock) -> None:
    class Failing(RecordingEvents):
        async def direct_message(self, user_id: int, content: str, *, silent: bool) -> None:
            await super().direct_message(user_id, content, silent=silent)
            raise RuntimeError("Discord said no")

    events = Failing()
    service = GameService(db, clock=clock, events=events)
    await service.outbox.message(Send.MESSAGE, ALICE.user_id, "refused", silent=False)
    sender = OutboxSender(service.outbox, rate=1000, poll=timedelta(milliseconds=20))
    try:
        await settle(sender)
        await asyncio.sleep(0.2)  # several polls: nothing is tried again
    finally:
        await sender.stop()
    assert len(events.messages) == 1
    assert await service.outbox.waiting() == 0


async def test_a_queued_ending_is_posted_once_whichever_process_stops(
    shared_location: str | Path, clock: FakeClock
) -> None:
    """A time-out's ending waits in the outbox: a peer's left-over check leaves it there
    even once the lease of the process that stored it has run out, and whoever sends it
    renews the lease. Claimed by a process that then stopped, it is the left-over check's:
    posted once by a peer, and the claimed row is never sent."""
    dbs = [await open_database(shared_location) for _ in range(3)]
    told = [RecordingEvents() for _ in dbs]
    first, second, third = (
        GameService(db, clock=clock, events=events, rng=random.Random(n))
        for n, (db, events) in enumerate(zip(dbs, told, strict=True))
    )
    try:
        claimed = await start_game(first, time_control="1d")
        waiting = await start_game(first, time_control="1d")
        clock.advance(days=2)
        await first.deadlines.check()  # both end on time; their posts are queued
        [taken] = await first.outbox.claim(1)  # the first's sender takes one, then stops
        assert taken.game_id == claimed.id
        clock.advance(minutes=3)  # past the first's leases

        await second.deadlines.check()  # takes over the claimed one only
        assert [game.id for game in told[1].unannounced] == [claimed.id]
        await second.deadlines.ending_posted(claimed.id)
        assert await second.outbox.deliver_all() == 1  # the waiting one, not the claimed
        assert [game.id for game in told[1].timed_out] == [waiting.id]
        await second.deadlines.ending_posted(waiting.id)

        clock.advance(minutes=10)
        await third.deadlines.check()
        assert await third.outbox.deliver_all() == 0
        assert await third.outbox.drop_abandoned() == 1  # the first's claimed row
        posted = [g.id for events in told for g in (*events.timed_out, *events.unannounced)]
        assert sorted(posted) == sorted([waiting.id, claimed.id]), posted
    finally:
        for db in dbs:
            await db.close()
