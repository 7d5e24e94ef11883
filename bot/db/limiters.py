"""Discord's global limit, kept by every process of the bot together: `GlobalLimiter`.

Discord lets a bot token make 50 REST requests a second across all of its processes
(interaction responses exempt); discord.py only reacts to a 429 with the global flag, in
one process. A limiter here is asked before each request for the time to wait.

The algorithm is GCRA, "reserve a slot": a bucket is one number, its theoretical arrival
time (tat). A request moves it to max(tat, now) + 1/rate and waits until
tat - burst/rate: an idle bucket lets `burst` requests go at once, then one every 1/rate,
so no second ever holds more than rate + burst of them. Each request takes its slot in
one atomic step and is never refused: the slots are handed out in the order asked for
(first come, first served), and a request waits exactly for the slots taken before it,
however many a bulk sender takes after it.

Three buckets: `LocalBucket` (in memory, for one process: the SQLite bot),
`PostgresBucket` (a row of the database the processes share, one statement a request,
the server's clock) and `bot.db.redis_limiter.RedisBucket` (a Lua script in Redis, its
clock). A global 429 that arrives anyway (another program on the same token, a limit
lower than configured) pushes the bucket's tat so every process holds off for the time
Discord asked (`hold_off`).
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from .database import Database

#: Discord's own global limit, per bot token, for reference (the default stays under it).
DISCORD_RATE = 50.0
#: The default leaves two requests of every second free below Discord's 50: a process the
#: machine wakes late sends the requests whose slots passed at once, and they then arrive
#: closer together than their slots.
DEFAULT_RATE = 46.0
DEFAULT_BURST = 2
#: How far ahead of the shared clock a bucket's slots may be taken: a bucket further ahead
#: means that clock went back (a server's clock set back), and is taken as idle rather than
#: holding every request of every process for as long. No queue of requests (each times
#: out after five minutes) nor any hold-off (`MAX_HOLD_OFF`) reaches it.
MAX_AHEAD_US = 600_000_000
#: The longest hold-off a global 429 may ask for and be obeyed by every process, seconds.
MAX_HOLD_OFF = 300.0


@dataclass(frozen=True, slots=True)
class Pace:
    """How fast requests may go: `rate` a second on average, `burst` of them at once.

    Pace(46, 2).interval_us  # 21739: a slot every 22 ms after the first two
    """

    rate: float = DEFAULT_RATE
    burst: int = DEFAULT_BURST

    def __post_init__(self) -> None:
        if not self.rate > 0 or self.burst < 1:
            raise ValueError("a pace needs a positive rate and a burst of 1 or more")

    @property
    def interval_us(self) -> int:
        """Microseconds between two slots."""
        return max(1, round(1_000_000 / self.rate))

    @property
    def allowance_us(self) -> int:
        """How far ahead of now the tat may lie without a wait: `burst` intervals."""
        return self.burst * self.interval_us

    def hold_off_us(self, seconds: float) -> int:
        """The tat, after now, that makes the next slot wait `seconds`."""
        return round(seconds * 1_000_000) + self.allowance_us - self.interval_us


def bucket_key(token: str) -> str:
    """The bucket's name for a bot token: a hash (Discord's limit is per token, and the
    token itself must never be written anywhere)."""
    return "discord:" + hashlib.sha256(token.encode()).hexdigest()[:32]


class GlobalLimiter(Protocol):
    """What the HTTP hook asks before each global-limited request."""

    #: A name for logs and metrics: "local", "postgresql" or "redis".
    kind: str

    async def reserve(self) -> float:
        """Take the next slot: the seconds to wait before sending (0: send now)."""
        ...

    async def hold_off(self, seconds: float) -> None:
        """Discord answered a global 429 asking to wait `seconds`: no slot taken from now
        on, by any process sharing the bucket, goes before that."""
        ...

    async def close(self) -> None: ...


class LocalBucket:
    """The bucket in this process's memory (monotonic clock): enough for one process.
    `reserve` does not await, so it is atomic on the event loop."""

    kind = "local"

    def __init__(self, pace: Pace, clock: Callable[[], float] = time.monotonic) -> None:
        self.pace = pace
        self._clock = clock
        self._tat_us = 0

    def _now_us(self) -> int:
        return round(self._clock() * 1_000_000)

    def reserve_now(self) -> float:
        """Take the next slot: the seconds to wait for it."""
        now = self._now_us()
        return (self._take(now) - now) / 1e6

    def reserve_due(self) -> float:
        """Take the next slot: when it is, on the bucket's clock (seconds). Sleeping until
        then rather than for a wait keeps the slots in order even when the process is held
        up between taking a slot and starting to sleep (a busy machine)."""
        return self._take(self._now_us()) / 1e6

    def _take(self, now: int) -> int:
        self._tat_us = max(self._tat_us + self.pace.interval_us, now + self.pace.interval_us)
        return max(self._tat_us - self.pace.allowance_us, now)

    async def reserve(self) -> float:
        return self.reserve_now()

    async def hold_off(self, seconds: float) -> None:
        self._tat_us = max(self._tat_us, self._now_us() + self.pace.hold_off_us(seconds))

    async def close(self) -> None:
        pass


class PostgresBucket:
    """The bucket in a row of the PostgreSQL database the processes share (one statement
    per request through the bot's pool, no transaction; see `bot.db.rate_limits`).

    At most `IN_FLIGHT` reservations of a process run at once, the others waiting in
    turn (asyncio's semaphore is first come, first served): a bulk send of hundreds of
    posts would otherwise take every connection of the pool and keep a member's move
    waiting for one, while all its reservations queue on the bucket's row anyway."""

    kind = "postgresql"
    IN_FLIGHT = 2

    def __init__(self, database: Database, key: str, pace: Pace) -> None:
        if database.backend != "postgresql":
            raise ValueError("the shared bucket needs PostgreSQL (SQLite's bot is one process)")
        self.database = database
        self.key = key
        self.pace = pace
        self._in_flight = asyncio.Semaphore(self.IN_FLIGHT)

    async def reserve(self) -> float:
        return (await self.slot())[0]

    async def slot(self) -> tuple[float, float]:
        """Take the next slot: the seconds to wait, and when the slot is on the server's
        clock (seconds since the epoch, the same for every process)."""
        async with self._in_flight, self.database.query() as q:
            taken = await q.rate_limits.reserve(
                self.key, self.pace.interval_us, self.pace.allowance_us, MAX_AHEAD_US
            )
        return taken.wait_us / 1e6, taken.at_us / 1e6

    async def hold_off(self, seconds: float) -> None:
        async with self.database.query() as q:
            await q.rate_limits.hold_off(self.key, self.pace.hold_off_us(seconds))

    async def ahead(self) -> float | None:
        """How far ahead of now the slots are taken, in seconds (None: never used)."""
        async with self.database.query() as q:
            ahead = await q.rate_limits.arrival_us(self.key)
        return None if ahead is None else ahead / 1e6

    async def close(self) -> None:
        """Nothing: the pool is the bot's."""
