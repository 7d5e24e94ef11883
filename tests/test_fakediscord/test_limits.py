"""The fake Discord enforces Discord's limits: 50 requests a second per token across every
connection (two processes together), per-route buckets announced in ``X-RateLimit-*``
headers and honoured by discord.py, the ban after too many invalid requests and its lifting,
the cap on active threads and the size of an upload."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest

from tests.fakediscord import (
    CREATE_MESSAGE,
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    Limits,
    RouteLimit,
)
from tests.fakediscord.limits import DISCORD_ROUTE_LIMITS, RateLimiter

from .toybot import ToyBot

ROOT = Path(__file__).resolve().parents[2]
EDIT_MESSAGE = "PATCH /channels/{channel_id}/messages/{message_id}"


class ManualClock:
    """A clock the test moves: ``Limits(clock=...)`` reads every window on it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(fake_discord: FakeDiscord) -> ManualClock:
    clock = ManualClock()
    fake_discord.limits.clock = clock
    return clock


@pytest.fixture
async def http(fake_discord: FakeDiscord) -> AsyncIterator[aiohttp.ClientSession]:
    """A raw client with the bot's token."""
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        yield session


# -- the global limit ------------------------------------------------------------------------


async def run_pacers(fake: FakeDiscord, rates: list[float], seconds: float) -> list[Any]:
    """One pacer process per rate, started together; what each printed."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    processes = [
        await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.test_fakediscord.pacer",
            fake.url,
            fake.token,
            str(rate),
            str(seconds),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=env,
            cwd=ROOT,
        )
        for rate in rates
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            line = await asyncio.wait_for(process.stdout.readline(), 20)
            assert line == b"ready\n", line
        for process in processes:
            assert process.stdin is not None
            process.stdin.write(b"go\n")
            await process.stdin.drain()
        outputs = [
            await asyncio.wait_for(process.communicate(), seconds + 20) for process in processes
        ]
    finally:
        for process in processes:
            if process.returncode is None:
                process.kill()
                await process.wait()
    assert all(p.returncode == 0 for p in processes), [p.returncode for p in processes]
    return [json.loads(out.decode().strip().splitlines()[-1]) for out, _err in outputs]


async def test_two_processes_over_50_a_second_together_get_global_429s(
    fake_discord: FakeDiscord,
) -> None:
    """Each at 40 a second is within the limit alone; together, on one token, they are not."""
    fake = fake_discord
    results = await run_pacers(fake, [40, 40], seconds=1.5)
    refused = sum(r["statuses"].get("429", 0) for r in results)
    assert refused > 0, results
    assert fake.rate_limited.global_limit == refused
    assert fake.rate_limited.route == fake.rate_limited.ban == 0
    first = next(r["first_429"] for r in results if r["first_429"] is not None)
    assert first["body"]["global"] is True and first["body"]["message"]
    assert 0 < first["body"]["retry_after"] <= 1.0
    headers = first["headers"]
    assert headers["X-RateLimit-Global"] == "true"
    assert headers["X-RateLimit-Scope"] == "global"
    assert headers["Via"] and int(headers["Retry-After"]) >= 1
    # What passed kept the limit: at most 50 in any second, by the fake's arrival times
    # (recorded a moment before the limit reads its clock: a millisecond less).
    passed = sorted(
        r.started for r in fake.requests if r.route == "GET /users/@me" and r.status == 200
    )
    busiest = max(sum(1 for t in passed[i:] if t - start < 0.998) for i, start in enumerate(passed))
    assert busiest <= 50


async def test_one_process_at_45_a_second_is_never_refused(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    [result] = await run_pacers(fake, [45], seconds=1.5)
    assert result["statuses"].get("429", 0) == 0, result
    assert result["statuses"]["200"] >= 50  # over more than a second: a window was full
    assert fake.rate_limited.total == 0


def test_the_window_is_any_second_not_a_fixed_one() -> None:
    """On a moved clock: 50 at once pass and the 51st waits for the first to leave the
    window; requests spaced 1/50 s apart pass forever."""
    now = [0.0]
    limits = Limits(clock=lambda: now[0])
    limiter = RateLimiter()
    assert all(limiter.take_global(limits, "bot") is None for _ in range(50))
    refused = limiter.take_global(limits, "bot")
    assert refused is not None and isinstance(refused.body, dict)
    assert refused.body["global"] is True and refused.body["message"]
    assert refused.body["retry_after"] == pytest.approx(0.999, abs=0.001)
    now[0] = 0.998
    assert limiter.take_global(limits, "bot") is not None
    now[0] = 0.9991
    assert limiter.take_global(limits, "bot") is None
    assert limiter.take_global(limits, "other token") is None  # per token
    paced = RateLimiter()
    for step in range(500):
        now[0] = 10 + step / 50
        assert paced.take_global(limits, "bot") is None, step
    assert limiter.counts.global_limit == 2 and paced.counts.total == 0


async def test_discord_py_honours_a_global_429(
    fake_discord: FakeDiscord, guild: FakeGuild, toy: ToyBot
) -> None:
    """discord.py has no idea of the global limit until it is told: it sends, gets the
    global 429, waits `retry_after` with every request held, and sends again."""
    fake = fake_discord
    fake.limits.global_per_second, fake.limits.global_window = 3, 0.3
    channels = [toy.get_channel(fake.channel(name, guild).id) for name in ("general", "games")]
    assert all(isinstance(c, discord.TextChannel) for c in channels)
    await asyncio.gather(
        *(c.send(f"{n}") for n in range(4) for c in channels if isinstance(c, discord.TextChannel))
    )
    assert len([m for m in fake.messages.values() if m.author.id == fake.bot_user.id]) == 8
    assert fake.rate_limited.global_limit > 0 and fake.rate_limited.route == 0


async def test_interaction_routes_are_outside_the_global_limit(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession, clock: ManualClock
) -> None:
    fake = fake_discord
    fake.limits.global_per_second = 1
    webhook = f"{fake.api_base}/webhooks/{fake.application_id}/no-such-token"
    for _ in range(3):
        async with http.post(webhook, json={"content": "x"}) as reply:
            assert reply.status == 404  # unknown, but never 429
    async with http.get(f"{fake.api_base}/users/@me") as reply:
        assert reply.status == 200
    async with http.get(f"{fake.api_base}/users/@me") as reply:
        assert reply.status == 429 and (await reply.json())["global"] is True
    clock.now += 1.0
    async with http.get(f"{fake.api_base}/users/@me") as reply:
        assert reply.status == 200
    assert fake.rate_limited.global_limit == 1
    fake.expect_rejections(ErrorCode.UNKNOWN_WEBHOOK)


# -- per-route buckets -----------------------------------------------------------------------


async def test_a_channels_bucket_is_announced_and_refuses_past_it(
    fake_discord: FakeDiscord, guild: FakeGuild, http: aiohttp.ClientSession, clock: ManualClock
) -> None:
    fake = fake_discord
    assert fake.limits.routes == {}  # opt-in
    fake.limits.routes = Limits.discord().routes
    general, games = fake.channel("general", guild), fake.channel("games", guild)
    posts = f"{fake.api_base}/channels/{general.id}/messages"
    remaining, buckets = [], set()
    for n in range(5):
        clock.now += 0.1
        async with http.post(posts, json={"content": f"post {n}"}) as reply:
            assert reply.status == 200
            assert reply.headers["X-RateLimit-Limit"] == "5"
            remaining.append(int(reply.headers["X-RateLimit-Remaining"]))
            buckets.add(reply.headers["X-RateLimit-Bucket"])
            reset_after = float(reply.headers["X-RateLimit-Reset-After"])
            reset = float(reply.headers["X-RateLimit-Reset"])
            assert abs(reset - (time.time() + reset_after)) < 2
    assert remaining == [4, 3, 2, 1, 0]
    assert reset_after == pytest.approx(4.6)  # the window opened with the first post
    async with http.post(posts, json={"content": "one too many"}) as reply:
        assert reply.status == 429
        body = await reply.json()
        assert body["global"] is False and body["retry_after"] == pytest.approx(4.6)
        assert reply.headers["X-RateLimit-Scope"] == "user" and reply.headers["Via"]
        assert reply.headers["X-RateLimit-Remaining"] == "0"
    # Another channel is another bucket (its major parameter); editing, another route.
    async with http.post(
        f"{fake.api_base}/channels/{games.id}/messages", json={"content": "x"}
    ) as r:
        assert r.status == 200 and r.headers["X-RateLimit-Remaining"] == "4"
        assert {r.headers["X-RateLimit-Bucket"]} == buckets
    [first] = [m for m in fake.messages.values() if m.content == "post 0"]
    async with http.patch(f"{posts}/{first.id}", json={"content": "edited"}) as r:
        assert r.status == 200 and r.headers["X-RateLimit-Bucket"] not in buckets
    # Waiting what it said lets the next one through; a moment less does not.
    clock.now += body["retry_after"] - 0.01
    async with http.post(posts, json={"content": "too early"}) as reply:
        assert reply.status == 429
    clock.now += 0.01
    async with http.post(posts, json={"content": "in time"}) as reply:
        assert reply.status == 200 and reply.headers["X-RateLimit-Remaining"] == "4"
    assert fake.rate_limited.route == 2
    assert fake.rate_limited.by_route == {CREATE_MESSAGE: 2}
    assert [m.content for m in fake.messages.values()].count("one too many") == 0


async def test_routes_without_a_bucket_carry_no_headers(
    fake_discord: FakeDiscord, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    fake.limits = Limits.discord()
    assert "GET /users/@me" not in DISCORD_ROUTE_LIMITS
    async with http.get(f"{fake.api_base}/users/@me") as reply:
        assert reply.status == 200 and "X-RateLimit-Bucket" not in reply.headers


async def test_discord_py_waits_on_the_headers_and_is_never_refused(
    fake_discord: FakeDiscord, general: FakeChannel, toy: ToyBot
) -> None:
    """The unmodified client posts 12 messages in a row to one channel whose bucket takes 5
    per half second: all get through, after waiting on the headers, with no 429; 12 at once
    get through too."""
    fake = fake_discord
    fake.limits.routes = {**DISCORD_ROUTE_LIMITS, CREATE_MESSAGE: RouteLimit(5, 0.5, "posts")}
    channel = toy.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    loop = asyncio.get_running_loop()
    started = loop.time()
    for n in range(12):
        await channel.send(f"in a row {n}")
    in_a_row = loop.time() - started
    contents = [m.content for m in fake.messages.values() if m.channel_id == general.id]
    assert contents == [f"in a row {n}" for n in range(12)]
    assert in_a_row >= 0.9  # three windows: it waited twice
    assert fake.rate_limited.total == 0
    # Many at once: discord.py may wake more waiters than the bucket holds when its waits
    # time out together (a race of its own); the fake refuses those and discord.py sends
    # them again after `retry_after`, so every message gets through all the same.
    await asyncio.gather(*(channel.send(f"at once {n}") for n in range(12)))
    contents = [m.content for m in fake.messages.values() if m.channel_id == general.id]
    assert sorted(contents[12:]) == sorted(f"at once {n}" for n in range(12))
    assert fake.rate_limited.global_limit == fake.rate_limited.ban == 0


# -- invalid requests and the ban ------------------------------------------------------------


async def test_too_many_invalid_requests_bring_the_ban_until_the_window_clears(
    fake_discord: FakeDiscord,
    general: FakeChannel,
    http: aiohttp.ClientSession,
    clock: ManualClock,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    fake.limits.invalid_threshold = 6
    fake.limits.invalid_window = 60.0
    me = f"{fake.api_base}/users/@me"
    async with aiohttp.ClientSession(headers={"Authorization": "Bot wrong"}) as stranger:
        for _ in range(4):
            async with stranger.get(me) as reply:
                assert reply.status == 401
    clock.now += 30
    fake.limits.routes = {CREATE_MESSAGE: RouteLimit(1, 10.0, "posts")}
    posts = f"{fake.api_base}/channels/{general.id}/messages"
    statuses = []
    for _ in range(3):
        async with http.post(posts, json={"content": "x"}) as reply:
            statuses.append(reply.status)
    assert statuses == [200, 429, 429]
    assert fake.invalid_requests == 6
    async with http.get(me) as reply:  # a good request, banned all the same
        assert reply.status == 429 and "Via" not in reply.headers
        assert "Cloudflare" in await reply.text()
    channel = toy.get_channel(general.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as banned:
        await asyncio.wait_for(channel.send("during the ban"), 2)  # raised at once, no retry
    assert banned.value.status == 429
    assert fake.rate_limited.ban == 2 and fake.invalid_requests == 6  # the ban's not counted
    clock.now += 30  # the four 401s leave the window
    assert fake.invalid_requests == 2
    async with http.get(me) as reply:
        assert reply.status == 200
    fake.limits.invalid_threshold = None
    assert fake.rate_limited.ban == 2


def test_429s_of_a_shared_bucket_are_not_invalid_requests() -> None:
    now = [0.0]
    shared = RouteLimit(1, 5.0, "busy", shared=True)
    limits = Limits(routes={CREATE_MESSAGE: shared}, clock=lambda: now[0])
    limiter = RateLimiter()
    assert limiter.take_route(limits, CREATE_MESSAGE, {"channel_id": "1"})[0] is None
    refused, _headers = limiter.take_route(limits, CREATE_MESSAGE, {"channel_id": "1"})
    assert refused is not None and refused.headers["X-RateLimit-Scope"] == "shared"
    limiter.answered(limits, 429, refused.headers)
    limiter.answered(limits, 403, {})
    assert limiter.invalid_in_window(limits) == 1


# -- threads and uploads ---------------------------------------------------------------------


async def test_the_active_thread_cap_counts_only_threads_not_archived(
    fake_discord: FakeDiscord, general: FakeChannel, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    assert fake.limits.active_threads == 1000
    fake.limits.active_threads = 2
    posts = f"{fake.api_base}/channels/{general.id}/messages"

    async def start_thread() -> tuple[int, dict[str, Any]]:
        async with http.post(posts, json={"content": "a game"}) as reply:
            message = await reply.json()
        async with http.post(f"{posts}/{message['id']}/threads", json={"name": "g"}) as reply:
            return reply.status, await reply.json()

    (s1, first), (s2, _second), (s3, refused) = [await start_thread() for _ in range(3)]
    assert (s1, s2, s3) == (201, 201, 400)
    assert refused == {
        "message": "Maximum number of active threads reached",
        "code": ErrorCode.MAX_ACTIVE_THREADS,
    }
    first_url = f"{fake.api_base}/channels/{first['id']}"
    async with http.patch(first_url, json={"archived": True}) as reply:
        assert reply.status == 200
    status, _third = await start_thread()
    assert status == 201  # the archived one does not count
    async with http.patch(first_url, json={"archived": False}) as reply:
        assert reply.status == 400  # reopening it would pass the cap
        assert (await reply.json())["code"] == ErrorCode.MAX_ACTIVE_THREADS
    assert fake.active_threads(general.guild_id) == 2
    fake.expect_rejections(ErrorCode.MAX_ACTIVE_THREADS)


async def test_files_over_the_upload_limit_together_are_refused(
    fake_discord: FakeDiscord, general: FakeChannel, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    assert fake.limits.upload_bytes == 10 * 1024 * 1024
    fake.limits.upload_bytes = 1000
    posts = f"{fake.api_base}/channels/{general.id}/messages"

    def form(*sizes: int) -> aiohttp.FormData:
        data = aiohttp.FormData()
        data.add_field("payload_json", json.dumps({"content": "files"}))
        for n, size in enumerate(sizes):
            data.add_field(f"files[{n}]", bytes(size), filename=f"f{n}.bin")
        return data

    async with http.post(posts, data=form(600)) as reply:
        assert reply.status == 200
    async with http.post(posts, data=form(600, 600)) as reply:  # each fits; not both
        assert reply.status == 413
        assert await reply.json() == {
            "message": "Request entity too large",
            "code": ErrorCode.REQUEST_TOO_LARGE,
        }
    assert [m.content for m in fake.messages.values()] == ["files"]
    fake.expect_rejections(ErrorCode.REQUEST_TOO_LARGE)


async def test_limits_off_refuse_nothing(
    fake_discord: FakeDiscord, general: FakeChannel, http: aiohttp.ClientSession
) -> None:
    fake = fake_discord
    fake.limits = Limits.off()
    posts = f"{fake.api_base}/channels/{general.id}/messages"
    replies = []
    for n in range(60):
        async with http.post(posts, json={"content": f"{n}"}) as reply:
            replies.append((reply.status, "X-RateLimit-Bucket" in reply.headers))
    assert replies == [(200, False)] * 60
    assert fake.rate_limited.total == 0
