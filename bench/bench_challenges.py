"""Benchmark of posting a challenge to anyone, which counts its author's open ones first.

    python bench/bench_challenges.py [--challenges 5000] [--samples 500] [--seed 1]
                                     [--database postgresql://user@host/empty_database]

A database is filled through the service with `--challenges` challenges by 400 members
(to anyone and to a named member; a third of them cancelled, a third accepted). Then each
sample posts one challenge through the service and cancels it again (untimed), alternating
between a challenge to anyone (the author's lock, the count of their open challenges,
the insert) and, as the reference measured in the same run, a challenge to a named member
(the check for an open one between the pair, the insert). It prints the median and 99th
percentile of each and the ratio of the medians: what the limit costs a challenge.
With `--database`, the same runs next on that (empty) PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.databases import challenge_bench
from bench.timing import lap, report
from bot.db import Database
from bot.services import MAX_OPEN_CHALLENGES, Budgets, GameService, PlayerRef
from bot.services.budgets import LARGEST

MEMBERS = [PlayerRef(10_000 + n, f"member{n}") for n in range(400)]
GUILD = 1
CHANNEL = 2


async def fill(service: GameService, count: int, rng: random.Random) -> None:
    """`count` challenges, each kept open, cancelled or accepted; nobody over the limit."""
    started = time.perf_counter()
    open_to_anyone = dict.fromkeys((m.user_id for m in MEMBERS), 0)
    for _ in range(count):
        author, other = rng.sample(MEMBERS, 2)
        fate = rng.choice(("open", "cancel", "accept"))
        if open_to_anyone[author.user_id] < MAX_OPEN_CHALLENGES - 1 and rng.random() < 0.5:
            offered = await service.challenges.offer(
                guild_id=GUILD, channel_id=CHANNEL, challenger=author
            )
            open_to_anyone[author.user_id] += fate == "open"
            taker: PlayerRef | int = other
        else:
            offered = await service.challenges.offer(
                guild_id=GUILD, channel_id=CHANNEL, challenger=author, opponent=other
            )
            fate = "accept" if fate == "open" else fate  # one open per pair at most
            taker = other.user_id
        if fate == "cancel":
            await service.challenges.cancel(offered.id, author.user_id)
        elif fate == "accept":
            await service.challenges.accept(offered.id, taker)
    print(f"stored {count:,} challenges in {time.perf_counter() - started:.1f} s")


async def measure(db: Database, count: int, samples: int, seed: int) -> None:
    rng = random.Random(seed)
    # Random pairs meet again now and then within the hour: no budget on challenges sent
    # one member stops the filling (its cost is bench_budgets' to measure).
    budgets = Budgets(challenges_to_one_member=LARGEST)
    service = GameService(
        db, clock=lambda: datetime.now(UTC), rng=random.Random(seed), budgets=budgets
    )
    await fill(service, count, rng)
    timings: dict[str, list[float]] = {"to anyone": [], "to a member (reference)": []}
    for _ in range(samples):
        author, other = rng.sample(MEMBERS, 2)
        for kind, opponent in (("to anyone", None), ("to a member (reference)", other)):
            with lap(timings[kind]):
                offered = await service.challenges.offer(
                    guild_id=GUILD, channel_id=CHANNEL, challenger=author, opponent=opponent
                )
            await service.challenges.cancel(offered.id, author.user_id)
    anyone, member = (report(f"offer {kind}", taken) for kind, taken in timings.items())
    print(f"to anyone / to a member (medians): {anyone / member:.2f}x")


async def main() -> None:
    await challenge_bench(measure, description=__doc__.split("\n")[0], samples=500)


if __name__ == "__main__":
    asyncio.run(main())
