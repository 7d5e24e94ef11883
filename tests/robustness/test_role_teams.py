"""A member gives /team_match roles as large as a server's: a role of 5,000 members, a
role of two who joined last in a server of 9,000, and a server past what the bot looks
through. Each gets one sentence, in bounded requests and memory, while another member's
/move is answered with its board and the loop never stalls, and the bot keeps none of the
members it read. Hostile roles too (@everyone, the bot's own role, a name written to ping or
to format, a role and a list for one team, a role id no client offers): one sentence each,
pinging nobody."""

from __future__ import annotations

import functools
import gc
import itertools
import tracemalloc

from bot.ui.role_teams import MAX_PAGES, PAGE
from bot.ui.text.answers import BAD_OPTION
from tests.fakediscord import FakeMember, FakeRole, InteractionResult
from tests.fakediscord.runner import settle
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.stall import LoopProbe

from .test_fuzz_commands import forged_slash

LIST_MEMBERS = "GET /guilds/{guild_id}/members"
#: What one /team_match by the largest role may hold at its peak, the fake's own pages
#: included (both run in this process): generous, for a busy machine's allocator.
PEAK_BYTES = 48 * 1024 * 1024


async def by_roles(club: Club, first: FakeRole, second: FakeRole) -> InteractionResult:
    return await club.fake.slash(
        "team_match",
        {"first_team": "Crowd", "second_team": "Others", "first_role": first,
         "second_role": second},
        user=club.carol,
        channel=club.channel,
        wait=False,
    )  # fmt: skip


async def while_a_move_is_played(
    club: Club, table: Table, table_move: str, roles: tuple[FakeRole, FakeRole], mover: FakeMember
) -> tuple[str, float]:
    """The command's one sentence, answered while `mover` plays on, and the worst stall."""
    async with LoopProbe() as probe:
        command = await by_roles(club, *roles)
        moved = await club.move(mover, table_move, table)
        await command.wait_final(timeout=60)
        await settle(timeout=club.fake.default_timeout)
    assert not moved.ephemeral and f"({table_move})" in moved.content, moved.content
    assert_board(moved.files)
    assert command.ephemeral and "\n" not in command.content, command.content
    return command.content, probe.worst


def set_aside() -> None:
    """Collect now and leave what lives out of later collections (`gc.freeze`): the fake's
    thousands of members and the test session share this process with the bot, and a full
    collection's pause grows with them, not with the command under test."""
    gc.collect()
    gc.freeze()


async def test_roles_as_large_as_a_server_get_one_sentence_in_bounded_work(club: Club) -> None:
    try:
        await roles_as_large_as_a_server(club)
    finally:
        gc.unfreeze()


async def roles_as_large_as_a_server(club: Club) -> None:
    fake, guild = club.fake, club.guild
    fake.members_intent = True
    club.space_role_lookups(functools.partial(next, itertools.count(0.0, 60.0)))
    club.make_manager(club.carol)
    table = await club.new_game(club.alice, club.bob)
    crowd, late, nobody = (fake.add_role(guild, n) for n in ("Crowd", "Late", "Nobody"))
    for number in range(5_000):
        await fake.give_role(fake.add_member(guild, f"fan{number}"), crowd)
    for number in range(4_000 - 2):
        fake.add_member(guild, f"guest{number}")
    for number in range(2):
        await fake.give_role(fake.add_member(guild, f"late{number}"), late)
    assert 9_000 < len(guild.members) < MAX_PAGES * PAGE
    set_aside()

    # 5,000 members: the first page has more than a team, and nothing more is asked.
    fake.request_counts.reset()
    said, worst = await while_a_move_is_played(club, table, "P-7f", (crowd, nobody), club.alice)
    assert "The role Crowd has more than 64 members" in said, said
    assert fake.request_counts.by_route[LIST_MEMBERS] == 1
    print(f"role of 5,000: worst stall {worst * 1000:.0f} ms")
    assert worst < 0.1, f"{worst * 1000:.0f} ms"
    # Its memory, traced apart (tracing slows every allocation, so not under the probe).
    tracemalloc.start()
    try:
        again = await by_roles(club, crowd, nobody)
        await again.wait_final(timeout=60)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert again.content == said
    print(f"role of 5,000: peak {peak / 2**20:.1f} MiB")
    assert peak < PEAK_BYTES, f"{peak / 2**20:.1f} MiB"

    # Two members who joined last, and an empty role: every page read, once for both.
    fake.request_counts.reset()
    said, worst = await while_a_move_is_played(club, table, "P-3d", (late, nobody), club.bob)
    assert "Nobody who can play has the role Nobody" in said, said
    pages = len(guild.members) // PAGE + 1
    assert fake.request_counts.by_route[LIST_MEMBERS] == pages  # both roles in one pass
    print(f"two roles over {pages} pages: worst stall {worst * 1000:.0f} ms")
    assert worst < 0.1, f"{worst * 1000:.0f} ms"

    # Past what the bot looks through: one sentence after `MAX_PAGES` pages.
    for number in range(MAX_PAGES * PAGE - len(guild.members) + 1):
        fake.add_member(guild, f"crowd{number}")
    set_aside()
    fake.request_counts.reset()
    said, worst = await while_a_move_is_played(club, table, "P-2f", (late, nobody), club.alice)
    assert "This server has 10000 members or more" in said, said
    assert fake.request_counts.by_route[LIST_MEMBERS] == MAX_PAGES
    assert worst < 0.1, f"{worst * 1000:.0f} ms"

    # Nothing kept: the bot's cache holds no member it read, and no match was made.
    assert club.bot is not None
    seen = club.bot.get_guild(guild.id)
    assert seen is not None
    assert len(seen.members) < 10, len(seen.members)
    assert not club.bot_posts(club.channel, "Team match #")


async def test_hostile_roles_get_one_sentence_and_ping_nobody(club: Club) -> None:
    fake, guild = club.fake, club.guild
    fake.members_intent = True
    club.space_role_lookups(functools.partial(next, itertools.count(0.0, 60.0)))
    club.make_manager(club.carol)
    bots = next(role for role in guild.roles.values() if role.managed)  # the bot's own
    loud = fake.add_role(guild, "@everyone **Dragons** <@&1> ||x||")
    await fake.give_role(club.alice, loud)
    cases = [
        ((guild.everyone, loud), "alice is in both teams"),  # @everyone has everyone
        ((bots, loud), f"Nobody who can play has the role {bots.name}"),
        ((loud, loud), "two different roles"),
    ]
    for roles, expected in cases:
        result = await by_roles(club, *roles)
        await result.wait_final()
        assert result.ephemeral and expected in result.content, result.content
        assert result.reply is not None and result.reply.pinged_user_ids == []
        assert not result.reply.mention_everyone and not result.reply.mention_role_ids
    # A role's name is shown as text: no ping, no markdown.
    empty = fake.add_role(guild, "@everyone **Dragons**")
    named = await by_roles(club, empty, loud)
    await named.wait_final()
    assert "\\*\\*Dragons\\*\\*" in named.content and "@\u200beveryone" in named.content, (
        named.content
    )
    # Both a role and a list for one team, and a role id a modified client forged.
    both = await club.fake.slash(
        "team_match",
        {"first_team": "A", "second_team": "B", "first_role": loud,
         "first_members": f"<@{club.bob.id}>", "second_role": bots},
        user=club.carol, channel=club.channel,
    )  # fmt: skip
    assert both.ephemeral and "not both" in both.content, both.content
    forged = await forged_slash(
        fake, "team_match",
        {"first_team": "A", "second_team": "B", "first_role": loud, "second_role": empty},
        {"second_role": "1"}, user=club.carol, channel=club.channel,
    )  # fmt: skip
    assert forged.ephemeral and forged.content == str(BAD_OPTION), forged.content
    assert not club.bot_posts(club.channel, "Team match #")


async def test_a_server_cannot_spend_the_bots_requests_on_lookups_one_after_another(
    club: Club,
) -> None:
    fake, guild = club.fake, club.guild
    fake.members_intent = True
    club.make_manager(club.carol)
    nobody, others = fake.add_role(guild, "Nobody"), fake.add_role(guild, "Others")
    for number in range(2 * PAGE):
        fake.add_member(guild, f"guest{number}")
    # Ten at once: one reads the list, the others are told to wait, at once.
    fake.request_counts.reset()
    flood = [await by_roles(club, nobody, others) for _ in range(10)]
    for result in flood:
        await result.wait_final()
    said = [result.content for result in flood]
    assert sum("Nobody who can play" in s for s in said) == 1, said
    waiting = [s for s in said if "Nobody who can play" not in s]
    assert all("try again in" in s and "\n" not in s for s in waiting), waiting
    assert fake.request_counts.by_route[LIST_MEMBERS] == 3
    # Right after, still too soon; once the server's spacing has passed, read again.
    again = await by_roles(club, nobody, others)
    await again.wait_final()
    assert "try again in" in again.content, again.content
    club.space_role_lookups(lambda: float("inf"))  # the spacing has passed
    later = await by_roles(club, nobody, others)
    await later.wait_final()
    assert "Nobody who can play" in later.content, later.content
    assert fake.request_counts.by_route[LIST_MEMBERS] == 6
