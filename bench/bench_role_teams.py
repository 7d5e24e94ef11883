"""Benchmark of /team_match by role in servers of 1,000 to 10,000 members, through the real
bot against the fake Discord:

    python bench/bench_role_teams.py [--samples 5]

Each sample gives two roles whose members joined the server last (two members) and no
one (an empty role): the bot reads every page of the member list, once for both roles,
and answers with one sentence. The reference, measured in the same run on the same
server, is the same two teams given by mention (each member looked up in the server),
answered with the same kind of sentence. It prints the median and p99 answer time of
each, their ratio, the requests a lookup makes, the worst stall of the event loop during
the samples, and the peak of memory traced over one lookup (the fake's pages included:
it runs in this process). Between samples it waits for Discord's global budget to refill,
so each lookup starts as a member's would on a quiet bot.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import itertools
import sys
import tempfile
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import lap, ratio, report
from bot.ui.role_teams import PAGE
from tests.fakediscord import BotRunner, E2EGuard, ErrorCode, FakeDiscord, FakeRole
from tests.support.club import Club, open_club
from tests.support.stall import LoopProbe

SIZES = (1_000, 5_000, 9_999)
LIST_MEMBERS = "GET /guilds/{guild_id}/members"
#: Seconds for the bot's global budget to refill after a lookup of ten pages (two a second).
REFILL = 5.5


async def answer(club: Club, options: dict[str, object]) -> str:
    result = await club.fake.slash(
        "team_match",
        {"first_team": "A", "second_team": "B", **options},
        user=club.alice,
        channel=club.channel,
        timeout=120,
    )
    assert result.ephemeral and "\n" not in result.content, result.content
    return result.content


async def measure_size(club: Club, size: int, samples: int) -> None:
    fake, guild = club.fake, club.guild
    while len(guild.members) < size - 2:
        fake.add_member(guild, f"member{len(guild.members)}")
    late = fake.add_role(guild, f"late{size}")
    pair = [fake.add_member(guild, f"late{size}-{n}") for n in range(2)]
    for member in pair:
        await fake.give_role(member, late)
    nobody: FakeRole = fake.add_role(guild, f"nobody{size}")
    gc.collect()
    gc.freeze()  # the fake's members are not the bot's to collect
    by_role: list[float] = []
    by_mention: list[float] = []
    worst = 0.0
    mentions = " ".join(f"<@{member.id}>" for member in pair)
    for _ in range(samples):
        await asyncio.sleep(REFILL)
        fake.request_counts.reset()
        async with LoopProbe() as probe:
            with lap(by_role):
                said = await answer(club, {"first_role": late, "second_role": nobody})
            pages = fake.request_counts.by_route[LIST_MEMBERS]
            with lap(by_mention):
                await answer(club, {"first_members": mentions, "second_members": "<@1>"})
        worst = max(worst, probe.worst)
        assert "Nobody who can play" in said, said
    tracemalloc.start()
    await asyncio.sleep(REFILL)
    await answer(club, {"first_role": late, "second_role": nobody})
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    gc.unfreeze()
    print(f"\n{len(guild.members):,} members: {pages} requests of up to {PAGE} members")
    role_time = report("by role (one pass, two roles)", by_role)
    mention_time = report("by mention (reference)", by_mention)
    ratio("by role / by mention", role_time, mention_time)
    print(f"worst loop stall {worst * 1000:.0f} ms, peak traced {peak / 2**20:.1f} MiB")


async def bench(samples: int) -> int:
    guard = E2EGuard()
    guard.install()
    fake = FakeDiscord(default_timeout=120)
    fake.members_intent = True
    fake.expect_rejections(ErrorCode.UNKNOWN_MEMBER)  # the reference's stranger
    await fake.start()
    try:
        with fake.patched_discord(), tempfile.TemporaryDirectory() as tmp:
            runner = BotRunner(fake, guard)
            try:
                club = await open_club(fake, runner, guard, Path(tmp))
                club.make_manager(club.alice)
                # Every lookup let through: the spacing between a server's lookups is
                # what keeps them apart in use, not what this measures.
                club.space_role_lookups(functools.partial(next, itertools.count(0.0, 60.0)))
                for size in SIZES:
                    await measure_size(club, size, samples)
            finally:
                await runner.close_all()
    finally:
        await fake.stop()
    problems = fake.problems() + await guard.finish()
    for problem in problems:
        print(problem)
    return 1 if problems else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5, help="lookups per server size")
    return asyncio.run(bench(parser.parse_args().samples))


if __name__ == "__main__":
    sys.exit(main())
