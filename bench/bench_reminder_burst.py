"""Benchmark: 10,000 reminders falling due at once across two shard processes on one
PostgreSQL, sent through the fake Discord, which enforces Discord's global limit (50
requests a second per bot token, whichever process sends them).

    scripts/test_postgres.sh bash -c \\
        '.venv/bin/python bench/bench_reminder_burst.py --database "$TEST_DATABASE_URL"'
    [--reminders 10000] [--moves 20] [--shared on|off] [--outbox-rate 30] [--rate R] [--burst B]

The scene is `tests/support/burst.py`'s: two servers, one per shard, the reminders'
games bulk-loaded across their channels, both processes woken at once by their clock.
It prints whether every reminder was posted exactly once, the 429s the fake answered
(global, per route), the time from the first reminder to the last against the floor the
limit sets (reminders / 50 a second, and / the bot's own `RATE_LIMIT_PER_SECOND`), and the
`/move` answers in a game of each server played before the burst and during it (median,
p99, and the ratio of the medians).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import ratio, report
from bot.db.limiters import Pace
from tests.fakediscord import FakeDiscord
from tests.support.burst import BurstScene
from tests.support.postgres import fresh_schema

DISCORD_LIMIT = 50.0


async def run(database: str, reminders: int, moves: int, environment: dict[str, str]) -> int:
    fake = FakeDiscord(default_timeout=120.0)
    await fake.start()
    try:
        async with fresh_schema(database) as schema:
            with tempfile.TemporaryDirectory() as folder:
                scene = BurstScene(fake, Path(folder), schema)
                try:
                    await scene.start(environment)
                    expected = await scene.load(reminders)
                    timeout = 3 * reminders / DISCORD_LIMIT + 120
                    burst = await scene.burst(expected, quiet_moves=moves, timeout=timeout)
                finally:
                    troubles = await scene.stop()
                errors = scene.errors_logged()
    finally:
        await fake.stop()
    once = sum(1 for game in expected if burst.posted[game] == 1)
    twice = sum(1 for n in burst.posted.values() if n > 1)
    print(f"reminders: {reminders} due, {once} posted exactly once, {twice} more than once,")
    print(f"  {len(expected - set(burst.posted))} never posted")
    print(f"429 answers: {burst.global_429s} global, {burst.route_429s} per route")
    rate = float(environment.get("RATE_LIMIT_PER_SECOND", Pace().rate))
    achieved = reminders / burst.seconds
    print(f"first to last reminder: {burst.seconds:.1f} s, {achieved:.1f} a second")
    for name, limit in (("Discord's limit", DISCORD_LIMIT), ("the bot's pace", rate)):
        floor = reminders / limit
        print(f"  against {name} ({limit:g}/s, {floor:.0f} s): {burst.seconds / floor:.3f}x")
    quiet = report("/move answer before the burst", burst.quiet_answers)
    during = report("/move answer during the burst", burst.burst_answers)
    ratio("during / before (medians)", during, quiet)
    for line in troubles + errors[:3]:
        print(line)
    return 0 if once == reminders and not troubles and not errors else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--database", required=True, help="a PostgreSQL server's address")
    parser.add_argument("--reminders", type=int, default=10_000)
    parser.add_argument("--moves", type=int, default=20, help="moves timed before the burst")
    parser.add_argument("--shared", choices=("on", "off"), default="on")
    parser.add_argument("--outbox-rate", default="30")
    parser.add_argument("--rate", help="RATE_LIMIT_PER_SECOND (default: the bot's)")
    parser.add_argument("--burst", help="RATE_LIMIT_BURST (default: the bot's)")
    args = parser.parse_args()
    environment = {"RATE_LIMIT_SHARED": args.shared, "OUTBOX_RATE": args.outbox_rate}
    if args.rate is not None:
        environment["RATE_LIMIT_PER_SECOND"] = args.rate
    if args.burst is not None:
        environment["RATE_LIMIT_BURST"] = args.burst
    return asyncio.run(run(args.database, args.reminders, args.moves, environment))


if __name__ == "__main__":
    sys.exit(main())
