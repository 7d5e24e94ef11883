"""The daily digest through the real bot and the fake Discord, with the movable clock the
deadline tests use: a player in Asia/Tokyo gets it at 08:00 JST, in Japanese; one in
Europe/Paris at 08:00 on both sides of the night the clocks go forward; each lists every
game where it is their move with its deadline and link, arrives with a sound even in the
player's quiet hours, comes once after a restart, and not at all on a day without a game
to move."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord, FakeMember, FakeMessage
from tests.fakediscord.constants import MessageFlag
from tests.support.clock import FakeClock
from tests.support.club import Club, Table

#: Friday 27 March 2026, 21:00 in Tokyo, 13:00 in Paris; Paris goes to summer time on the
#: Sunday at 02:00.
FRIDAY = datetime(2026, 3, 27, 12, 0, tzinfo=UTC)


def utc(day: int, hour: int, minute: int = 0) -> datetime:
    return datetime(2026, 3, day, hour, minute, tzinfo=UTC)


def link(club: Club, table: Table) -> str:
    return f"https://discord.com/channels/{club.guild.id}/{table.thread.id}"


async def at(club: Club, moment: datetime) -> None:
    """Move the clock to `moment` and let the bot's tasks look."""
    club.clock.now = moment
    club.wake_deadlines()
    await club.fake.wait_quiet()


async def digests(club: Club, member: FakeMember, count: int) -> list[FakeMessage]:
    await club.fake.wait_for(
        lambda: len(club.fake.direct_messages(member)) >= count,
        what=f"{count} digest(s) for {member.user.username}",
    )
    return club.fake.direct_messages(member)


async def test_digests_at_the_local_hour_in_tokyo_and_across_the_change_of_clocks_in_paris(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = Club(
        fake_discord,
        bot_runner,
        e2e_guard,
        tmp_path,
        clock=FakeClock(FRIDAY),
        locales=("ja", "en-US", "en-US"),
    )
    await club.start()
    alice, bob, carol = club.alice, club.bob, club.carol
    waiting = await club.new_game(alice, bob, time="7d")
    await club.play(waiting, [(alice, "7g7f")])  # bob's move, seven days
    sooner = await club.new_game(alice, carol, time="3d")
    untimed = await club.new_game(alice, bob, time="unlimited")
    await club.prefer(alice, notifications="digest", digest_hour=8, time_zone="Asia/Tokyo")
    await club.prefer(
        bob,
        notifications="digest",
        digest_hour=8,
        time_zone="Europe/Paris",
        quiet_hours="22-9",
    )
    await club.prefer(carol, notifications="digest", digest_hour=8, time_zone="Europe/Paris")

    await at(club, utc(27, 22, 59))  # 07:59 in Tokyo: not yet
    assert club.fake.direct_messages(alice) == []
    await at(club, utc(27, 23))  # 08:00 in Tokyo
    [first] = await digests(club, alice, 1)
    lines = first.content.splitlines()
    assert lines[0] == "本日のまとめ：あなたの手番の対局は次のとおりです。"
    assert lines[1].startswith(
        f"• 対局#{sooner.game_id}：あなた（☗）対 carolさん、0手目。期限は<t:"
    )
    assert lines[1].endswith(link(club, sooner))
    assert lines[2] == (
        f"• 対局#{untimed.game_id}：あなた（☗）対 bobさん、0手目。期限なしです。"
        f"{link(club, untimed)}"
    )
    assert len(lines) == 3 and first.mentions == []
    assert club.fake.direct_messages(bob) == []  # 00:00 in Paris

    # A restart at once sends nothing again: the database knows it went out.
    await club.restart()
    await at(club, utc(27, 23, 30))
    assert len(club.fake.direct_messages(alice)) == 1

    await at(club, utc(28, 6, 59))  # 07:59 in Paris (winter time)
    assert club.fake.direct_messages(bob) == []
    await at(club, utc(28, 7))  # 08:00 CET
    [saturday] = await digests(club, bob, 1)
    assert saturday.content.splitlines() == [
        "Your daily digest: it is your move in these games.",
        f"• Game #{waiting.game_id}: You (☖) vs alice, move 1; deadline "
        f"<t:{int(utc(3, 12).replace(month=4).timestamp())}:R> "
        f"(<t:{int(utc(3, 12).replace(month=4).timestamp())}:f>). {link(club, waiting)}",
    ]
    assert not saturday.flags & MessageFlag.SUPPRESS_NOTIFICATIONS  # quiet hours: not for it
    assert club.fake.direct_messages(carol) == []  # nothing waits for her move

    # Sunday: Paris is an hour ahead of where it was, and 08:00 comes an hour earlier in UTC.
    await club.play(waiting, [(bob, "3c3d")])
    await club.play(sooner, [(alice, "2g2f")])
    await at(club, utc(29, 5, 59))
    assert len(club.fake.direct_messages(bob)) == 1
    # Meanwhile 08:00 came in Tokyo again (23:00 UTC on Saturday): bob has replied there.
    second = (await digests(club, alice, 2))[-1]
    assert f"対局#{waiting.game_id}：あなた（☗）対 bobさん、2手目。期限は<t:" in second.content
    await at(club, utc(29, 6))  # 08:00 CEST
    [carols] = await digests(club, carol, 1)
    assert carols.content.startswith("Your daily digest")
    assert f"• Game #{sooner.game_id}: You (☖) vs alice, move 1; deadline <t:" in carols.content
    assert len(club.fake.direct_messages(bob)) == 1  # nothing waits for bob today
    await club.restart()
    await at(club, utc(29, 6, 30))
    assert [len(club.fake.direct_messages(m)) for m in (alice, bob, carol)] == [2, 1, 1]
