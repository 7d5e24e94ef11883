"""Benchmark of what a `tournament` option's suggestions read, on a real database: a
server's newest tournaments in three states (`tournaments.latest`, what
`/tournament_standings` suggests as a member types), on a server with `--tournaments`
of them (finished but every tenth, cancelled) against the reference of a server with as
many as one suggestion's window reads (`SUGGESTION_WINDOW` a state), in the same run.

    python bench/bench_tournament_suggestions.py [--tournaments 10000] [--samples 200]
                                                  [--database postgresql://user@host/empty]

(`scripts/test_postgres.sh` gives a throwaway PostgreSQL in TEST_DATABASE_URL, which the
benchmark uses when `--database` is not given.)

A read stopped at its limit along the index costs the same on both servers: the ratio
stays near 1 however many tournaments a hostile server makes. For comparison it also
times reading every tournament of the large server (`in_server`, what a profile and a
standings without a number read before), whose cost grows with them.

It prints the medians and 99th percentiles, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.databases import on_each_database
from bench.timing import Clock, lap, ratio, report
from bot.db import Database
from bot.services import GameService, PlayerRef
from bot.services.tournaments.model import State
from bot.ui.tournament_options import SUGGESTION_WINDOW

ORGANIZER = PlayerRef(1, "Organizer")
STATES = (State.REGISTRATION, State.RUNNING, State.FINISHED)


async def a_server(service: GameService, clock: Clock, guild: int, count: int) -> None:
    """`count` tournaments in server `guild`: all finished but every tenth, cancelled."""
    first = await service.tournaments.create(
        guild_id=guild,
        channel_id=guild,
        organizer=ORGANIZER,
        may_manage=True,
        name="Cup 0",
        format="round_robin",
        start_at=clock() + timedelta(days=1),
    )
    async with service.store.db.transaction() as tx:
        for n in range(1, count):
            made = await tx.tournaments.create(replace(first.row.setup, name=f"Cup {n}"))
            if n % 10 == 0:
                await tx.tournaments.change_state(made, "registration", "cancelled", clock())
                continue
            await tx.tournaments.change_state(made, "registration", "running", clock())
            await tx.tournaments.change_state(made, "running", "finished", clock())


async def measure(db: Database, count: int, samples: int, seed: int) -> None:
    clock = Clock()
    service = GameService(db, clock=clock, rng=random.Random(seed))
    async with db.transaction() as tx:
        await tx.players.upsert(ORGANIZER.to_row(), clock())
    large, small = 1, 2
    await a_server(service, clock, large, count)
    await a_server(service, clock, small, SUGGESTION_WINDOW)
    times: dict[str, list[float]] = {"large": [], "small": [], "all": []}
    for _ in range(samples):
        for name, guild in (("large", large), ("small", small)):
            with lap(times[name]):
                await service.tournaments.latest(guild, STATES, limit=SUGGESTION_WINDOW)
    for _ in range(max(samples // 10, 5)):
        with lap(times["all"]):
            await service.tournaments.in_server(large, list(State))
    reference = report(f"latest, {SUGGESTION_WINDOW} tournaments", times["small"])
    measured = report(f"latest, {count:,} tournaments", times["large"])
    ratio(f"{count:,} / {SUGGESTION_WINDOW}", measured, reference)
    everything = report(f"in_server, {count:,} tournaments", times["all"])
    ratio(f"every tournament / latest on {count:,}", everything, measured)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.tournaments, args.samples, args.seed)

    asyncio.run(on_each_database(run, args.database or os.environ.get("TEST_DATABASE_URL")))


if __name__ == "__main__":
    main()
