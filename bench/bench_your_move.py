"""Benchmark of "your move": the list `/next`, its Next button and the digest read, and one
look of the digests' task.

    python bench/bench_your_move.py [--many 2000] [--subscribers 1000] [--samples 200]
                                    [--database postgresql://user@host/empty_database]

`Games.to_move` returns at most 25 games, ordered by deadline in the database: it prints
its median for a player with 10 games to move and for one with `--many`, and the ratio
(what a member with a great many games costs over a usual one). Then the digests' task
looks once with `--subscribers` players having chosen a digest, none of them due (what
every wake-up of the task costs), against one look with a single subscriber.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.databases import on_each_database
from bench.timing import Clock, lap, ratio, report
from bot.db import BulkGame, Database, DeadlineRow, NewGame, PlayerRow, PreferencesRow, Terms
from bot.services import Digest, GameService
from rules import Handicap

FEW, OPPONENT = 10, 9_999_999
FEW_PLAYER, MANY_PLAYER = 1, 2


def game_to_move(player: int, clock: Clock, n: int) -> BulkGame:
    """A game at its start where `player` (sente) is to move, due in `n` hours."""
    new = NewGame(
        guild_id=1,
        channel_id=1,
        sente_id=player,
        gote_id=OPPONENT,
        terms=Terms(
            bank=timedelta(), period=timedelta(days=30), handicap="even", impasse_rule="27"
        ),
        start_sfen=Handicap.EVEN.sfen,
        started_at=clock.now,
    )
    due = clock.now + timedelta(hours=n + 1)
    deadline = DeadlineRow(0, player, due, due - timedelta(hours=1))
    return BulkGame(new, (), Handicap.EVEN.sfen, clock.now, deadline=deadline)


async def measure(db: Database, many: int, subscribers: int, samples: int) -> None:
    clock = Clock()
    service = GameService(db, clock=clock)
    async with db.transaction() as tx:
        for user in (FEW_PLAYER, MANY_PLAYER, OPPONENT):
            await tx.players.upsert(PlayerRow(user, f"p{user}", False), clock.now)
        await tx.games.bulk_insert([game_to_move(FEW_PLAYER, clock, n) for n in range(FEW)])
        await tx.games.bulk_insert([game_to_move(MANY_PLAYER, clock, n) for n in range(many)])
    medians = {}
    for player, label in ((FEW_PLAYER, f"{FEW}"), (MANY_PLAYER, f"{many}")):
        times: list[float] = []
        for _ in range(samples):
            with lap(times):
                listed = await service.games.to_move(player)
        assert len(listed.games) == min(25, FEW if player == FEW_PLAYER else many)
        medians[player] = report(f"to_move, {label} games", times)
    ratio(f"{many} / {FEW} games", medians[MANY_PLAYER], medians[FEW_PLAYER])

    async def nobody(digest: Digest) -> None:
        raise AssertionError("no digest is due")

    service.digests.deliver_with(nobody, None)
    looks = {}
    for count in (1, subscribers):
        async with db.transaction() as tx:
            for user in range(100, 100 + count):
                row = PreferencesRow(user, notifications="digest", time_zone="Asia/Tokyo")
                await tx.preferences.set(row, clock.now)
        times = []
        for _ in range(max(samples // 10, 5)):
            with lap(times):
                await service.digests.check()
        looks[count] = report(f"digests' look, {count} subscribers", times)
    ratio(f"{subscribers} / 1 subscribers", looks[subscribers], looks[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--many", type=int, default=2_000)
    parser.add_argument("--subscribers", type=int, default=1_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--database", metavar="URL", help="also measure on this PostgreSQL")
    args = parser.parse_args()

    async def run(db: Database) -> None:
        await measure(db, args.many, args.subscribers, args.samples)

    asyncio.run(on_each_database(run, args.database))


if __name__ == "__main__":
    main()
