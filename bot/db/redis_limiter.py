"""The shared bucket of Discord's global limit in Redis: one script call per request.

Why a Lua script: Redis runs it whole, so reading the bucket's theoretical arrival time,
moving it and answering the wait is one atomic round trip (`EVALSHA`; the script is loaded
once and loaded again if the server forgot it). The time is the server's (`TIME`), so the
processes need no synced clocks. The key expires once its slots are past, so an idle bot
leaves nothing behind. The algorithm is `bot.db.limiters`'s; `redis` is an optional extra
(`pip install -e '.[redis]'`), imported only when `REDIS_URL` is set.
"""

from __future__ import annotations

import importlib.util
from typing import Any

from .limiters import MAX_AHEAD_US, Pace

MISSING = (
    "REDIS_URL is set but the redis package is not installed: install it with "
    "pip install -e '.[redis]' (requirements/bot.lock holds it), or leave REDIS_URL empty "
    "to share the limit through PostgreSQL."
)


def redis_available() -> bool:
    """Whether the optional redis package is installed."""
    return importlib.util.find_spec("redis") is not None


#: KEYS[1] the bucket; ARGV[1] the interval, ARGV[2] the burst's allowance, ARGV[3] how far
#: ahead the bucket may be before it is taken as idle (microseconds; see `MAX_AHEAD_US`).
#: Returns the microseconds to wait and the slot's time (microseconds since the epoch on
#: the server's clock, exact in a Lua double), as decimal strings.
RESERVE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local interval = tonumber(ARGV[1])
if tat < now or tat > now + tonumber(ARGV[3]) then tat = now end
tat = tat + interval
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil((tat - now) / 1000) + 1000)
local slot = tat - tonumber(ARGV[2])
if slot < now then slot = now end
return {string.format('%d', slot - now), string.format('%d', slot)}
"""
#: KEYS[1] the bucket; ARGV[1] how far after now its arrival time must be (microseconds).
HOLD_OFF = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000000 + tonumber(clock[2])
local tat = tonumber(redis.call('GET', KEYS[1]) or '0')
local wanted = now + tonumber(ARGV[1])
if tat < wanted then tat = wanted end
redis.call('SET', KEYS[1], string.format('%d', tat), 'PX', math.ceil((tat - now) / 1000) + 1000)
return 0
"""


class RedisBucket:
    """The bucket in a Redis server every process reaches (`REDIS_URL`)."""

    kind = "redis"

    def __init__(self, client: Any, key: str, pace: Pace) -> None:
        self._client = client
        self._reserve = client.register_script(RESERVE)
        self._hold_off = client.register_script(HOLD_OFF)
        self.key = key
        self.pace = pace

    @classmethod
    def connect(cls, url: str, key: str, pace: Pace, *, connections: int = 10) -> RedisBucket:
        """A bucket on the server at `url` (the connections open at the first requests):
        at most `connections` at once, a request beyond them waiting for one, in turn."""
        import redis.asyncio

        pool = redis.asyncio.BlockingConnectionPool.from_url(url, max_connections=connections)
        return cls(redis.asyncio.Redis.from_pool(pool), key, pace)

    async def reserve(self) -> float:
        return (await self.slot())[0]

    async def slot(self) -> tuple[float, float]:
        """Take the next slot: the seconds to wait, and when the slot is on the server's
        clock (seconds since the epoch, the same for every process)."""
        wait, at = await self._reserve(
            keys=[self.key], args=[self.pace.interval_us, self.pace.allowance_us, MAX_AHEAD_US]
        )
        return int(wait) / 1e6, int(at) / 1e6

    async def hold_off(self, seconds: float) -> None:
        await self._hold_off(keys=[self.key], args=[self.pace.hold_off_us(seconds)])

    async def ahead(self) -> float | None:
        """How far ahead of now the slots are taken, in seconds (None: none are)."""
        stored, (seconds, micros) = await self._client.get(self.key), await self._client.time()
        if stored is None:
            return None
        return (int(stored) - (int(seconds) * 1_000_000 + int(micros))) / 1e6

    async def close(self) -> None:
        await self._client.aclose()
