"""The shared bucket of Discord's global limit in PostgreSQL: one statement per request.

Why one statement: every REST request of every process passes it, so it must cost one
round trip and hold the bucket's row only for that statement (no transaction around it).
The time is the server's (`clock_timestamp()`), so the processes need no synced clocks:
what they get back is a duration. PostgreSQL only (SQLite's bot is one process and keeps
its bucket in memory); see `bot.db.limiters` for the algorithm.
"""

from __future__ import annotations

from typing import NamedTuple

from .base import Repository


class Slot(NamedTuple):
    """A slot taken: the microseconds to wait for it, and when it is on the server's
    clock (microseconds since the epoch), which the processes share."""

    wait_us: int
    at_us: int


#: The server's clock now, in microseconds since the epoch (the same as every process sees).
_NOW_US = "(extract(epoch FROM clock_timestamp()) * 1000000)::bigint"


class RateLimitRepository(Repository):
    async def reserve(
        self, bucket: str, interval_us: int, allowance_us: int, max_ahead_us: int
    ) -> Slot:
        """Take the bucket's next slot: its theoretical arrival time moves to
        max(itself, now) + `interval_us`; the microseconds to wait before sending are
        how far that lies beyond now + `allowance_us` (0 when the burst allows it now).
        An arrival time more than `max_ahead_us` ahead is taken as now (the server's clock
        went back). A bucket seen for the first time is created by the same statement."""
        row = await self._one(
            f"WITH clock AS (SELECT {_NOW_US} AS now)"
            " INSERT INTO rate_limits (bucket, tat) SELECT ?, now + ? FROM clock"
            " ON CONFLICT (bucket) DO UPDATE SET tat = CASE"
            " WHEN rate_limits.tat > EXCLUDED.tat + ? THEN EXCLUDED.tat"
            " ELSE GREATEST(rate_limits.tat + ?, EXCLUDED.tat) END"
            " RETURNING rate_limits.tat - ?, (SELECT now FROM clock)",
            (bucket, interval_us, max_ahead_us, interval_us, allowance_us),
        )
        assert row is not None
        at, now = int(row[0]), int(row[1])
        slot = max(at, now)
        return Slot(slot - now, slot)

    async def hold_off(self, bucket: str, delay_us: int) -> None:
        """Make every slot taken from now on wait at least `delay_us` (Discord answered a
        global 429 asking for that): the arrival time moves to at least now + `delay_us`
        (`bot.db.limiters.Pace.hold_off_us` adds the burst's allowance)."""
        await self._write(
            f"WITH clock AS (SELECT {_NOW_US} AS now)"
            " INSERT INTO rate_limits (bucket, tat) SELECT ?, now + ? FROM clock"
            " ON CONFLICT (bucket) DO UPDATE SET tat = GREATEST(rate_limits.tat, EXCLUDED.tat)",
            (bucket, delay_us),
        )

    async def arrival_us(self, bucket: str) -> int | None:
        """The bucket's theoretical arrival time minus the server's now, in microseconds
        (None for a bucket never used): how far ahead its slots are taken."""
        row = await self._one(
            f"SELECT tat - {_NOW_US} FROM rate_limits WHERE bucket = ?", (bucket,)
        )
        return None if row is None else int(row[0])
