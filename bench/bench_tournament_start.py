"""Benchmark of a big tournament's start against the fake Discord with all of Discord's
limits on (the global 50 a second and the per-route buckets): a 30-player double round
robin (870 games, as many created at once as the server's cap on tournament games under
way allows) started with `/tournament_start`, its games' threads opened by the bot in the
background, while two other members play a game of their own.

    python bench/bench_tournament_start.py [--players 30] [--wave N] [--moves 20]

It prints the start's answer time, the time to open the first `--wave` threads (all the
games created at the start by default), the requests a second the fake saw (the busiest
second over all routes the global limit counts, and per route), the route buckets whose
window took more than its limit and the 429s (both must be none), and the other
members' `/move` answer times before the start and during the opening (median, p99, and
the ratio of the medians).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import ratio, report
from bot.services.tournaments.model import State
from tests.fakediscord import FakeDiscord
from tests.fakediscord.limits import DISCORD_ROUTE_LIMITS, Limits
from tests.fakediscord.runner import BotRunner, E2EGuard
from tests.support.bursts import Bursts
from tests.support.club import Club, Table, open_club
from tests.support.long_game import long_game

DISCORD_LIMIT = 50


async def _moves(club: Club, table: Table, moves: list[str], start: int, count: int) -> list[float]:
    """`count` moves of the other members' game from `start`, each timed until its board
    is the answer."""
    times = []
    for ply in range(start, start + count):
        member = club.alice if ply % 2 == 0 else club.bob
        began = time.perf_counter()
        result = await club.move(member, moves[ply], table, fast=True)
        times.append(time.perf_counter() - began)
        if result.ephemeral:
            raise RuntimeError(f"move {moves[ply]} refused: {result.content}")
        await asyncio.sleep(0.2)
    return times


async def _threads(club: Club, game_ids: list[int]) -> int:
    opened = 0
    for game_id in game_ids:
        if (await club.game(game_id)).thread_id is not None:
            opened += 1
    return opened


async def run(players: int, wave: int | None, moves: int, folder: Path) -> int:
    fake = FakeDiscord(default_timeout=120.0, limits=Limits.discord())
    await fake.start()
    guard = E2EGuard()
    try:
        with fake.patched_discord():
            runner = BotRunner(fake, guard)
            try:
                club = await open_club(fake, runner, guard, folder)
                return await _scene(club, players, wave, moves)
            finally:
                await runner.close_all()
    finally:
        await fake.stop()


async def _scene(club: Club, players: int, wave: int | None, count: int) -> int:
    fake = club.fake
    members = [fake.add_member(club.guild, f"p{n}") for n in range(players)]
    club.make_manager(club.carol)
    await fake.slash(
        "tournament",
        {
            "name": "Season",
            "format": "double_round_robin",
            "starts": "2099-01-01 10:00",
            "max_players": max(players, 2),
        },
        user=club.carol,
        channel=club.channel,
    )
    [posted] = await club.posts(club.channel, "Season")
    join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
    for member in members:
        await fake.click(posted, join, user=member)
    table = await club.new_game(club.alice, club.bob)
    moves = [m.usi() for m in long_game(2 * count + 2, seed=3)]
    await fake.wait_quiet(6.0)  # the buckets of the set-up are empty again

    before = await _moves(club, table, moves, 0, count)
    since = len(fake.requests)
    began = time.perf_counter()
    started = await fake.slash("tournament_start", user=club.carol, channel=club.channel)
    answered = time.perf_counter() - began
    [running] = await club.service.tournaments.in_server(club.guild.id, [State.RUNNING])
    schedule = await club.service.tournaments.schedule_of(running.id)
    game_ids = [r.game_id for r in schedule if r.game_id is not None]
    target = len(game_ids) if wave is None else min(wave, len(game_ids))
    playing = asyncio.ensure_future(_moves(club, table, moves, count, count))
    first: float | None = None
    opened = 0
    while opened < target:
        await asyncio.sleep(0.5)
        opened = await _threads(club, game_ids)
        if first is None and opened:
            first = time.perf_counter() - began
    waved = time.perf_counter() - began
    during = await playing
    bursts = Bursts.of(fake.requests[since:], DISCORD_ROUTE_LIMITS)

    print(f"{players} players, double round robin: {len(schedule)} games scheduled,")
    print(f"  {len(game_ids)} created at the start (the server's cap on games under way)")
    print(f"start answered in {answered * 1000:.0f} ms: {started.content!r}")
    print(f"first thread after {first or 0:.1f} s; {target} threads after {waved:.1f} s")
    print(f"  ({target / waved:.2f} games a second)")
    print(f"busiest second, global limit's routes: {bursts.global_max} (limit {DISCORD_LIMIT})")
    for route, most in sorted(bursts.per_route.items(), key=lambda kv: -kv[1])[:8]:
        print(f"  busiest second of {route}: {most}")
    print(f"bucket windows over their limit: {bursts.bucket_over or 'none'}")
    print(f"429 answers: {bursts.refused}")
    quiet = report("/move answer before the start", before)
    busy = report("/move answer during the opening", during)
    ratio("during / before (medians)", busy, quiet)
    problems = fake.problems() + club.guard.error_logs()
    for line in problems[:5]:
        print(line)
    fine = bursts.refused == 0 and bursts.global_max <= DISCORD_LIMIT and not bursts.bucket_over
    return 0 if fine and not problems else 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--wave", type=int, help="threads to wait for (default: every game)")
    parser.add_argument("--moves", type=int, default=20, help="moves timed in each phase")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        return asyncio.run(run(args.players, args.wave, args.moves, Path(folder)))


if __name__ == "__main__":
    sys.exit(main())
