"""Benchmark of the budgets' checks: what they add to a challenge and to a computer start.

    python bench/bench_budgets.py [--challenges 5000] [--samples 300] [--seed 1]
                                  [--database postgresql://user@host/empty_database]

A database is filled through the service with `--challenges` challenges naming a member,
by 400 members (a third declined, a third cancelled, a third accepted), and with games
against the computer (most finished). Then each sample, in turn:

- offers a challenge naming a member through the service, with its budgets checked (the
  member's lock, the wait after a decline, the count of their open named challenges) and,
  as the reference measured in the same run, the same offer by a service whose checks are
  taken out (`Unchecked`: the same transaction, the insert alone);
- starts a game against the computer (offer, accept, the computer's seat) with the count
  of the member's games against it, and the same without it.

Each offer is cancelled and each game resigned again, untimed. It prints the median and
99th percentile of each and the ratios of the medians: what the budgets cost a request.
With `--database`, the same runs next on that (empty) PostgreSQL database.
"""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.databases import challenge_bench
from bench.timing import Clock, lap, ratio, report
from bot.db import Database, NewChallenge, Session
from bot.services import GameService, PlayerRef
from bot.services.club.challenges import Challenges

MEMBERS = [PlayerRef(10_000 + n, f"member{n}") for n in range(400)]
COMPUTER = PlayerRef(9_999, "ShogiBot", True)
GUILD = 1
CHANNEL = 2


class Unchecked(Challenges):
    """The challenges without the budgets' checks: the reference."""

    async def _named(self, tx: Session, new: NewChallenge, opponent: PlayerRef) -> int:
        return await tx.challenges.create(new)

    async def _against_computer(self, tx: Session, new: NewChallenge) -> int:
        return await tx.challenges.create(new)


def services(db: Database, clock: Clock, seed: int) -> tuple[GameService, GameService]:
    """A service with its budgets checked, and one on the same database without."""
    checked = GameService(db, clock=clock, rng=random.Random(seed))
    unchecked = GameService(db, clock=clock, rng=random.Random(seed))
    unchecked.challenges = Unchecked(unchecked.store, unchecked.budgets)
    return checked, unchecked


async def computer_start(service: GameService, member: PlayerRef, challenges: Challenges) -> int:
    """What `Computer.start` does, on `challenges` (the engine is never asked: no search
    runs before the computer's turn, and the member moves first)."""
    offered = await challenges.offer(
        guild_id=GUILD,
        channel_id=CHANNEL,
        challenger=member,
        opponent=COMPUTER,
        color="sente",
        time_control="unlimited",
        rated=False,
        computer=True,
    )
    game = await challenges.accept(offered.id, COMPUTER, guild_id=GUILD)
    async with service.store.db.transaction() as tx:
        await tx.computer.add(game.id, COMPUTER.user_id, 1)
    return game.id


async def fill(service: GameService, clock: Clock, count: int, rng: random.Random) -> None:
    """`count` named challenges, each declined, cancelled or accepted, and one game
    against the computer for every tenth of them (all but one in ten finished, at most
    one a member in progress)."""
    started = time.perf_counter()
    playing: set[int] = set()
    for n in range(count):
        clock.now += service.budgets.rechallenge_after  # earlier declines have worn off
        author, other = rng.sample(MEMBERS, 2)
        offered = await service.challenges.offer(
            guild_id=GUILD, channel_id=CHANNEL, challenger=author, opponent=other
        )
        fate = rng.choice(("decline", "cancel", "accept"))
        if fate == "decline":
            await service.challenges.decline(offered.id, other.user_id)
        elif fate == "cancel":
            await service.challenges.cancel(offered.id, author.user_id)
        else:
            await service.challenges.accept(offered.id, other.user_id)
        if n % 10 == 0 and author.user_id not in playing:
            game_id = await computer_start(service, author, service.challenges)
            if rng.random() < 0.9:
                await service.endings.resign(game_id, author.user_id)
            else:
                playing.add(author.user_id)
    print(f"stored {count:,} challenges in {time.perf_counter() - started:.1f} s")


async def measure(db: Database, count: int, samples: int, seed: int) -> None:
    rng = random.Random(seed)
    clock = Clock()
    checked, unchecked = services(db, clock, seed)
    await fill(checked, clock, count, rng)
    timings: dict[str, list[float]] = {
        "named challenge, checked": [],
        "named challenge, unchecked (ref)": [],
        "computer start, checked": [],
        "computer start, unchecked (ref)": [],
    }
    for n in range(samples):
        author = MEMBERS[n % len(MEMBERS)]
        # A member the author has no fresh decline from, nor an open challenge with.
        other = MEMBERS[(n * 7 + 1) % len(MEMBERS)]
        clock.now += checked.budgets.rechallenge_after  # earlier declines have worn off
        for kind, service in (("checked", checked), ("unchecked (ref)", unchecked)):
            with lap(timings[f"named challenge, {kind}"]):
                offered = await service.challenges.offer(
                    guild_id=GUILD, channel_id=CHANNEL, challenger=author, opponent=other
                )
            await service.challenges.cancel(offered.id, author.user_id)
            with lap(timings[f"computer start, {kind}"]):
                game_id = await computer_start(service, author, service.challenges)
            await service.endings.resign(game_id, author.user_id)
    medians = {kind: report(kind, taken) for kind, taken in timings.items()}
    ratio(
        "named challenge, checked / unchecked",
        medians["named challenge, checked"],
        medians["named challenge, unchecked (ref)"],
    )
    ratio(
        "computer start, checked / unchecked",
        medians["computer start, checked"],
        medians["computer start, unchecked (ref)"],
    )


async def main() -> None:
    await challenge_bench(measure, description=__doc__.split("\n")[0], samples=300)


if __name__ == "__main__":
    asyncio.run(main())
