"""Benchmark of the bucket of Discord's global limit: what a reservation costs in memory,
in PostgreSQL and in Redis, and how two OS processes sharing a bucket keep to its pace.

    scripts/test_postgres.sh scripts/test_redis.sh .venv/bin/python bench/bench_limiter.py
    python bench/bench_limiter.py --database postgresql://... --redis redis://... [--each 500]

The servers default to those the test scripts start (`TEST_DATABASE_URL`,
`TEST_REDIS_URL`); a kind without one is left out.

* cost: `--samples` reservations one after another (every request of every process pays
  one), median and p95, with the ratio to the in-memory bucket and PostgreSQL's to Redis's;
  then `--each` at once in one process (a bulk send: the pool's queue included).
* two processes: each asks for `--each` slots at once, at the same instant, at `--rate`
  (burst `--burst`); printed: the achieved rate, the most slots in any second on the
  server's clock (what the bucket promises: at most rate + burst) and where the requests
  would leave (each late by its answer's trip back), and the spacing of the slots.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import NAME_WIDTH, lap, percentile, ratio, report  # noqa: E402
from bot.db import open_database  # noqa: E402
from bot.db.limiters import LocalBucket, Pace, PostgresBucket, bucket_key  # noqa: E402
from tests.support.windows import most_in_window  # noqa: E402

#: Fast enough that the cost runs never wait on the pace itself.
FAST = Pace(rate=1_000_000, burst=1)


async def costs(reserve: object, samples: int, concurrent: int, name: str) -> tuple[float, float]:
    """(median one at a time, median at once)."""
    assert callable(reserve)
    await reserve()  # connect first
    alone: list[float] = []
    for _ in range(samples):
        with lap(alone):
            await reserve()
    median = report(f"{name}: one at a time", alone, tail=0.95)
    together: list[float] = []

    async def one() -> None:
        with lap(together):
            await reserve()

    started = time.perf_counter()
    await asyncio.gather(*(one() for _ in range(concurrent)))
    elapsed = time.perf_counter() - started
    report(f"{name}: {concurrent} at once", together, tail=0.95)
    print(f"{'':<{NAME_WIDTH}} {concurrent / elapsed:,.0f} reservations a second")
    return median, statistics.median(together)


async def two_processes(kind: str, url: str, pace: Pace, each: int) -> None:
    key = bucket_key(f"bench-{kind}-{os.getpid()}-{time.monotonic_ns()}")
    start = time.time() + 2.0
    command = [sys.executable, "-m", "tests.support.limiter_process", kind, url, key]
    command += [str(pace.rate), str(pace.burst), str(each), str(start)]
    env = os.environ | {"PYTHONPATH": os.pathsep.join(path for path in sys.path if path)}
    children = [
        await asyncio.create_subprocess_exec(
            *command, cwd=ROOT, stdout=asyncio.subprocess.PIPE, env=env
        )
        for _ in range(2)
    ]
    outputs = [json.loads((await child.communicate())[0]) for child in children]
    slots = sorted(at for out in outputs for at in out["slots"])
    sent = sorted(at for out in outputs for at in out["sent"])
    gaps = [b - a for a, b in zip(slots[pace.burst :], slots[pace.burst + 1 :], strict=False)]
    span = sent[-1] - sent[0]
    achieved = (len(sent) - pace.burst) / span
    print(
        f"{kind + ': 2 processes x ' + str(each):<{NAME_WIDTH}} "
        f"achieved {achieved:6.2f}/s (pace {pace.rate:g}/s, burst {pace.burst})   "
        f"{len(sent)} slots in {span:.2f} s"
    )
    print(
        f"{'':<{NAME_WIDTH}} most in any second: {most_in_window(slots)} on the server's "
        f"clock, {most_in_window(sent)} where they leave (limit {pace.rate + pace.burst:g})"
    )
    print(
        f"{'':<{NAME_WIDTH}} spacing of the slots after the burst: median "
        f"{statistics.median(gaps) * 1000:.3f} ms, min {min(gaps) * 1000:.3f} ms, "
        f"p95 {percentile(gaps, 0.95) * 1000:.3f} ms (interval {1000 / pace.rate:.3f} ms)"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", default=os.environ.get("TEST_DATABASE_URL"))
    parser.add_argument("--redis", default=os.environ.get("TEST_REDIS_URL"))
    parser.add_argument("--samples", type=int, default=2_000)
    parser.add_argument("--each", type=int, default=500)
    parser.add_argument("--rate", type=float, default=45.0)
    parser.add_argument("--burst", type=int, default=5)
    args = parser.parse_args()
    pace = Pace(args.rate, args.burst)
    print(f"== cost of a reservation ({os.cpu_count()} cores)")
    local = LocalBucket(FAST)
    reference, _ = await costs(local.reserve, args.samples, args.each, "in memory")
    medians: dict[str, float] = {}
    if args.database:
        database = await open_database(args.database)
        try:
            bucket = PostgresBucket(database, bucket_key(f"bench-{time.time_ns()}"), FAST)
            medians["postgresql"], _ = await costs(
                bucket.reserve, args.samples, args.each, "postgresql"
            )
            ratio("postgresql / in memory", medians["postgresql"], reference)
        finally:
            await database.close()
    if args.redis:
        from bot.db.redis_limiter import RedisBucket

        redis_bucket = RedisBucket.connect(args.redis, bucket_key(f"bench-{time.time_ns()}"), FAST)
        try:
            medians["redis"], _ = await costs(
                redis_bucket.reserve, args.samples, args.each, "redis"
            )
            ratio("redis / in memory", medians["redis"], reference)
        finally:
            await redis_bucket.close()
    if len(medians) == 2:
        ratio("postgresql / redis", medians["postgresql"], medians["redis"])
    print("== two OS processes sharing one bucket")
    if args.database:
        await two_processes("postgresql", args.database, pace, args.each)
    if args.redis:
        await two_processes("redis", args.redis, pace, args.each)
    if not (args.database or args.redis):
        print("no server: give --database and/or --redis, or run under the test scripts")


if __name__ == "__main__":
    asyncio.run(main())
