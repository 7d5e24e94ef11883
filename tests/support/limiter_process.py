"""One OS process taking slots of a shared bucket of Discord's global limit, for the tests
and the benchmark that check two processes together keep to it:

    python -m tests.support.limiter_process KIND URL KEY RATE BURST COUNT START

KIND is `postgresql` or `redis`, URL the server's address, COUNT the slots to take, all
asked for at once at the wall-clock time START (so that two processes begin together).
Prints one JSON object: `slots`, the times of the slots taken on the server's clock (what
the bucket promises), `sent`, the wall-clock times each request would leave (when its slot
was answered plus the wait: late by however long the answer took to come back), and
`costs`, the seconds each reservation took.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

from bot.db import Database, open_database
from bot.db.limiters import Pace, PostgresBucket
from bot.db.redis_limiter import RedisBucket


async def bucket(
    kind: str, url: str, key: str, pace: Pace
) -> tuple[PostgresBucket | RedisBucket, Database | None]:
    if kind == "postgresql":
        database = await open_database(url)
        return PostgresBucket(database, key, pace), database
    return RedisBucket.connect(url, key, pace), None


async def take(kind: str, url: str, key: str, pace: Pace, count: int, start: float) -> None:
    limiter, database = await bucket(kind, url, key, pace)
    await limiter.reserve()  # connect (and warm up) before the start: not counted
    slots: list[float] = []
    sent: list[float] = []
    costs: list[float] = []

    async def one() -> None:
        asked = time.perf_counter()
        wait, at = await limiter.slot()
        answered = time.time()
        costs.append(time.perf_counter() - asked)
        slots.append(at)
        sent.append(answered + wait)

    await asyncio.sleep(max(0.0, start - time.time()))
    await asyncio.gather(*(one() for _ in range(count)))
    await limiter.close()
    if database is not None:
        await database.close()
    print(json.dumps({"slots": slots, "sent": sent, "costs": costs}))


def main(argv: list[str]) -> None:
    kind, url, key, rate, burst, count, start = argv
    pace = Pace(float(rate), int(burst))
    asyncio.run(take(kind, url, key, pace, int(count), float(start)))


if __name__ == "__main__":
    main(sys.argv[1:])
