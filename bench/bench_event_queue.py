"""Benchmark of the queue of event games waiting for their threads on a real database: the
opener's read of the next batch (`tournaments.awaiting_first_post`), which lists the games of
running tournaments and of team matches under way that have no thread, the servers in
turn (a window over every waiting game), with a backlog of several servers' starts.

    python bench/bench_event_queue.py [--servers 6] [--players 30] [--reads 30]
                                      [--database postgresql://user@host/empty]

(`scripts/test_postgres.sh` gives a throwaway PostgreSQL in TEST_DATABASE_URL, which the
benchmark uses when `--database` is not given.)

`--servers` servers each start a double round robin of `--players` (870 games for 30, all
created at once under the largest cap) and set up a 64-against-64 team match (128
games): every game waits for its thread. Timed, against the reference of reading one
tournament's scheduled games (what acting on every result reads already):

* `awaiting_first_post(50)`: the opener's batch, the servers in turn;
* `awaiting_first_post(50)` skipping every server but one (the others at their cap).

The opener reads a batch once every 50 games opened, about once a minute; it prints the
medians and 95th percentiles, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_tournament_service import ORGANIZER, a_tournament
from bench.databases import on_each_database
from bench.timing import Clock, lap, ratio, report
from bot.db import Database
from bot.services import GameService, PlayerRef
from bot.services.tournaments.model import Runner
from bot.services.tournaments.teams import MAX_TEAM

BATCH = 50


async def backlog(service: GameService, clock: Clock, servers: int, players: int) -> list[int]:
    """Every server's tournament started and team match set up, no thread opened: the
    servers, and one tournament's id for the reference."""
    tournament_id = 0
    guilds = []
    for number in range(servers):
        guild = (number + 1) << 22
        guilds.append(guild)
        tournament_id = await a_tournament(service, clock, guild, players)
        await service.tournaments.start(
            tournament_id, Runner(ORGANIZER.user_id, True), guild_id=guild
        )
        teams = [
            [PlayerRef(guild + side * 1000 + n, f"T{side}.{n}") for n in range(MAX_TEAM)]
            for side in (1, 2)
        ]
        await service.team_matches.create(
            guild_id=guild,
            channel_id=guild,
            organizer=ORGANIZER,
            may_manage=True,
            first_team="East",
            second_team="West",
            first=teams[0],
            second=teams[1],
        )
    return [tournament_id, *guilds]


async def measure(db: Database, servers: int, players: int, reads: int, seed: int) -> None:
    clock = Clock()
    service = GameService(db, clock=clock, rng=random.Random(seed))
    async with db.transaction() as tx:
        await tx.players.upsert(ORGANIZER.to_row(), clock())
    tournament_id, *guilds = await backlog(service, clock, servers, players)
    waiting = await service.tournaments.awaiting_first_post(100_000)
    print(f"{servers} servers, {len(waiting)} event games waiting for their threads")
    assert len({guild for _, guild in waiting[:servers]}) == servers  # in turn

    reading: list[float] = []
    batch: list[float] = []
    alone: list[float] = []
    for _ in range(reads):
        with lap(reading):
            async with db.read() as tx:
                await tx.tournaments.scheduled(tournament_id)
        with lap(batch):
            found = await service.tournaments.awaiting_first_post(BATCH)
        assert len(found) == BATCH
        with lap(alone):
            one = await service.tournaments.awaiting_first_post(BATCH, skip_guilds=guilds[1:])
        assert {guild for _, guild in one} == {guilds[0]}
    floor = report("scheduled games read (reference)", reading, tail=0.95)
    turns = report("awaiting_first_post(50), in turn", batch, tail=0.95)
    ratio("batch / reference", turns, floor)
    skipped = report("awaiting_first_post(50), others capped", alone, tail=0.95)
    ratio("skipping / reference", skipped, floor)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--servers", type=int, default=6)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--reads", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.servers, args.players, args.reads, args.seed)

    await on_each_database(run, args.database or os.environ.get("TEST_DATABASE_URL"))


if __name__ == "__main__":
    asyncio.run(main())
