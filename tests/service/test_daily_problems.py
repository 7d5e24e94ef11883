"""The daily problem: posted once a day at the server's hour (of two processes, one posts
it), answered privately and judged as tsume solvers judge, one answer counted per member,
revealed with the next day's post; streaks and the month's table."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from datetime import UTC, datetime

import pytest

from bot.db import Database, OutboxRow
from bot.services import GameService, ReaderPool, ServiceError
from bot.services.clock.sends import Send
from bot.services.problems.daily import Delivery
from bot.services.problems.judging import Judged, Judgement

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, RecordingEvents, play_all, start_game
from .test_problems import MATE_IN_3, MATING_GAME

CHANNEL = 777


@pytest.fixture
async def pool() -> AsyncIterator[ReaderPool]:
    pool = ReaderPool(processes=1, time_limit=60.0)
    yield pool
    await pool.close()


class Deliveries:
    """The outbox's daily-problem rows, delivered as the Discord layer would: the service's
    `delivery`, and the new post marked sent."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.seen: list[Delivery] = []
        self.message = 5000

    async def __call__(self, row: OutboxRow) -> None:
        assert row.guild_id is not None
        delivery = await self.service.daily_problems.delivery(row.guild_id)
        self.seen.append(delivery)
        if delivery.post is not None:
            self.message += 1
            await self.service.daily_problems.posted(delivery.post.id, self.message)


def wired(service: GameService, pool: ReaderPool) -> Deliveries:
    service.problems.scan_with(pool)
    service.daily_problems.run_with(pool, None)
    deliveries = Deliveries(service)
    service.outbox.deliver_with(Send.PROBLEM, deliveries)
    return deliveries


async def two_problems(service: GameService) -> None:
    for _ in range(2):
        game = await start_game(service, start_sfen=MATE_IN_3)
        await play_all(service, game.id, MATING_GAME)
    await service.problems.check()


async def test_one_post_a_day_at_the_hour_revealed_the_next_day(
    service: GameService, clock: FakeClock, pool: ReaderPool
) -> None:
    deliveries = wired(service, pool)
    await two_problems(service)
    clock.now = datetime(2025, 3, 1, 8, 30, tzinfo=UTC)
    first = await service.daily_problems.schedule(GUILD, CHANNEL, 9)
    assert first == datetime(2025, 3, 1, 9, tzinfo=UTC)
    assert await service.daily_problems.check() == first
    assert await service.outbox.deliver_all() == 0  # not yet
    clock.now = datetime(2025, 3, 1, 9, 0, 1, tzinfo=UTC)
    await service.daily_problems.check()
    await service.daily_problems.check()  # claimed once
    assert await service.outbox.deliver_all() == 1
    (day_one,) = deliveries.seen
    assert day_one.post is not None and day_one.reveals == ()
    assert day_one.post.problem.plies == 3

    right = await service.daily_problems.answer(GUILD, None, ALICE.user_id, "R*5b")
    assert right.judgement.judged is Judged.RIGHT and right.counted
    wrong = await service.daily_problems.answer(GUILD, None, BOB.user_id, "S*5b")
    assert wrong.judgement.judged is Judged.ESCAPES
    quiet = await service.daily_problems.answer(GUILD, None, CAROL.user_id, "5i4i")
    assert quiet.judgement.judged is Judged.NOT_CHECK
    with pytest.raises(ServiceError, match="one answer counts"):
        await service.daily_problems.answer(GUILD, None, ALICE.user_id, "R*5b")

    clock.now = datetime(2025, 3, 2, 9, 0, 1, tzinfo=UTC)
    await service.daily_problems.check()
    await service.outbox.deliver_all()
    day_two = deliveries.seen[1]
    assert [(post.id, solvers) for post, solvers in day_two.reveals] == [
        (day_one.post.id, (ALICE.user_id,))
    ]
    assert day_two.post is not None and day_two.post.problem.id != day_one.post.problem.id
    with pytest.raises(ServiceError, match="already revealed"):
        await service.daily_problems.answer(GUILD, day_one.post.id, CAROL.user_id, "R*5b")
    assert await service.daily_problems.streak(GUILD, ALICE.user_id) == 1
    assert await service.daily_problems.streak(GUILD, BOB.user_id) == 0
    await service.daily_problems.answer(GUILD, None, ALICE.user_id, "R*5b")
    assert await service.daily_problems.streak(GUILD, ALICE.user_id) == 2
    _since, table = await service.daily_problems.table(GUILD)
    assert table == [(ALICE.user_id, 2)]

    clock.now = datetime(2025, 3, 3, 9, 0, 1, tzinfo=UTC)  # no problem left: a reveal alone
    await service.daily_problems.check()
    await service.outbox.deliver_all()
    day_three = deliveries.seen[2]
    assert day_three.post is None and len(day_three.reveals) == 1


async def test_an_illegal_or_unreadable_answer_counts_for_nothing(
    service: GameService, clock: FakeClock, pool: ReaderPool
) -> None:
    wired(service, pool)
    await two_problems(service)
    clock.now = datetime(2025, 3, 1, 8, 30, tzinfo=UTC)
    await service.daily_problems.schedule(GUILD, CHANNEL, 9)
    clock.now = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
    await service.daily_problems.check()
    await service.outbox.deliver_all()
    for text in ("P*5b", "nonsense", "x" * 5000):  # no pawn in hand; not a move; huge
        with pytest.raises(ServiceError):
            await service.daily_problems.answer(GUILD, None, ALICE.user_id, text)
    right = await service.daily_problems.answer(GUILD, None, ALICE.user_id, "５二飛打")
    assert right.judgement == Judgement("R*5b", Judged.RIGHT)
    with pytest.raises(ServiceError, match="no such problem"):
        await service.daily_problems.answer(GUILD + 1, 1, ALICE.user_id, "R*5b")


async def test_two_processes_post_the_day_once(
    db: Database, clock: FakeClock, events: RecordingEvents, pool: ReaderPool
) -> None:
    first = GameService(db, clock=clock, events=events, rng=random.Random(1))
    second = GameService(db, clock=clock, events=events, rng=random.Random(2))
    seen_first, seen_second = wired(first, pool), wired(second, pool)
    await two_problems(first)
    clock.now = datetime(2025, 3, 1, 8, 30, tzinfo=UTC)
    await first.daily_problems.schedule(GUILD, CHANNEL, 9)
    clock.now = datetime(2025, 3, 1, 9, 30, tzinfo=UTC)
    await first.daily_problems.check()
    await second.daily_problems.check()
    await first.outbox.deliver_all()
    await second.outbox.deliver_all()
    posts = [d.post for d in seen_first.seen + seen_second.seen if d.post is not None]
    assert len(posts) == 1
