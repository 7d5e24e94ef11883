"""Discord's global limit in one process: the in-memory bucket's spacing, which requests
wait for it, and what a 429 does, through a real aiohttp session (discord.py's client
takes the same trace) against a small HTTP server of the test's own."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

import aiohttp
import discord
import pytest

from bot.__main__ import main
from bot.config import ConfigError, Settings
from bot.db.limiters import LocalBucket, Pace, bucket_key
from bot.db.redis_limiter import MISSING as REDIS_MISSING
from bot.ui.pacing import Pacing, is_global_limited
from bot.ui.rejections import Rejections
from tests.support.discordish import Discordish, server
from tests.support.windows import most_in_window

__all__ = ["server"]  # the fixture


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_idle_bucket_lets_the_burst_go_then_one_slot_per_interval() -> None:
    clock = Clock()
    bucket = LocalBucket(Pace(rate=10, burst=3), clock)
    waits = [bucket.reserve_now() for _ in range(6)]
    assert waits == pytest.approx([0, 0, 0, 0.1, 0.2, 0.3])
    clock.now += 0.35  # the last slot (at 0.3) has passed: the next is one interval on
    assert bucket.reserve_now() == pytest.approx(0.05)
    clock.now += 0.45  # every slot taken has passed: the whole burst again
    assert [bucket.reserve_now() for _ in range(4)] == pytest.approx([0, 0, 0, 0.1])
    clock.now += 60  # a long idle time saves no more than the burst
    assert [bucket.reserve_now() for _ in range(4)] == pytest.approx([0, 0, 0, 0.1])


def test_slots_are_handed_out_first_come_first_served() -> None:
    """A bulk sender's hundred slots delay a later request by exactly those slots, and a
    request asked for before them is not delayed by them at all."""
    clock = Clock()
    bucket = LocalBucket(Pace(rate=50, burst=1), clock)
    member_first = bucket.reserve_now()
    bulk = [bucket.reserve_now() for _ in range(100)]
    member_after = bucket.reserve_now()
    assert member_first == 0 and bulk == sorted(bulk)
    assert member_after == pytest.approx(bulk[-1] + 0.02)


def test_a_global_429_holds_the_bucket_off_for_its_retry_after() -> None:
    clock = Clock()
    bucket = LocalBucket(Pace(rate=10, burst=3), clock)
    asyncio.run(bucket.hold_off(2.5))
    assert bucket.reserve_now() == pytest.approx(2.5)
    assert bucket.reserve_now() == pytest.approx(2.6)


async def test_concurrent_requests_are_spread_to_the_rate() -> None:
    """In real time, with both cores busy or not: 60 requests asked for at once at 100 a
    second (burst 5) take at least their 55 intervals, and leave in the order asked."""
    pacing = Pacing.local(Pace(rate=100, burst=5))
    sent: list[tuple[int, float]] = []

    async def request(number: int) -> None:
        await pacing.wait_for_slot()
        sent.append((number, time.monotonic()))

    started = time.monotonic()
    await asyncio.gather(*(request(n) for n in range(60)))
    elapsed = time.monotonic() - started
    assert elapsed >= 0.5, elapsed  # 55 intervals of 10 ms, less rounding
    assert [n for n, _ in sent] == list(range(60))
    assert pacing.waits == 55


def test_which_requests_the_global_limit_counts() -> None:
    assert is_global_limited("POST", "/api/v10/channels/1/messages")
    assert is_global_limited("GET", "/api/v10/users/@me")
    assert is_global_limited("PATCH", "/api/v10/channels/1")
    # Interaction responses and the interaction's webhook are exempt.
    assert not is_global_limited("POST", "/api/v10/interactions/1/token/callback")
    assert not is_global_limited("PATCH", "/api/v10/webhooks/1/token/messages/@original")
    assert not is_global_limited("POST", "/api/v10/webhooks/1/token")
    # Not REST: the gateway and the CDN.
    assert not is_global_limited("GET", "/gateway/")
    assert not is_global_limited("GET", "/attachments/1/2/board.png")
    # A callback read, not posted, is not the exempt response.
    assert is_global_limited("GET", "/api/v10/interactions/1/token/callback")
    assert is_global_limited("GET", "/api/channels/1")  # no version
    assert is_global_limited("POST", "/api/v10/channels/1/mess\nages")  # a line break


def test_the_settings_of_the_limit() -> None:
    base = {"DISCORD_TOKEN": "t"}
    default = Settings.from_mapping(base)
    assert default.pace == Pace(46, 2) and default.rate_limit_shared
    assert default.redis_url is None
    chosen = Settings.from_mapping(
        base
        | {
            "RATE_LIMIT_PER_SECOND": "30.5",
            "RATE_LIMIT_BURST": "2",
            "RATE_LIMIT_SHARED": "OFF",
            "REDIS_URL": "redis://:secret@cache:6379/1",
        }
    )
    assert chosen.pace == Pace(30.5, 2) and not chosen.rate_limit_shared
    assert chosen.redis_url == "redis://:secret@cache:6379/1"
    assert "secret" not in repr(chosen)
    for key, value in (
        ("RATE_LIMIT_PER_SECOND", "0"),
        ("RATE_LIMIT_PER_SECOND", "51"),
        ("RATE_LIMIT_PER_SECOND", "nan"),
        ("RATE_LIMIT_PER_SECOND", "fast"),
        ("RATE_LIMIT_BURST", "0"),
        ("RATE_LIMIT_BURST", "-1"),
        ("RATE_LIMIT_SHARED", "maybe"),
        ("REDIS_URL", "http://cache"),
    ):
        with pytest.raises(ConfigError, match=key):
            Settings.from_mapping(base | {key: value})


def test_the_bucket_is_named_by_a_hash_of_the_token() -> None:
    key = bucket_key("secret-token")
    assert "secret" not in key and key == bucket_key("secret-token")
    assert key != bucket_key("another-token")


async def test_exempt_requests_pass_a_saturated_bucket_at_once(
    server: tuple[Discordish, str],
) -> None:
    discordish, base = server
    pacing = Pacing.local(Pace(rate=20, burst=1))
    for _ in range(40):  # two seconds of slots taken ahead
        pacing.fallback.reserve_now()
    async with aiohttp.ClientSession(trace_configs=[pacing.attach(Rejections().trace())]) as s:

        async def post(path: str) -> None:
            async with s.post(base + path) as response:
                await response.read()

        async def websocket() -> None:
            async with s.ws_connect(base + "/gateway/") as socket:
                await socket.receive()

        limited = asyncio.ensure_future(post("/api/v10/channels/1/messages"))
        await asyncio.sleep(0)
        await asyncio.gather(
            post("/api/v10/interactions/1/token/callback"),
            post("/api/v10/webhooks/1/token"),
            websocket(),
        )
        assert discordish.arrived[-1] != "POST /api/v10/channels/1/messages"
        assert not limited.done()  # still waiting for its slot behind the 40 taken
        await limited
    assert discordish.arrived[-1] == "POST /api/v10/channels/1/messages"
    assert set(discordish.arrived[:-1]) == {
        "POST /api/v10/interactions/1/token/callback",
        "POST /api/v10/webhooks/1/token",
        "websocket",
    }


async def test_a_429_is_counted_by_scope_and_a_global_one_holds_the_bucket_off(
    server: tuple[Discordish, str],
) -> None:
    discordish, base = server
    clock = Clock()
    bucket = LocalBucket(Pace(rate=10, burst=5), clock)
    pacing = Pacing(bucket, bucket)
    rejections = Rejections()
    discordish.refuse = {
        "/api/v10/channels/1/messages": (
            429,
            {"X-RateLimit-Scope": "user"},
            {"retry_after": 0.5, "global": False, "message": "slow down"},
        ),
        "/api/v10/channels/2/messages": (
            429,
            {"X-RateLimit-Scope": "shared"},
            {"retry_after": 0.5, "global": False, "message": "slow down"},
        ),
        "/api/v10/users/@me": (
            429,
            {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global"},
            {"retry_after": 3.25, "global": True, "message": "You are being rate limited."},
        ),
    }
    async with aiohttp.ClientSession(trace_configs=[pacing.attach(rejections.trace())]) as s:
        for path in ("/api/v10/channels/1/messages", "/api/v10/channels/2/messages"):
            async with s.post(base + path) as response:
                assert response.status == 429
        assert bucket.reserve_now() == pytest.approx(0.0)  # a route's 429 holds nothing off
        async with s.get(base + "/api/v10/users/@me") as response:
            # discord.py reads the body after the trace did: it is still all there.
            assert json.loads(await response.text())["retry_after"] == 3.25
    assert pacing.throttled == {"user": 1, "shared": 1, "global": 1}
    assert rejections.by_status[429] == 3  # the rejections' own count still runs
    assert bucket.reserve_now() == pytest.approx(3.25)


async def test_an_unreachable_shared_bucket_paces_the_process_alone() -> None:
    class Down:
        kind = "postgresql"

        async def reserve(self) -> float:
            raise OSError("connection refused")

        async def hold_off(self, seconds: float) -> None:
            raise OSError("connection refused")

        async def close(self) -> None:
            pass

    fallback = LocalBucket(Pace(rate=10, burst=1))
    pacing = Pacing(Down(), fallback)
    fallback.reserve_now()
    started = time.monotonic()
    assert 0.05 <= await pacing.wait_for_slot() <= 0.1
    assert time.monotonic() - started >= 0.09


def test_most_in_window_counts_half_open_windows() -> None:
    assert most_in_window([0.0, 0.5, 0.999, 1.0, 1.5]) == 3
    assert most_in_window([]) == 0
    assert most_in_window([0.0, 1.0, 2.0]) == 1


async def test_discord_py_honours_a_global_429_and_its_retry_waits_for_a_slot_too(
    server: tuple[Discordish, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Through discord.py's own HTTP client: a global 429 is waited out (retry_after) and
    the request sent again, and that retry passes the pacing like any request."""
    discordish, base = server
    monkeypatch.setattr(discord.http.Route, "BASE", base + "/api/v10")
    discordish.refuse["/api/v10/users/@me"] = (
        429,
        {"X-RateLimit-Global": "true", "X-RateLimit-Scope": "global", "Via": "1.1 google"},
        {"retry_after": 0.3, "global": True, "message": "You are being rate limited."},
    )

    class Counted(LocalBucket):
        reservations = 0

        def reserve_due(self) -> float:
            Counted.reservations += 1
            return super().reserve_due()

    bucket = Counted(Pace(rate=45, burst=5))
    pacing = Pacing(bucket, bucket)
    trace = pacing.attach(Rejections().trace())
    http = discord.http.HTTPClient(asyncio.get_running_loop(), http_trace=trace)
    started = time.monotonic()
    try:
        answer: object = await http.static_login("token")  # the user's JSON, unparsed
        assert answer == {"ok": True}
    finally:
        await http.close()
    assert time.monotonic() - started >= 0.3  # it waited retry_after
    assert discordish.arrived == ["GET /api/v10/users/@me"] * 2
    assert Counted.reservations == 2 and pacing.throttled == {"global": 1}


@pytest.mark.parametrize("retry_after", [301, 1e9, -5, "soon", None, True, float("nan")])
async def test_a_global_429_with_a_senseless_retry_after_holds_nothing_off(
    server: tuple[Discordish, str], retry_after: object
) -> None:
    """A retry_after past five minutes, negative or not a number (a proxy's page, a broken
    answer) does not stop every process of the bot: it is counted and nothing more."""
    discordish, base = server
    bucket = LocalBucket(Pace(rate=10, burst=5), Clock())
    pacing = Pacing(bucket, bucket)
    discordish.refuse["/api/v10/users/@me"] = (
        429,
        {"X-RateLimit-Global": "true"},
        {"retry_after": retry_after, "global": True},
    )
    async with (
        aiohttp.ClientSession(trace_configs=[pacing.attach(aiohttp.TraceConfig())]) as s,
        s.get(base + "/api/v10/users/@me") as response,
    ):
        assert response.status == 429
    assert pacing.throttled == {"global": 1}
    assert bucket.reserve_now() == 0


def test_a_redis_address_without_the_redis_package_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.__main__.redis_available", lambda: False)
    env = tmp_path / "env"
    env.write_text("DISCORD_TOKEN=x.y.z\nREDIS_URL=redis://127.0.0.1:6379/0\n")
    assert main(["--env-file", str(env)]) == 2
    assert capsys.readouterr().err.strip() == f"Configuration error: {REDIS_MISSING}"
