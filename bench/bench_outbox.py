"""Benchmark of the outbox: 2,000 reminders falling due at once in one bot process on
SQLite, sent through the real client to the fake Discord at the outbox's pace, while a
member keeps playing.

    python bench/bench_outbox.py [--reminders 2000] [--rate 30] [--moves 40]

It prints the sends per second achieved (the reminders over the time from the first post
to the last, against the rate asked for), their spread (the posts counted in each whole
second: lowest, median, highest), and the latency of `/move` answers (median, p99)
played in a game of its own during the burst, against the same number played before it,
with the ratio of the medians. The fake Discord's limits apply if it enforces them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import lap, ratio, report
from bot.db import BulkGame, DeadlineRow, NewGame, Terms
from rules import Handicap
from rules.notation import read_record
from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord
from tests.support.club import Club, Table, open_club

RECORD = Path(__file__).resolve().parent.parent / "tests/data/records/bioshogi_sample.csa"
REMINDER = "your move is due"


def opening() -> list[str]:
    return [move.usi() for move in read_record(RECORD.read_bytes(), "csa").game.moves]


async def play(club: Club, table: Table, moves: list[str], samples: list[float]) -> None:
    """Play `moves` in `table`'s game, timing each answer (the interaction's response)."""
    for ply, usi in enumerate(moves):
        player = club.alice if ply % 2 == 0 else club.bob
        with lap(samples):
            answer = await club.move(player, usi, table, fast=True)
        if not answer.content.startswith(f"{ply + 1}. "):
            raise SystemExit(f"move {ply + 1} ({usi}) was not played: {answer.content!r}")


async def due_reminders(club: Club, count: int) -> None:
    """`count` games in the club's channel whose reminders are due now (bulk-loaded: the
    burst, not the games' starts, is measured)."""
    now = club.clock()
    terms = Terms(bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27")
    alice, bob = club.alice.user.id, club.bob.user.id
    new = NewGame(club.guild.id, club.channel.id, alice, bob, terms, Handicap.EVEN.sfen, now)
    deadline = DeadlineRow(0, alice, now + timedelta(days=1), now - timedelta(seconds=1))
    games = [BulkGame(new, (), Handicap.EVEN.sfen, now, deadline=deadline)] * count
    async with club.service.store.db.transaction() as tx:
        await tx.games.bulk_insert(games)


async def measure(reminders: int, rate: float, moves: int, workdir: Path) -> list[str]:
    guard = E2EGuard()
    guard.install()
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patched_discord():
            runner = BotRunner(fake, guard)
            try:
                club = await open_club(fake, runner, guard, workdir, outbox_rate=rate)
                await burst(club, reminders, rate, moves)
            finally:
                await runner.close_all()
    finally:
        await fake.stop()
    return fake.problems() + await guard.finish()


async def burst(club: Club, reminders: int, rate: float, moves: int) -> None:
    assert club.bot is not None
    line = opening()[:moves]
    quiet: list[float] = []
    await play(club, await club.new_game(), line, quiet)
    await club.bot.sends_settled()

    await due_reminders(club, reminders)
    during: list[float] = []
    table = await club.new_game()
    started = time.monotonic()
    club.wake_deadlines()
    while len(club.bot_posts(club.channel, REMINDER)) < reminders // 10:
        await asyncio.sleep(0.01)  # the burst is under way
    await play(club, table, line, during)
    played_by = len(club.bot_posts(club.channel, REMINDER))
    await club.bot.sends_settled()
    elapsed = time.monotonic() - started
    posts = club.bot_posts(club.channel, REMINDER)
    if len(posts) != reminders:
        raise SystemExit(f"{len(posts)} reminders posted, {reminders} expected")
    times = sorted(post.created_at for post in posts)
    span = times[-1] - times[0]
    achieved = (len(times) - 1) / span
    per_second = Counter(int(t - times[0]) for t in times)
    whole = [per_second[s] for s in range(int(span))] or [len(times)]
    print(f"{reminders} reminders sent in {span:.1f} s ({elapsed:.1f} s from the wake-up)")
    print(
        f"sends per second: {achieved:.1f} achieved at a rate of {rate:g}"
        f" ({achieved / rate:.2f} of it); per whole second lowest {min(whole)},"
        f" median {statistics.median(whole):g}, highest {max(whole)}"
    )
    print(f"{len(during)} moves answered while {played_by} of {reminders} reminders were out")
    reference = report("/move answer, no burst", quiet)
    measured = report("/move answer, during the burst", during)
    ratio("during / no burst (medians)", measured, reference)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reminders", type=int, default=2000)
    parser.add_argument("--rate", type=float, default=30.0)
    parser.add_argument("--moves", type=int, default=40)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        problems = asyncio.run(measure(args.reminders, args.rate, args.moves, Path(folder)))
    for problem in problems:
        print(f"problem: {problem}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
