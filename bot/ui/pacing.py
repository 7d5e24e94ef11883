"""Every global-limited request of this process waits for its slot of Discord's global
limit before it leaves, and every 429 that arrives anyway is honoured and counted.

Where: discord.py takes an aiohttp `TraceConfig` (`http_trace`), and aiohttp awaits each
`on_request_start` callback before it connects and sends, so awaiting the limiter there
delays exactly that request: every REST call of discord.py, each of its retries too (a
retry is a new `session.request`). The gateway's websocket (not a REST request), files
fetched from the CDN (not under `/api/`), interaction responses and the interaction's
webhook (Discord exempts them) pass without waiting, so a member's answer never queues
behind the bot's own posts. The wait counts toward aiohttp's timeout of the request
(five minutes by default, far beyond any wait a sane burst makes).

A 429 is honoured by discord.py itself (it sleeps `retry_after`, for every request when
the global flag is set, then retries); here it is counted by Discord's scope (`global`,
`user`: this bot's own route bucket, `shared`: a resource's), and a global one pushes the
shared bucket so the other processes hold off too. If the shared bucket cannot be reached
(the database or Redis is down), the request waits on this process's own bucket instead,
and one warning a minute says so: the bot slows to one process's share, never stops.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections import Counter
from types import SimpleNamespace

import aiohttp

from bot.config import Settings
from bot.db import Database
from bot.db.limiters import (
    MAX_HOLD_OFF,
    GlobalLimiter,
    LocalBucket,
    Pace,
    PostgresBucket,
    bucket_key,
)

log = logging.getLogger(__name__)

#: Discord's scopes of a 429 (`X-RateLimit-Scope`).
SCOPES = ("global", "user", "shared")
#: A REST path: `/api`, maybe a version, then the route (bounded, linear).
_API = re.compile(r"/api(?:/v\d{1,3})?(/.*)?", re.DOTALL)
#: Seconds between two warnings that the shared bucket cannot be reached.
WARN_EVERY = 60.0


def is_global_limited(method: str, path: str) -> bool:
    """Whether Discord's global limit counts a request to `path` (an URL's path): REST
    calls under `/api/` except interaction responses and the interaction webhook.

    is_global_limited("POST", "/api/v10/channels/1/messages")  # True
    """
    matched = _API.fullmatch(path)
    if matched is None:
        return False
    rest = matched.group(1) or "/"
    if rest.startswith("/webhooks/"):
        return False
    callback = rest.startswith("/interactions/") and rest.endswith("/callback")
    return not (method == "POST" and callback)


class Pacing:
    """The limiter in force for this process (`use` swaps it once the shared one is
    open), the trace callbacks that ask it, and what they counted: `throttled` (429s by
    scope), `waits` (requests that had to wait) and `waited` (seconds in all).

    pacing = Pacing.local(Pace(46, 2))
    session = aiohttp.ClientSession(trace_configs=[pacing.attach(aiohttp.TraceConfig())])
    """

    def __init__(self, limiter: GlobalLimiter, fallback: LocalBucket) -> None:
        self.limiter = limiter
        self.fallback = fallback
        self.throttled: Counter[str] = Counter()
        self.waits = 0
        self.waited = 0.0
        self._warned_at = -WARN_EVERY

    @classmethod
    def local(cls, pace: Pace) -> Pacing:
        bucket = LocalBucket(pace)
        return cls(bucket, bucket)

    async def use(self, limiter: GlobalLimiter) -> None:
        """Ask `limiter` from now on (the one used so far is closed)."""
        old, self.limiter = self.limiter, limiter
        if old is not limiter and old is not self.fallback:
            await old.close()

    async def close(self) -> None:
        if self.limiter is not self.fallback:
            await self.limiter.close()
        self.limiter = self.fallback

    async def wait_for_slot(self) -> float:
        """Take a slot and wait for it; the seconds waited. This process's own bucket says
        when its slot is (on the monotonic clock, asyncio's too); a shared one says how long
        to wait, counted from when its answer came back."""
        loop = asyncio.get_running_loop()
        try:
            if isinstance(self.limiter, LocalBucket):
                due = self.limiter.reserve_due()
            else:
                due = loop.time() + await self.limiter.reserve()
        except Exception as error:  # the shared bucket is unreachable: pace alone
            if self._may_warn():
                log.warning("could not reach the shared rate limit (%s); pacing alone", error)
            due = self.fallback.reserve_due()
        delay = due - loop.time()
        if delay <= 0:
            return 0.0
        self.waits += 1
        self.waited += delay
        # Woken at `due` itself (not `delay` after some later instant), so the requests
        # leave in the order of their slots whatever held this process up meanwhile.
        woken: asyncio.Future[None] = loop.create_future()
        timer = loop.call_at(due, _wake, woken)
        try:
            await woken
        finally:
            timer.cancel()
        return delay

    async def rate_limited(self, response: aiohttp.ClientResponse) -> None:
        """Discord answered 429: count it by scope; a global one holds every process off."""
        headers = response.headers
        body: dict[str, object] = {}
        try:
            parsed = json.loads(await response.read())
            if isinstance(parsed, dict):
                body = parsed
        except (ValueError, aiohttp.ClientError):
            pass
        scope = headers.get("X-RateLimit-Scope", "").lower()
        if headers.get("X-RateLimit-Global", "").lower() == "true" or body.get("global") is True:
            scope = "global"
        self.throttled[scope if scope in SCOPES else "user"] += 1
        if scope != "global":
            return
        retry_after = _seconds(body.get("retry_after"))
        if retry_after is None:
            retry_after = _seconds(headers.get("Retry-After"))
        if retry_after is None:
            return
        try:
            await self.limiter.hold_off(retry_after)
        except Exception as error:
            if self._may_warn():
                log.warning("could not push the shared rate limit (%s)", error)
        if self.limiter is not self.fallback:
            await self.fallback.hold_off(retry_after)

    def _may_warn(self) -> bool:
        """Whether a warning may be logged now (one per `WARN_EVERY` seconds)."""
        now = time.monotonic()
        if now - self._warned_at < WARN_EVERY:
            return False
        self._warned_at = now
        return True

    def attach(self, config: aiohttp.TraceConfig) -> aiohttp.TraceConfig:
        """Add the callbacks to `config` (which may count other things too)."""

        async def starting(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestStartParams,
        ) -> None:
            if params.headers.get("Upgrade", "").lower() == "websocket":
                return
            if is_global_limited(params.method, params.url.path):
                await self.wait_for_slot()

        async def ended(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            if params.response.status == 429:
                await self.rate_limited(params.response)

        config.on_request_start.append(starting)
        config.on_request_end.append(ended)
        return config


def _wake(woken: asyncio.Future[None]) -> None:
    if not woken.done():
        woken.set_result(None)


def _seconds(value: object) -> float | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        seconds = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return seconds if 0 <= seconds <= MAX_HOLD_OFF else None


async def shared_limiter(settings: Settings, database: Database) -> GlobalLimiter | None:
    """The bucket every process of the bot shares, by the settings: Redis when `REDIS_URL`
    is set, else the PostgreSQL database when the bot is on one; None (this process's own
    bucket is enough) on SQLite, or when `RATE_LIMIT_SHARED=off`.

    shared = await shared_limiter(settings, database)
    if shared is not None:
        await bot.pacing.use(shared)
    """
    if not settings.rate_limit_shared:
        return None
    key = bucket_key(settings.discord_token)
    if settings.redis_url is not None:
        from bot.db.redis_limiter import RedisBucket

        return RedisBucket.connect(settings.redis_url, key, settings.pace)
    if database.backend == "postgresql":
        return PostgresBucket(database, key, settings.pace)
    return None
