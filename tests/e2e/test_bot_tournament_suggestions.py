"""The `tournament` option's suggestions through the real bot and the fake Discord: each
command offers the server's tournaments it can act on (taking entries for a start or a
cancellation, under way for a withdrawal, all but the cancelled for the standings), the
newest first, each with its number, its name and its state in the reader's language, a
long name cut within Discord's 100 characters with its state kept, what is typed picking
among them by name or number, and another server's tournaments never offered. A choice
picked is the number the command then takes."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.services import PlayerRef
from bot.services.tournaments.model import Runner, State, Tournament
from bot.ui.text.answers import units
from tests.fakediscord import Choice, FakeMember
from tests.support.club import Club

#: A name of the longest a tournament takes, in kanji and an emoji beyond the Basic
#: Multilingual Plane (two UTF-16 units): its suggestion must be cut.
LONG_NAME = "名人戦" * 32 + "🏆🏆🏆🏆"


@pytest.fixture(autouse=True)
def quick_openings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.ui.openings.OPEN_INTERVAL", 0.05)


async def suggested(
    club: Club, command: str, typed: str, *, user: FakeMember | None = None
) -> list[Choice]:
    return await club.fake.autocomplete(
        command,
        {"tournament": typed},
        focused="tournament",
        user=user or club.alice,
        channel=club.channel,
    )


async def created(club: Club, name: str, *, guild_id: int | None = None) -> Tournament:
    return await club.service.tournaments.create(
        guild_id=club.guild.id if guild_id is None else guild_id,
        channel_id=club.channel.id,
        organizer=PlayerRef(club.alice.id, "alice"),
        may_manage=True,
        name=name,
        format="round_robin",
        start_at=club.clock.now + timedelta(days=2),
    )


async def test_each_command_suggests_the_tournaments_it_can_act_on(club: Club) -> None:
    club.make_manager(club.alice)
    guild = club.guild.id
    service = club.service.tournaments
    under_way = await created(club, "Autumn cup")
    for member in (club.alice, club.bob, club.carol):
        await service.join(under_way.id, PlayerRef(member.id, member.user.username), guild_id=guild)
    await service.start(under_way.id, Runner(club.alice.id, True), guild_id=guild)
    dropped = await created(club, "Dropped cup")
    await service.cancel(dropped.id, Runner(club.alice.id, True), guild_id=guild)
    spring = await created(club, "Spring league")
    long = await created(club, LONG_NAME)
    elsewhere = await created(club, "Elsewhere open", guild_id=guild + 1)  # another server's

    start = await suggested(club, "tournament_start", "")
    assert [c.value for c in start] == [long.id, spring.id]  # newest first
    assert start[1].name == f"#{spring.id} Spring league · registration open"
    assert [c.value for c in await suggested(club, "tournament_cancel", "")] == [
        long.id,
        spring.id,
    ]
    withdraw = await suggested(club, "tournament_withdraw", "", user=club.bob)
    assert [(c.value, c.name) for c in withdraw] == [
        (under_way.id, f"#{under_way.id} Autumn cup · under way")
    ]
    standings = await suggested(club, "tournament_standings", "")
    assert [c.value for c in standings] == [long.id, spring.id, under_way.id]

    # The long name is cut, within 100 characters however Discord counts them, its number
    # and state kept, never half an emoji.
    cut = start[0].name
    assert units(cut) <= 100 and cut.startswith(f"#{long.id} 名人戦名人戦"), cut
    assert cut.endswith("… · registration open") and "\ufffd" not in cut, cut

    # What is typed picks by name (any case) or by number.
    assert [c.value for c in await suggested(club, "tournament_standings", "SPRING")] == [spring.id]
    by_number = await suggested(club, "tournament_standings", str(under_way.id))
    assert by_number[0].value == under_way.id
    full_width = "＃" + str(under_way.id).translate(
        str.maketrans("0123456789", "０１２３４５６７８９")
    )
    assert [c.value for c in await suggested(club, "tournament_standings", full_width)] == [
        under_way.id
    ]
    assert [
        c.value for c in await suggested(club, "tournament_start", "ｓｐｒｉｎｇ　ＬＥＡＧＵＥ")
    ] == [spring.id]
    assert await suggested(club, "tournament_start", "Autumn") == []  # not taking entries
    assert await suggested(club, "tournament_start", "Elsewhere") == []
    assert await suggested(club, "tournament_start", str(elsewhere.id)) == []  # by number
    assert await suggested(club, "tournament_standings", str(dropped.id + 100)) == []

    # In the reader's language.
    club.carol.user.locale = "ja"
    japanese = await suggested(club, "tournament_standings", "", user=club.carol)
    assert japanese[1].name == f"#{spring.id} Spring league・参加受付中"
    assert japanese[2].name == f"#{under_way.id} Autumn cup・開催中"

    # A suggestion picked is the tournament the command acts on.
    cancelled = await club.fake.slash(
        "tournament_cancel", {"tournament": start[1].value}, user=club.alice, channel=club.channel
    )
    assert cancelled.ephemeral and "Spring league" in cancelled.content, cancelled.content
    assert [c.value for c in await suggested(club, "tournament_start", "")] == [long.id]


async def played_out(club: Club, name: str) -> Tournament:
    """A 3-player round robin started and finished through the service (each game
    resigned by Sente once the opener has opened it, and its result acted on)."""
    guild = club.guild.id
    service = club.service.tournaments
    tournament = await created(club, name)
    for member in (club.alice, club.bob, club.carol):
        await service.join(
            tournament.id, PlayerRef(member.id, member.user.username), guild_id=guild
        )
    change = await service.start(tournament.id, Runner(club.alice.id, True), guild_id=guild)
    assert club.bot is not None
    club.bot.opener.wake()  # as the command would
    for game_id in change.games_created:
        for _ in range(600):
            game = await club.game(game_id)
            if not game.row.clock_waits:
                break
            await asyncio.sleep(0.05)
        await club.service.endings.resign(game_id, game.sente.user_id, guild_id=guild)
        await service.game_ended(game_id)  # what the ending's post does, acted on here
    return await service.get(tournament.id, guild_id=guild)


async def test_standings_without_a_number_show_the_one_under_way_before_newer_finished_ones(
    club: Club,
) -> None:
    club.make_manager(club.alice)
    guild = club.guild.id
    under_way = await created(club, "Long league")
    for member in (club.alice, club.bob, club.carol):
        await club.service.tournaments.join(
            under_way.id, PlayerRef(member.id, member.user.username), guild_id=guild
        )
    await club.service.tournaments.start(under_way.id, Runner(club.alice.id, True), guild_id=guild)
    for name in ("Quick cup", "Quicker cup"):
        assert (await played_out(club, name)).state is State.FINISHED
    standings = await club.fake.slash("tournament_standings", user=club.bob, channel=club.channel)
    # Its crosstable, every game still to play (the finished ones' are all played).
    assert standings.ephemeral and "not played yet" in standings.content, standings.content
