"""Benchmark of the tournament service on a real database: starting a 30-player double
round robin (870 games created as normal games, in one transaction) and acting on one
result in it (the standings recomputed, the result settled, the freed slot filled).

    python bench/bench_tournament_service.py [--players 30] [--starts 3] [--results 30]
                                             [--database postgresql://user@host/empty]

(`scripts/test_postgres.sh` gives a throwaway PostgreSQL in TEST_DATABASE_URL, which the
benchmark uses when `--database` is not given.)

* start: `tournaments.start` on a tournament of `--players` entrants (seeding, pairing,
  the schedule's rows, every game and its first deadline), against the reference of
  `games.bulk_insert` storing the same number of games in one transaction (the least
  storing that many games costs);
* first post: `games.set_thread` on a game waiting for its thread (the thread recorded
  and its clock started from now, its first deadline set, in one transaction), against
  the reference of recording the thread again once the clock runs (the thread alone);
* result: a game resigned, then `tournaments.game_ended` (the result settled, the
  standings recomputed from every scheduled game and returned, the freed slot offered to
  a waiting game), against the
  reference of reading the tournament's scheduled games alone; the target is a median
  under 50 ms.

It prints the medians and 95th percentiles, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.databases import on_each_database
from bench.timing import Clock, lap, ratio, report
from bot.db import BulkGame, Database, NewGame, Terms
from bot.services import GameService, PlayerRef
from bot.services.tournaments.model import MAX_GAME_CAP, Runner
from rules import Handicap

TARGET_MS = 50.0
ORGANIZER = PlayerRef(1, "Organizer")


async def a_tournament(service: GameService, clock: Clock, guild: int, players: int) -> int:
    """A double round robin in server `guild` with `players` entrants, not started."""
    await service.tournaments.set_game_cap(guild, MAX_GAME_CAP)
    created = await service.tournaments.create(
        guild_id=guild,
        channel_id=guild,
        organizer=ORGANIZER,
        may_manage=True,
        name="bench",
        format="double_round_robin",
        max_players=players,
        start_at=clock() + timedelta(days=1),
        time_control="7d",
    )
    for number in range(players):
        member = PlayerRef(guild * 1000 + number, f"P{number}")
        await service.tournaments.join(created.id, member, guild_id=guild)
    return created.id


def bulk_games(count: int, guild: int, clock: Clock) -> list[BulkGame]:
    terms = Terms(timedelta(days=7), None, "even", "27", "never", True)
    new = NewGame(
        guild, guild, ORGANIZER.user_id, ORGANIZER.user_id, terms, Handicap.EVEN.sfen, clock()
    )
    return [BulkGame(new, (), Handicap.EVEN.sfen, clock()) for _ in range(count)]


async def measure(db: Database, players: int, starts: int, results: int, seed: int) -> None:
    clock = Clock()
    service = GameService(db, clock=clock, rng=random.Random(seed))
    async with db.transaction() as tx:
        await tx.players.upsert(ORGANIZER.to_row(), clock())
    starting: list[float] = []
    storing: list[float] = []
    tournament_id, games = 0, tuple[int, ...]()
    for run in range(starts):
        guild = 10 + run
        tournament_id = await a_tournament(service, clock, guild, players)
        with lap(starting):
            change = await service.tournaments.start(
                tournament_id, Runner(ORGANIZER.user_id, True), guild_id=guild
            )
        games = change.games_created
        with lap(storing):
            async with db.transaction() as tx:
                await tx.games.bulk_insert(bulk_games(len(games), 900 + run, clock))
    print(f"{players} players, double round robin: {len(games)} games created at the start")
    floor = report("bulk_insert of as many (reference)", storing, tail=0.95)
    started = report("tournaments.start", starting, tail=0.95)
    ratio("start / reference", started, floor)

    starting_clock: list[float] = []
    recording: list[float] = []
    for game_id in games[:results]:
        with lap(starting_clock):
            await service.games.set_thread(game_id, 10**12 + game_id)
        with lap(recording):
            await service.games.set_thread(game_id, 10**12 + game_id)
        assert (await service.games.get(game_id)).deadline is not None
    floor = report("thread recorded again (reference)", recording, tail=0.95)
    first = report("first post: thread and clock", starting_clock, tail=0.95)
    ratio("first post / reference", first, floor)

    reading: list[float] = []
    acting: list[float] = []
    rng = random.Random(seed)
    for game_id in rng.sample(list(games), results):
        game = await service.games.get(game_id)
        await service.endings.resign(game_id, rng.choice((game.sente, game.gote)).user_id)
        with lap(acting):
            (change,) = await service.tournaments.game_ended(game_id)
        assert change.standings_changed and len(change.tables[0]) == players
        with lap(reading):
            async with db.read() as tx:
                await tx.tournaments.scheduled(tournament_id)
    floor = report("scheduled games read (reference)", reading, tail=0.95)
    acted = report("tournaments.game_ended", acting, tail=0.95)
    ratio("result / reference", acted, floor)
    verdict = "met" if acted * 1000 < TARGET_MS else "MISSED"
    print(f"standings update target {TARGET_MS:.0f} ms: {verdict}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--starts", type=int, default=3)
    parser.add_argument("--results", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.players, args.starts, args.results, args.seed)

    await on_each_database(run, args.database or os.environ.get("TEST_DATABASE_URL"))


if __name__ == "__main__":
    asyncio.run(main())
