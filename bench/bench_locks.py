"""Benchmark of what the locks on PostgreSQL cost the writes that take them.

    python bench/bench_locks.py --database postgresql://user@host/database [--samples 500]

On PostgreSQL (a fresh schema of its own in that database, dropped at the end):

* note: a note added through the service, counted under the lock on the author's notes
  on the game, against the reference measured in the same run: the same count and
  insert in one transaction without the lock (what a note cost before the lock);
* forecast line: a line added through the service, which holds the game's row first
  (`games.hold`, `SELECT ... FOR UPDATE`), against the same add with the hold left out;
* ending: a rated resignation through the service, which takes its server's ratings
  lock shared and its players' locks, against an unrated one (the same ending with no
  rating at all).

Samples are interleaved, so both sides of each ratio see the same machine. It prints
the median and 95th percentile of each, and the ratios.
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

import asyncpg

from bench.timing import Clock, lap, ratio, report
from bot.db import Session, open_database
from bot.db.games import GameRepository
from bot.services import GameService, PlayerRef
from bot.services.play.forecasts import MAX_LINES
from bot.services.play.notes import MAX_NOTES

GUILD = 1
MEMBERS = [PlayerRef(100 + i, f"Member {i}") for i in range(20)]
SCHEMA = f"bench_locks_{os.getpid()}"


async def game(service: GameService, rng: random.Random, *, rated: bool) -> tuple[int, int]:
    """A new game between two members; its id and one of its players."""
    a, b = rng.sample(MEMBERS, 2)
    challenge = await service.challenges.offer(
        guild_id=GUILD, channel_id=1, challenger=a, opponent=b, rated=rated
    )
    started = await service.challenges.accept(challenge.id, b.user_id)
    return started.id, rng.choice([a, b]).user_id


async def unlocked_note(service: GameService, game_id: int, author: int) -> int | None:
    """A note as `Notes.add` stored it before the lock: the game loaded, then the count and
    the insert in one transaction."""
    game = await service.store.current(game_id)
    now = service.store.now()

    async def store(tx: Session) -> int | None:
        if await tx.notes.count(game.id, author) >= MAX_NOTES:
            return None
        return await tx.notes.add(game.id, author, game.ply, "a thought", now)

    return await service.store.db.run(store)


async def notes(service: GameService, samples: int, rng: random.Random) -> None:
    locked: list[float] = []
    plain: list[float] = []
    game_id, author = await game(service, rng, rated=False)
    for index in range(samples * 2):
        if index % (MAX_NOTES - 1) == 0:  # room for the next notes
            game_id, author = await game(service, rng, rated=False)
        if index % 2 == 0:
            with lap(locked):
                await service.notes.add(game_id, author, "a thought")
        else:
            with lap(plain):
                await unlocked_note(service, game_id, author)
    reference = report("note, count and insert (reference)", plain, tail=0.95)
    measured = report("note, locked, counted and inserted", locked, tail=0.95)
    ratio("locked / reference", measured, reference)


async def _unheld(self: GameRepository, game_id: int) -> bool:
    """`GameRepository.hold` left out: no statement at all."""
    return True


async def forecasts(service: GameService, samples: int, rng: random.Random) -> None:
    held: list[float] = []
    plain: list[float] = []
    hold = GameRepository.hold
    lines: list[str] = []
    game_id = waiting = 0
    for index in range(samples * 2):
        if not lines:  # a game where the waiting player has room for MAX_LINES lines
            game_id, _ = await game(service, rng, rated=False)
            view = await service.games.get(game_id)
            assert view.to_move is not None
            after = await service.moves.play(game_id, view.to_move.user_id, "7g7f")
            waiting = after.mover.user_id
            answers = [move.usi() for move in after.game.game.position.legal_moves()]
            lines = [f"{answer} 2g2f" for answer in answers[:MAX_LINES]]
        with_hold = index % 2 == 0
        GameRepository.hold = hold if with_hold else _unheld  # type: ignore[method-assign]
        try:
            with lap(held if with_hold else plain):
                await service.forecasts.add(game_id, waiting, lines.pop())
        finally:
            GameRepository.hold = hold  # type: ignore[method-assign]
    reference = report("forecast line, no hold (reference)", plain, tail=0.95)
    measured = report("forecast line, game row held", held, tail=0.95)
    ratio("held / reference", measured, reference)


async def endings(service: GameService, clock: Clock, samples: int, rng: random.Random) -> None:
    rated: list[float] = []
    unrated: list[float] = []
    for index in range(samples * 2):
        counted = index % 2 == 0
        game_id, loser = await game(service, rng, rated=counted)
        started = await service.games.get(game_id)  # both move: sooner, no rating
        await service.moves.play(game_id, started.sente.user_id, "7g7f")
        await service.moves.play(game_id, started.gote.user_id, "3c3d")
        clock.now += timedelta(hours=rng.uniform(1, 48))
        with lap(rated if counted else unrated):
            await service.endings.resign(game_id, loser)
    reference = report("ending, unrated (reference)", unrated, tail=0.95)
    measured = report("ending, rated (ratings locked)", rated, tail=0.95)
    ratio("rated / unrated", measured, reference)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database", default=os.environ.get("TEST_DATABASE_URL"))
    parser.add_argument("--samples", type=int, default=500, help="of each kind")
    parser.add_argument("--seed", type=int, default=1)
    options = parser.parse_args()
    if not options.database:
        raise SystemExit("give a PostgreSQL database with --database (or TEST_DATABASE_URL)")
    rng = random.Random(options.seed)
    admin = await asyncpg.connect(options.database)
    await admin.execute(f"CREATE SCHEMA {SCHEMA}")
    try:
        db = await open_database(f"{options.database}?search_path={SCHEMA}")
        clock = Clock()
        service = GameService(db, clock=clock, rng=random.Random(options.seed))
        try:
            await notes(service, options.samples, rng)
            await forecasts(service, options.samples, rng)
            await endings(service, clock, options.samples, rng)
        finally:
            await db.close()
    finally:
        await admin.execute(f"DROP SCHEMA {SCHEMA} CASCADE")
        await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
