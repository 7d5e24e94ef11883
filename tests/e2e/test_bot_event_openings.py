"""The one background opener of event games' threads, through the real bot and the fake
Discord: two servers, one of them at Discord's cap on active threads (the fake's, per
server, error 160006, lowered here), whose games wait for a place while the other
server's games open in their turn, the waiting games opening as soon as one of the first
server's games ends (its thread archived); and a gateway session lost in the middle of an
opening (a second `on_ready`) while features wake the opener again and again, which must
leave every game with one thread and one first post, never two; and a team match's games
counted under the server's cap of event games, one's end starting a tournament's waiting
game and waking the opener for its thread."""

from __future__ import annotations

import asyncio
import re

import pytest

from bot.services.tournaments.model import State
from tests.fakediscord import ErrorCode, FakeChannel, FakeGuild, FakeMember, Limits
from tests.fakediscord.constants import Perm
from tests.support.club import Club

from .test_bot_tournaments import table_of

#: Active threads each server may have: the first server's members' game and one more.
CAP = 2
#: Seconds the other server's games may take to open: far below the opener's wait at a
#: server's cap (`CAP_WAIT`, five minutes), which held every server before.
PROMPT = 20.0


@pytest.fixture(autouse=True)
def openings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games opened a few a second: both matches are created before the first server
    reaches its cap, so nothing wakes the opener after it."""
    monkeypatch.setattr("bot.ui.openings.OPEN_INTERVAL", 0.4)


def _manager(club: Club, guild: FakeGuild, member: FakeMember) -> None:
    role = club.fake.add_role(
        guild, "Managers", permissions=guild.everyone.permissions | Perm.MANAGE_GUILD
    )
    member.roles.append(role.id)


async def _team_match(
    club: Club, channel: FakeChannel, organizer: FakeMember, teams: list[list[FakeMember]]
) -> list[int]:
    """A team match set up in `channel`: its games, in the order they were created."""
    first, second = (" ".join(f"<@{m.id}>" for m in team) for team in teams)
    created = await club.fake.slash(
        "team_match",
        {"first_team": "East", "second_team": "West", "first_members": first,
         "second_members": second},
        user=organizer,
        channel=channel,
    )  # fmt: skip
    found = re.search(r"#(\d+)", created.content)
    assert created.ephemeral and found is not None, created.content
    match = await club.service.team_matches.get(int(found[1]))
    return sorted(match.game_ids())


async def _threaded(club: Club, game_ids: list[int]) -> list[int]:
    return [g for g in game_ids if (await club.game(g)).thread_id is not None]


async def _until_threaded(club: Club, game_ids: list[int], count: int, seconds: float) -> None:
    for _ in range(int(seconds / 0.05)):
        if len(await _threaded(club, game_ids)) >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} of {game_ids} to be opened, {await _threaded(club, game_ids)}")


async def test_a_server_at_its_thread_cap_holds_up_no_other_server(club: Club) -> None:
    second = club.fake.add_guild("Second Club", channels=("shogi",))
    elsewhere = club.fake.channel("shogi", second)
    here = [club.fake.add_member(club.guild, f"h{n}") for n in range(4)]
    there = [club.fake.add_member(second, f"t{n}") for n in range(2)]
    club.make_manager(club.alice)
    _manager(club, second, there[0])
    await club.restart()  # the bot meets the second server at its connection
    await club.new_game(club.alice, club.bob)  # the members' own game, in its thread here
    club.fake.limits = Limits(active_threads=CAP)
    club.fake.expect_rejections(ErrorCode.MAX_ACTIVE_THREADS)

    # Four games here (two boards, both colours), then two there. The servers take turns:
    # a game here, one there, the second here reaches the cap, the second there is next.
    ours = await _team_match(club, club.channel, club.alice, [here[:2], here[2:]])
    theirs = await _team_match(club, elsewhere, there[0], [there[:1], there[1:]])
    assert len(ours) == 4 and len(theirs) == 2 and max(ours) < min(theirs)
    await _until_threaded(club, theirs, 2, PROMPT)  # not held by the first server's cap
    assert len(await _threaded(club, ours)) == CAP - 1
    assert len(club.fake.threads(club.channel)) == CAP
    assert len(club.fake.threads(elsewhere)) == 2

    # A game here ends, its thread is archived: the next game here opens in its place.
    [opened] = await _threaded(club, ours)
    table = await table_of(club, opened)
    sente = (await club.game(opened)).sente.user_id
    await club.resign(table, club.member(sente))
    await _until_threaded(club, ours, 2, PROMPT)
    [_, waited] = await _threaded(club, ours)
    started = await table_of(club, waited)
    assert "East" in started.start.content, started.start.content
    await club.fake.wait_quiet(1.0)
    assert len(await _threaded(club, ours)) == 2  # and the cap holds the other two
    assert club.bot is not None
    await club.bot.sends_settled()


async def test_a_second_ready_and_many_wakes_open_no_game_twice(club: Club) -> None:
    east = [club.fake.add_member(club.guild, f"e{n}") for n in range(3)]
    west = [club.fake.add_member(club.guild, f"w{n}") for n in range(3)]
    club.make_manager(club.alice)
    assert club.bot is not None
    club.bot.opener.interval = 1.5  # the opening outlasts discord.py's 5 s before IDENTIFY
    game_ids = await _team_match(club, club.channel, club.alice, [east, west])
    assert len(game_ids) == 6
    await _until_threaded(club, game_ids, 1, PROMPT)
    # The session cannot be resumed: discord.py identifies again, and `on_ready` comes a
    # second time in the middle of the opening; meanwhile every feature's wake.
    await club.fake.drop_gateway(resumable=False)
    for _ in range(5):
        club.bot.opener.wake()
    await club.fake.wait_connected(identifies=2, timeout=20)
    assert len(await _threaded(club, game_ids)) < 6  # the second ready came mid-opening
    for _ in range(5):
        club.bot.opener.wake()
    await _until_threaded(club, game_ids, 6, PROMPT)
    await club.fake.wait_quiet(1.0)
    threads = club.fake.threads(club.channel)
    assert len(threads) == 6, [t.name for t in threads]
    assert {(await club.game(g)).thread_id for g in game_ids} == {t.id for t in threads}
    for thread in threads:
        firsts = [m for m in club.bot_posts(thread, "East") if m.attachments]
        assert len(firsts) == 1, [m.content for m in firsts]
    await club.bot.sends_settled()


async def test_a_team_match_game_ending_starts_a_waiting_tournament_game(club: Club) -> None:
    """The server's cap of event games under way counts the team match's: a tournament
    started beside a match gets only the room left, and a match game's end starts the
    tournament's next waiting game, whose thread the opener opens."""
    club.make_manager(club.alice)
    settings = await club.fake.slash(
        "tournament_settings", {"game_cap": 3}, user=club.alice, channel=club.channel
    )
    assert settings.ephemeral, settings.content
    east, west = club.fake.add_member(club.guild, "east"), club.fake.add_member(club.guild, "west")
    paired = await _team_match(club, club.channel, club.alice, [[east], [west]])
    assert len(paired) == 2
    await club.fake.slash(
        "tournament",
        {"name": "Season", "format": "round_robin", "starts": "2099-01-01 10:00"},
        user=club.alice,
        channel=club.channel,
    )
    [posted] = await club.posts(club.channel, "Season")
    join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
    for member in (club.alice, club.bob, club.carol):
        await club.fake.click(posted, join, user=member)
    started = await club.fake.slash("tournament_start", user=club.alice, channel=club.channel)
    assert started.ephemeral, started.content
    [running] = await club.service.tournaments.in_server(club.guild.id, [State.RUNNING])
    schedule = await club.service.tournaments.schedule_of(running.id)
    assert len(schedule) == 3
    created = [row.game_id for row in schedule if row.game_id is not None]
    assert len(created) == 1  # the match's two games and one of the tournament's: 3
    await _until_threaded(club, paired + created, 3, PROMPT)
    table = await table_of(club, paired[0])
    await club.fake.wait_quiet(1.0)  # the opener has found nothing more and stopped
    await club.resign(table, club.member((await club.game(paired[0])).sente.user_id))
    for _ in range(100):
        schedule = await club.service.tournaments.schedule_of(running.id)
        now = [row.game_id for row in schedule if row.game_id is not None]
        if len(now) == 2:
            break
        await asyncio.sleep(0.05)
    [waited] = [game for game in now if game not in created]
    opened = await table_of(club, waited)  # woken by the match game's end
    assert "Season" in opened.start.content, opened.start.content
    assert club.bot is not None
    await club.bot.sends_settled()


async def test_a_game_whose_opening_failed_is_tried_again(club: Club) -> None:
    """Its clock waits for its first post, so a game given up on after one failure (the
    database or Discord away for a moment) could never be played: it is tried again."""
    east = [club.fake.add_member(club.guild, f"e{n}") for n in range(1)]
    west = [club.fake.add_member(club.guild, f"w{n}") for n in range(1)]
    club.make_manager(club.alice)
    assert club.bot is not None
    opener = club.bot.opener
    opener.retry_wait = 0.5
    real_open = opener._open_game
    failed: list[int] = []

    async def fails_once(game_id: int) -> bool:
        if game_id not in failed:
            failed.append(game_id)
            raise ConnectionResetError("the database went away for a moment")
        return await real_open(game_id)

    opener._open_game = fails_once
    club.guard.expect_error_log("could not open event game")
    game_ids = await _team_match(club, club.channel, club.alice, [east, west])
    await _until_threaded(club, game_ids, len(game_ids), PROMPT)
    assert sorted(failed) == sorted(game_ids)
    for game_id in game_ids:
        assert not (await club.game(game_id)).row.clock_waits
    await club.bot.sends_settled()
