"""Notification preferences and time zones through the real bot: `/preferences` stores a
digest hour, a zone and quiet hours and says them back in the member's language; bad
hours and unknown zones get one sentence and change nothing; `/timezone` is chosen by a
member who may manage the server, kept across a restart, and given back to the
language's zone; zone names are suggested as they are typed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord
from tests.support.club import Club, open_club
from tests.support.japanese import assert_japanese


async def test_a_digest_zone_and_quiet_hours_are_stored_and_said_back(club: Club) -> None:
    chosen = await club.prefer(
        club.alice,
        notifications="digest",
        digest_hour=7,
        time_zone="europe/paris",
        quiet_hours="22:00-07:00",
    )
    assert chosen.ephemeral
    assert "a digest of your games to move every day at 7:00" in chosen.content
    assert "Time zone: `Europe/Paris`" in chosen.content and "(this server's" not in chosen.content
    assert "Quiet hours: 22:00 to 7:00" in chosen.content
    await club.restart()
    again = await club.prefer(club.alice)
    assert "every day at 7:00" in again.content and "Quiet hours: 22:00 to 7:00" in again.content
    loud = await club.prefer(club.alice, quiet_hours="off")
    assert "Quiet hours" not in loud.content and "`Europe/Paris`" in loud.content
    assert club.fake.channel_history(club.channel) == []  # all of it private


@pytest.mark.parametrize("typed", ["25-7", "22", "7-7", "a-b", "22:30-7", "1" * 24])
async def test_bad_quiet_hours_get_one_sentence_and_change_nothing(club: Club, typed: str) -> None:
    await club.prefer(club.bob, quiet_hours="1-5")
    refused = await club.prefer(club.bob, quiet_hours=typed, notifications="each")
    assert refused.ephemeral and refused.content == (
        "Write quiet hours as two hours from 0 to 23, e.g. 22-7, or off."
    )
    kept = (await club.prefer(club.bob)).content
    assert "Quiet hours: 1:00 to 5:00" in kept and "Direct messages: none" in kept


async def test_an_unknown_zone_is_refused_in_the_members_language(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, locales=("ja", "en-US", "en-US")
    )
    refused = await club.prefer(club.alice, time_zone="Tokyo")
    assert refused.ephemeral and "Asia/Tokyo" in refused.content
    assert "タイムゾーンは見つかりません" in refused.content
    shown = await club.prefer(club.alice)
    assert "タイムゾーン：`UTC`（このサーバーの設定" in shown.content  # nothing stored
    assert_japanese(refused, shown)
    english = await club.prefer(club.bob, time_zone="x" * 64)
    assert english.content.startswith("x" * 64 + " is not a time zone I know.")


async def test_a_server_manager_chooses_the_servers_zone(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, locales=("ja", "en-US", "en-US")
    )
    club.make_manager(club.carol)
    await club.fake.slash("language", {"language": "ja"}, user=club.carol, channel=club.channel)

    shown = await club.fake.slash("timezone", user=club.alice, channel=club.channel)
    assert shown.ephemeral and "`Asia/Tokyo`" in shown.content  # a Japanese server's default
    assert "サーバーの言語に合わせて" in shown.content
    refused = await club.fake.slash(
        "timezone", {"zone": "Europe/Paris"}, user=club.alice, channel=club.channel
    )
    assert "サーバー管理の権限" in refused.content and "タイムゾーン" in refused.content
    assert_japanese(shown, refused)

    chosen = await club.fake.slash(
        "timezone", {"zone": "europe/paris"}, user=club.carol, channel=club.channel
    )
    assert chosen.content == ("This server's records and digests are now dated in `Europe/Paris`.")
    await club.restart()
    member = await club.prefer(club.bob)
    assert "Time zone: `Europe/Paris` (this server's" in member.content
    suggested = await club.fake.autocomplete(
        "timezone", {"zone": "paris"}, focused="zone", user=club.carol, channel=club.channel
    )
    assert [c.value for c in suggested] == ["default", "Europe/Paris"]
    assert suggested[0].name == "The zone of the server's language (Asia/Tokyo)"
    back = await club.fake.slash(
        "timezone", {"zone": "default"}, user=club.carol, channel=club.channel
    )
    assert "`Asia/Tokyo` again" in back.content
    assert club.fake.channel_history(club.channel) == []


async def test_zone_names_are_suggested_to_a_player(club: Club) -> None:
    suggested = await club.fake.autocomplete(
        "preferences", {"time_zone": "tok"}, focused="time_zone", user=club.alice,
        channel=club.channel,
    )  # fmt: skip
    assert [c.value for c in suggested][:1] == ["Asia/Tokyo"]  # before Asia/Vladivostok
    many = await club.fake.autocomplete(
        "preferences", {"time_zone": "a"}, focused="time_zone", user=club.alice,
        channel=club.channel,
    )  # fmt: skip
    assert len(many) == 25


async def test_a_digest_chosen_without_a_zone_keeps_the_servers_zone(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """The zone shown is the zone used: a player who turns the digest on in a Japanese
    server keeps Asia/Tokyo as theirs, also where another server is dated otherwise."""
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, locales=("ja", "en-US", "en-US")
    )
    club.make_manager(club.carol)
    await club.fake.slash("language", {"language": "ja"}, user=club.carol, channel=club.channel)
    before = await club.prefer(club.alice)
    assert "このサーバーの設定" in before.content  # nothing chosen yet: the server's zone
    chosen = await club.prefer(club.alice, notifications="digest")
    assert "タイムゾーン：`Asia/Tokyo`" in chosen.content
    assert "このサーバーの設定" not in chosen.content  # now the player's own
    assert (await club.service.preferences.of(club.alice.id)).time_zone == "Asia/Tokyo"
