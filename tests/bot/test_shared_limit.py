"""Discord's global limit shared by every process of the bot: the bucket in PostgreSQL and
the one in Redis, on real servers (`scripts/test_postgres.sh`, `scripts/test_redis.sh`),
and two OS processes taking slots of one bucket at once, which together never put more
than rate + burst requests in any second."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest

from bot.config import Settings
from bot.db import open_database
from bot.db.limiters import GlobalLimiter, LocalBucket, Pace, PostgresBucket, bucket_key
from bot.ui.pacing import Pacing, shared_limiter
from tests.support.discordish import Discordish, server
from tests.support.postgres import fresh_schema, raw
from tests.support.windows import most_in_window

ROOT = Path(__file__).resolve().parents[2]
__all__ = ["server"]  # the fixture
KINDS = [
    pytest.param("postgresql", marks=pytest.mark.postgres),
    pytest.param("redis", marks=pytest.mark.redis),
]


@pytest.fixture
async def url(request: pytest.FixtureRequest, kind: str) -> AsyncIterator[str]:
    """The address of the test's own server of `kind`: a fresh PostgreSQL schema, or the
    Redis server (each test takes a bucket of its own there)."""
    if kind == "redis":
        yield str(request.getfixturevalue("redis_url"))
        return
    database = str(request.getfixturevalue("postgres_database"))
    async with fresh_schema(database) as schema:
        yield schema


async def open_bucket(kind: str, url: str, key: str, pace: Pace) -> AsyncIterator[GlobalLimiter]:
    if kind == "postgresql":
        database = await open_database(url)
        try:
            yield PostgresBucket(database, key, pace)
        finally:
            await database.close()
        return
    from bot.db.redis_limiter import RedisBucket

    bucket = RedisBucket.connect(url, key, pace)
    try:
        yield bucket
    finally:
        await bucket.close()


def fresh_key() -> str:
    return bucket_key(f"test-{os.getpid()}-{time.monotonic_ns()}")


@pytest.mark.parametrize("kind", KINDS)
async def test_a_shared_bucket_lets_the_burst_go_then_spaces_the_slots(kind: str, url: str) -> None:
    async for bucket in open_bucket(kind, url, fresh_key(), Pace(rate=2, burst=2)):
        waits = [await bucket.reserve() for _ in range(4)]
        # The server's clock runs on between the calls: a wait is its slot less that.
        assert waits == pytest.approx([0, 0, 0.5, 1.0], abs=0.15), waits
        assert waits[2] > 0.3 and waits[3] > waits[2]


@pytest.mark.parametrize("kind", KINDS)
async def test_a_global_429_pushes_the_shared_bucket_for_every_process(kind: str, url: str) -> None:
    key = fresh_key()
    pace = Pace(rate=10, burst=5)
    async for one in open_bucket(kind, url, key, pace):
        async for other in open_bucket(kind, url, key, pace):
            assert await other.reserve() == 0
            await one.hold_off(3.0)  # one process met the 429
            waited = await other.reserve()  # the other holds off as long
            assert 2.7 <= waited <= 3.1, waited
            ahead = await other.ahead()  # type: ignore[attr-defined]
            assert ahead is not None and ahead >= 2.7


@pytest.mark.parametrize("kind", KINDS)
async def test_a_bucket_far_ahead_of_the_clock_is_taken_as_idle(kind: str, url: str) -> None:
    """The shared clock set back by an hour leaves the bucket an hour ahead of it: rather
    than hold every request of every process for that hour, the bucket starts again."""
    async for bucket in open_bucket(kind, url, fresh_key(), Pace(rate=10, burst=2)):
        await bucket.hold_off(3600.0)  # what a clock set back an hour leaves behind
        assert await bucket.reserve() == 0
        assert await bucket.reserve() == 0
        assert 0.05 <= await bucket.reserve() <= 0.1
        await bucket.hold_off(240.0)  # a hold-off within the bounds is kept
        assert 239 <= await bucket.reserve() <= 240.2


@pytest.mark.parametrize("kind", KINDS)
async def test_two_processes_together_keep_to_rate_and_burst(kind: str, url: str) -> None:
    if kind == "postgresql":
        database = await open_database(url)  # migrate once, before the two start
        await database.close()
    rate, burst, each = 100, 5, 150
    key, start = fresh_key(), time.time() + 2.0
    command = [sys.executable, "-m", "tests.support.limiter_process", kind, url, key]
    command += [str(rate), str(burst), str(each), str(start)]
    children = [
        await asyncio.create_subprocess_exec(
            *command,
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            env=os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)},
        )
        for _ in range(2)
    ]
    outputs = [await asyncio.wait_for(child.communicate(), 60) for child in children]
    assert [child.returncode for child in children] == [0, 0]
    slots = [at for out, _ in outputs for at in json.loads(out)["slots"]]
    sent = [at for out, _ in outputs for at in json.loads(out)["sent"]]
    assert len(slots) == 2 * each
    # Two reservations may read the server's clock in the same microsecond: within the
    # burst both are sent at once, so equal slots are allowed, never more than the burst.
    assert max(Counter(slots).values()) <= burst
    # On the server's clock, which both processes share, the bucket keeps its promise
    # exactly: the slots of the two together are one series, at most `burst` at once,
    # then one per interval.
    assert most_in_window(slots) <= rate + burst, most_in_window(slots)
    assert max(slots) - min(slots) >= (2 * each - burst) / rate - 0.001
    # Where the requests would leave, each answer is late by its trip back (a busy
    # machine's, here): the bunching that makes is bounded by a tenth of the rate.
    assert most_in_window(sent) <= (rate + burst) * 1.1, most_in_window(sent)
    span = max(sent) - min(sent)
    assert 2.5 <= span <= 15, span


@pytest.mark.postgres
async def test_the_bot_on_postgresql_shares_its_limit_there_unless_told_not_to(
    postgres_url: str, tmp_path: Path
) -> None:
    database = await open_database(postgres_url)
    try:
        settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "DATABASE_URL": postgres_url})
        shared = await shared_limiter(settings, database)
        assert isinstance(shared, PostgresBucket) and shared.key == bucket_key("t")
        off = Settings.from_mapping(
            {"DISCORD_TOKEN": "t", "DATABASE_URL": postgres_url, "RATE_LIMIT_SHARED": "off"}
        )
        assert await shared_limiter(off, database) is None
        # The bucket is not written to PostgreSQL's log: a commit of it waits for no disk.
        connection = await raw(postgres_url)
        try:
            persistence = await connection.fetchval(
                "SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'"
                " AND relnamespace = current_schema()::regnamespace"
            )
        finally:
            await connection.close()
        assert persistence == b"u"  # asyncpg reads the "char" type as bytes
    finally:
        await database.close()
    sqlite = await open_database(tmp_path / "shogi.db")
    try:
        alone = Settings.from_mapping({"DISCORD_TOKEN": "t"})
        assert await shared_limiter(alone, sqlite) is None
        with pytest.raises(ValueError, match="PostgreSQL"):
            PostgresBucket(sqlite, "k", Pace())
    finally:
        await sqlite.close()


@pytest.mark.redis
async def test_redis_is_chosen_when_its_address_is_set(redis_url: str, tmp_path: Path) -> None:
    from bot.db.redis_limiter import RedisBucket

    sqlite = await open_database(tmp_path / "shogi.db")
    try:
        settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "REDIS_URL": redis_url})
        shared = await shared_limiter(settings, sqlite)
        assert isinstance(shared, RedisBucket)
        assert await shared.reserve() >= 0
        await shared.close()
    finally:
        await sqlite.close()


@pytest.mark.parametrize("kind", KINDS)
async def test_a_global_429_met_by_one_process_holds_off_the_others(
    kind: str, url: str, server: tuple[Discordish, str]
) -> None:
    """Through the HTTP hook: the process that meets the 429 pushes the shared bucket, and
    a request of another process sharing it waits Discord's retry_after."""
    discordish, base = server
    discordish.refuse["/api/v10/channels/1/messages"] = (
        429,
        {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"},
        {"retry_after": 4.0, "global": True, "message": "You are being rate limited."},
    )
    key, pace = fresh_key(), Pace(rate=45, burst=5)
    async for one in open_bucket(kind, url, key, pace):
        pacing = Pacing(one, LocalBucket(pace))
        trace = pacing.attach(aiohttp.TraceConfig())
        async with (
            aiohttp.ClientSession(trace_configs=[trace]) as session,
            session.post(base + "/api/v10/channels/1/messages") as response,
        ):
            assert response.status == 429
        assert pacing.throttled == {"global": 1}
        async for other in open_bucket(kind, url, key, pace):
            waited = await other.reserve()
            assert 3.7 <= waited <= 4.1, waited


@pytest.mark.postgres
async def test_a_bulk_send_leaves_the_pool_to_the_members(postgres_url: str) -> None:
    """Hundreds of reservations at once hold at most two of the pool's connections: a
    member's query asked for after them is answered before they are all through."""
    database = await open_database(postgres_url)
    try:
        bucket = PostgresBucket(database, fresh_key(), Pace(rate=45, burst=5))
        done: list[str] = []

        async def reserve() -> None:
            await bucket.reserve()
            done.append("slot")

        async def member() -> None:
            async with database.query() as q:
                await q.games.count_active()
            done.append("member")

        bulk = [asyncio.ensure_future(reserve()) for _ in range(300)]
        await asyncio.sleep(0)
        await asyncio.gather(member(), *bulk)
        assert done.index("member") < len(done) - 1 - 100, done.index("member")
    finally:
        await database.close()
