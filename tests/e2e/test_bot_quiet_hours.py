"""Quiet hours through the real bot, on the clock the tests move by hand: a direct message
that falls in a player's quiet hours is sent silently (Discord's suppress-notifications
flag), never dropped; one outside them notifies as usual. The hours are read in the
player's own zone, else the server's (Asia/Tokyo for a Japanese server, UTC otherwise).
"""

from __future__ import annotations

from datetime import timedelta

from tests.fakediscord import FakeMember, FakeMessage
from tests.fakediscord.constants import MessageFlag
from tests.support.club import Club

SILENT = MessageFlag.SUPPRESS_NOTIFICATIONS


def at_utc(club: Club, hour: int) -> None:
    """Move the clock forward to the next half past `hour` (UTC)."""
    now = club.clock()
    target = now.replace(hour=hour, minute=30, second=0, microsecond=0)
    if target <= now:
        target += timedelta(days=1)
    club.clock.advance(target - now)


async def next_message(club: Club, member: FakeMember, seen: int) -> FakeMessage:
    """The direct message to `member` after the `seen` ones, once it is there."""
    await club.fake.wait_for(
        lambda: len(club.fake.direct_messages(member)) > seen,
        what=f"a direct message to {member.user.username}",
    )
    await club.fake.wait_quiet()
    messages = club.fake.direct_messages(member)
    assert len(messages) == seen + 1, [m.content for m in messages[seen:]]
    return messages[-1]


def silent(message: FakeMessage) -> bool:
    return bool(message.flags & SILENT)


async def test_a_message_in_quiet_hours_arrives_silently_and_one_outside_them_rings(
    club: Club,
) -> None:
    """An English server: bob's quiet hours 22-7 are read in UTC, his server's zone."""
    alice, bob = club.alice, club.bob
    chosen = await club.prefer(bob, notifications="each", quiet_hours="22-7")
    assert "22:00 to 7:00" in chosen.content, chosen.content
    table = await club.new_game()
    await club.fake.wait_quiet()

    at_utc(club, 23)
    seen = len(club.fake.direct_messages(bob))
    await club.move(alice, "7g7f", table)
    turn = await next_message(club, bob, seen)
    assert turn.content.startswith(f"Your move in game #{table.game_id}") and silent(turn)

    at_utc(club, 12)
    await club.move(bob, "3c3d", table)
    await club.move(alice, "2g2f", table)
    loud = await next_message(club, bob, seen + 1)
    assert "Last move: ☗２六歩" in loud.content and not silent(loud)

    # An ending in the night is not dropped either: bob, the winner, has it silently.
    at_utc(club, 2)
    await club.resign(table, alice)
    ending = await next_message(club, bob, seen + 2)
    assert "alice resigned" in ending.content and silent(ending)


async def test_quiet_hours_are_read_in_the_players_zone_else_the_servers(
    japanese_club: Club,
) -> None:
    """A Japanese server is dated in Asia/Tokyo: 23:30 there is 14:30 UTC. はなこ🌸 then
    chooses London's zone, where 14:30 UTC is the afternoon (in November, London is on
    UTC)."""
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    await club.prefer(hanako, notifications="each", quiet_hours="22-7")
    table = await club.new_game()
    await club.fake.wait_quiet()
    seen = len(club.fake.direct_messages(hanako))

    at_utc(club, 14)  # 23:30 in Tokyo
    await club.move(yamada, "7g7f", table)
    night = await next_message(club, hanako, seen)
    assert night.content.startswith(f"対局#{table.game_id}") and silent(night)

    at_utc(club, 3)  # 12:30 in Tokyo
    await club.move(hanako, "3c3d", table)
    await club.move(yamada, "2g2f", table)
    noon = await next_message(club, hanako, seen + 1)
    assert not silent(noon)

    await club.prefer(hanako, time_zone="Europe/London")
    at_utc(club, 14)  # 14:30 in London
    await club.move(hanako, "8c8d", table)
    await club.move(yamada, "2f2e", table)
    afternoon = await next_message(club, hanako, seen + 2)
    assert not silent(afternoon)

    at_utc(club, 23)  # 23:30 in London
    await club.move(hanako, "8d8e", table)
    await club.move(yamada, "6i7h", table)
    late = await next_message(club, hanako, seen + 3)
    assert "最終手：☗７八金" in late.content and silent(late)
