"""Tournaments played through the real bot against the fake Discord, to their final post:
created with `/tournament`, entered with Join, started with `/tournament_start`, each game
opened in its own thread with the tournament, round and board in its first post, results
by resignation, a time-out through the moved clock and a withdrawal, and the standings
of the final post checked against a computation of the test's own."""

from __future__ import annotations

import asyncio
import io
import re
import zipfile
from datetime import timedelta, tzinfo
from fractions import Fraction
from zoneinfo import ZoneInfo

import pytest
from PIL import Image

from bot.services.tournaments.model import Runner, State
from tests.fakediscord import FakeChannel, FakeMember, FakeMessage
from tests.support.club import Club, Table

TOKYO = ZoneInfo("Asia/Tokyo")


@pytest.fixture(autouse=True)
def quick_openings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Games' threads opened a few a second, not Discord's one (the fake has no other
    traffic to leave room for)."""
    monkeypatch.setattr("bot.ui.openings.OPEN_INTERVAL", 0.05)


def start_text(club: Club, zone: tzinfo, *, days: int = 1) -> str:
    return (club.clock.now + timedelta(days=days)).astimezone(zone).strftime("%Y-%m-%d %H:%M")


async def announcement(club: Club, marker: str) -> FakeMessage:
    [message] = await club.posts(club.channel, marker)
    return message


async def join_all(club: Club, message: FakeMessage, members: list[FakeMember]) -> None:
    join = next(c for c in message.custom_ids if c.startswith("tj:join:"))
    for member in members:
        result = await club.fake.click(message, join, user=member)
        assert result.ephemeral, result.content


def thread_of(club: Club, thread_id: int | None) -> FakeChannel:
    assert thread_id is not None
    [thread] = [t for t in club.fake.threads(club.channel) if t.id == thread_id]
    return thread


async def table_of(club: Club, game_id: int) -> Table:
    """The game's thread and first post, once opened (in the background after a start)."""
    for _ in range(400):
        game = await club.game(game_id)
        if game.thread_id is not None:
            break
        await asyncio.sleep(0.05)
    thread = thread_of(club, game.thread_id)
    await club.fake.wait_for(
        lambda: any(m.attachments for m in club.fake.channel_history(thread)),
        what=f"game {game_id}'s first post",
    )
    return Table(game_id, thread, club.fake.channel_history(thread)[0])


def bracket_text(posted: FakeMessage) -> str:
    """The text for screen readers of the bracket image a post carries ("" if none)."""
    for attachment in posted.attachments:
        if attachment.filename == "bracket.png":
            return attachment.description or ""
    return ""


def scores_in(description: str, line: str) -> dict[str, tuple[int, Fraction]]:
    """Each player's rank and points as the crosstable's text gives them (`line` the
    catalog's sentence, its placeholders read back)."""
    pattern = re.escape(line)
    for key, group in (
        ("rank", r"\d+"),
        ("name", r".+?"),
        ("points", r"[0-9½¼¾.]+"),
        ("sb", r"\S+"),
    ):
        pattern = pattern.replace(re.escape("{" + key + "}"), f"(?P<{key}>{group})")
    found = {}
    for match in re.finditer(pattern, description):
        text = match["points"]
        value = Fraction(0)
        for glyph, part in (("½", Fraction(1, 2)), ("¼", Fraction(1, 4)), ("¾", Fraction(3, 4))):
            if glyph in text:
                value += part
                text = text.replace(glyph, "")
        found[match["name"]] = (int(match["rank"]), value + (Fraction(text) if text else 0))
    return found


async def test_a_round_robin_is_played_to_its_final_post_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    players = [club.alice, club.bob, club.carol] + [
        club.fake.add_member(club.guild, name) for name in ("佐藤", "鈴木", "高橋")
    ]
    for member in players:
        member.user.locale = "ja"
    names = [member.user.username for member in players]
    club.make_manager(club.alice)
    created = await club.fake.slash(
        "tournament",
        {"name": "春季リーグ", "format": "round_robin", "starts": start_text(club, TOKYO)},
        user=club.alice,
        channel=club.channel,
    )
    assert created.ephemeral and "大会#" in created.content, created.content
    posted = await announcement(club, "春季リーグ")
    assert "参加者 0人" in posted.content
    await join_all(club, posted, players)
    await club.fake.wait_for(lambda: "参加者 6人" in posted.content, what="six entrants listed")
    assert all(name in posted.content for name in names)

    # Join pressed again: one sentence, nothing changes.
    join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
    again = await club.fake.click(posted, join, user=club.bob)
    assert again.ephemeral and "すでに" in again.content, again.content

    started = await club.fake.slash("tournament_start", user=club.alice, channel=club.channel)
    assert started.ephemeral, started.content
    await club.posts(club.channel, "開幕")
    [running] = await club.service.tournaments.in_server(club.guild.id, [State.RUNNING])
    schedule = await club.service.tournaments.schedule_of(running.id)
    assert len(schedule) == 15 and all(row.game_id is not None for row in schedule)
    await club.fake.wait_quiet(0.2)
    assert posted.custom_ids == []  # registration is over: no Join any more

    index = {member.id: number for number, member in enumerate(players)}
    tables = {row.game_id: await table_of(club, row.game_id) for row in schedule if row.game_id}
    first = tables[schedule[0].game_id].start  # type: ignore[index]
    assert "春季リーグ" in first.content and "回戦" in first.content and "第" in first.content

    withdrawn, late = players[5], (players[1], players[2])
    # Every game decided on the board: the player listed first wins it, by the other's
    # resignation; the withdrawn player loses three games so, then withdraws; one game is
    # lost on time by the player to move (sente), once the clock moves past its deadline.
    expected: dict[int, Fraction] = {member.id: Fraction(0) for member in players}
    withdrawn_games = 0
    timed_out = None
    for row in schedule:
        sente, gote = row.game.sente_id, row.game.gote_id
        winner, loser = (sente, gote) if index[sente] < index[gote] else (gote, sente)
        if {sente, gote} == {m.id for m in late}:
            timed_out = row
            expected[gote] += 1
            continue
        if withdrawn.id in (sente, gote):
            expected[winner] += 1  # by resignation or by forfeit once they withdraw
            if withdrawn_games == 3:
                continue
            withdrawn_games += 1
        else:
            expected[winner] += 1
        assert row.game_id is not None
        await club.resign(tables[row.game_id], club.member(loser))
        await club.posts(tables[row.game_id].thread, "投了")

    left = await club.fake.slash("tournament_withdraw", user=withdrawn, channel=club.channel)
    assert left.ephemeral and "棄権" in left.content, left.content

    assert timed_out is not None and timed_out.game_id is not None
    club.clock.advance(timedelta(days=4))
    club.wake_deadlines()
    [final] = await club.posts(club.channel, "おめでとうございます")
    assert names[0] in final.content
    pictures = [a for a in final.attachments if a.filename.endswith(".png")]
    [archive] = [a for a in final.attachments if a.filename.endswith(".zip")]
    assert len(pictures) == 1 and pictures[0].description is not None
    line = "{rank}位 {name}：得点{points}、SB {sb}。"
    shown = scores_in(pictures[0].description, line)
    ranked = sorted(expected, key=lambda player: -expected[player])  # no two level here
    assert len(set(expected.values())) == len(players)
    assert shown == {
        names[index[player]] + ("（棄権）" if player == withdrawn.id else ""): (
            place,
            expected[player],
        )
        for place, player in enumerate(ranked, start=1)
    }
    listed = zipfile.ZipFile(io.BytesIO(archive.data)).namelist()
    kif = [name for name in listed if name.endswith(".kifu")]
    assert len(kif) == 13  # 15 games, less the 2 of the withdrawn player never finished
    record = zipfile.ZipFile(io.BytesIO(archive.data)).read(kif[0]).decode()
    assert "棋戦：春季リーグ" in record
    exported = await club.fake.slash(
        "export",
        {"game": str(schedule[0].game_id), "format": "kifu"},
        user=club.alice,
        channel=club.channel,
    )
    [one] = exported.files
    assert "棋戦：春季リーグ" in one.data.decode()  # its tournament, not the server
    profile = await club.fake.slash("profile", user=club.bob, channel=club.channel)
    place = ranked.index(club.bob.id) + 1
    assert "参加した大会：" in profile.content, profile.content
    assert f"春季リーグ：{place}位（終了）" in profile.content, profile.content
    assert club.bot is not None
    await club.bot.sends_settled()  # the turns' and endings' direct messages have gone out


async def test_a_knockout_replays_a_draw_and_survives_a_restart_in_english(club: Club) -> None:
    players = [club.alice, club.bob, club.carol] + [
        club.fake.add_member(club.guild, name) for name in ("dan", "eve", "fay", "gus", "hal")
    ]
    index = {member.id: number for number, member in enumerate(players)}
    club.make_manager(club.alice)
    assert club.bot is not None
    zone = await club.bot.server_zone(club.guild.id)
    created = await club.fake.slash(
        "tournament",
        {
            "name": "Autumn Cup",
            "format": "knockout",
            "starts": start_text(club, zone),
            "max_players": 8,
            "closes": (club.clock.now + timedelta(hours=1))
            .astimezone(zone)
            .strftime("%Y-%m-%d %H:%M"),
        },
        user=club.alice,
        channel=club.channel,
    )
    assert created.ephemeral and "Tournament #" in created.content, created.content
    posted = await announcement(club, "Autumn Cup")
    await join_all(club, posted, players)
    await club.fake.wait_for(lambda: "8 of 8 players" in posted.content, what="a full field")
    one_more = club.fake.add_member(club.guild, "ivy")
    join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
    full = await club.fake.click(posted, join, user=one_more)
    assert full.ephemeral and "full" in full.content, full.content
    club.clock.advance(timedelta(hours=2))  # registration has closed, the start is to come
    late = await club.fake.click(posted, join, user=one_more)
    assert late.ephemeral and "closed" in late.content, late.content

    started = await club.fake.slash("tournament_start", user=club.alice, channel=club.channel)
    assert started.ephemeral, started.content
    await club.posts(club.channel, "has started")
    [running] = await club.service.tournaments.in_server(club.guild.id, [State.RUNNING])

    # Join after the start (the button is gone, a modified client still sends it), and a
    # forged id: one sentence each.
    await club.fake.wait_for(lambda: posted.custom_ids == [], what="Join and Leave gone")
    gone = await club.fake.forge_click(posted, join, user=one_more, channel=club.channel)
    await gone.wait_final()
    assert gone.ephemeral and "no longer works" in gone.content, gone.content
    forged = await club.fake.forge_click(
        posted, "tj:join:99999999999999999999999", user=one_more, channel=club.channel
    )
    await forged.wait_final()
    assert forged.ephemeral and forged.content, forged.content

    handled: set[int] = set()
    drawn: int | None = None
    restarted = False
    for _ in range(60):
        if club.bot_posts(club.channel, "Congratulations"):
            break
        rows = await club.service.tournaments.schedule_of(running.id)
        waiting = [r for r in rows if r.game_id is not None and r.game_id not in handled]
        if not waiting:
            await club.fake.wait_quiet(0.2)
            continue
        for row in waiting:
            assert row.game_id is not None
            table = await table_of(club, row.game_id)
            heading = table.start.content
            assert f"round {row.game.round}, board {row.game.board}" in heading, heading
            sente, gote = club.member(row.game.sente_id), club.member(row.game.gote_id)
            handled.add(row.game_id)
            if drawn is None:  # the first game is drawn by repetition, and replayed
                drawn = row.game_id
                shuffle = [(sente, "5i5h"), (gote, "5a5b"), (sente, "5h5i"), (gote, "5b5a")]
                await club.play(table, shuffle * 3)
                await club.posts(table.thread, "Sennichite")
                continue
            _, high = sorted((row.game.sente_id, row.game.gote_id), key=index.__getitem__)
            await club.resign(table, club.member(high))
            await club.posts(table.thread, "resign")
            if not restarted:
                restarted = True
                await club.restart()
    [final] = await club.posts(club.channel, "Congratulations")
    assert "Winner: alice" in final.content
    assert any(a.filename.endswith(".zip") for a in final.attachments)

    # The bracket in the announcement and the final post, an image whose text says each
    # match won by the one listed earlier, and a replayed draw counted once.
    rows = await club.service.tournaments.schedule_of(running.id)
    assert len(rows) == 8 and sum(1 for r in rows if r.result == "draw") == 1
    names = {member.id: member.user.username for member in players}
    await club.fake.wait_for(
        lambda: "alice is the champion." in bracket_text(posted), what="the final bracket"
    )
    [picture] = [a for a in final.attachments if a.filename == "bracket.png"]
    assert picture.description == bracket_text(posted)
    with Image.open(io.BytesIO(picture.data)) as image:
        assert image.format == "PNG" and image.width > image.height > 100
    matches = {}
    for row in rows:
        pair = frozenset((row.game.sente_id, row.game.gote_id))
        matches[pair] = min(pair, key=index.__getitem__)
    assert len(matches) == 7 and restarted
    shown = {
        (frozenset((found["first"], found["second"])), found["winner"])
        for found in re.finditer(
            r"^(?P<first>\w+) \(seed \d\) against (?P<second>\w+) \(seed \d\): "
            r"[^\n]*?(?P<winner>\w+) goes through\.$",
            bracket_text(posted),
            re.MULTILINE,
        )
    }
    assert shown == {
        (frozenset(names[p] for p in pair), names[winner]) for pair, winner in matches.items()
    }
    assert bracket_text(posted).count("drawn and replayed") == 1
    # Each later round's post carries the bracket as it was paired: its new round named.
    for number, name in ((2, "Semifinals:"), (3, "Final:")):
        [begun] = club.bot_posts(club.channel, f"round {number} begins")
        assert name in bracket_text(begun) and "champion" not in bracket_text(begun)
    standings = await club.fake.slash("tournament_standings", user=club.bob, channel=club.channel)
    assert standings.ephemeral and [f.filename for f in standings.files] == ["bracket.png"]
    assert standings.content.startswith("Knockout bracket of 8 players.\nalice is the champion.")
    assert club.bot is not None
    await club.bot.sends_settled()


async def test_games_created_before_a_stop_get_their_threads_after_the_restart(
    club: Club,
) -> None:
    """The tournament starts (its games stored) but the process stops before it opens
    their threads: as the service alone does it, below the Discord layer. The next start,
    days later, opens each game's thread with its first post, and each game's clock
    starts then, with its full time: none of it ran while nobody could see the game."""
    club.make_manager(club.alice)
    assert club.bot is not None
    zone = await club.bot.server_zone(club.guild.id)
    await club.fake.slash(
        "tournament",
        {"name": "Cup", "format": "round_robin", "starts": start_text(club, zone)},
        user=club.alice,
        channel=club.channel,
    )
    posted = await announcement(club, "Cup")
    await join_all(club, posted, [club.alice, club.bob, club.carol])
    [tournament] = await club.service.tournaments.in_server(club.guild.id, [State.REGISTRATION])
    await club.bot.wait_until_ready()  # its own look for left-over games is done
    await club.fake.wait_quiet(0.2)
    change = await club.service.tournaments.start(
        tournament.id, Runner(club.alice.id, True), guild_id=club.guild.id
    )
    assert len(change.games_created) == 3
    assert club.fake.threads(club.channel) == []
    # Before its thread: a move is refused with one sentence, /games says why no deadline.
    waiting = await club.game(change.games_created[0])
    assert waiting.to_move is not None
    early = await club.fake.slash(
        "move",
        {"move": "7g7f", "game": str(waiting.id)},
        user=club.member(waiting.to_move.user_id),
        channel=club.channel,
    )
    assert early.ephemeral and "thread is still being opened" in early.content, early.content
    listed = await club.fake.slash("games", user=club.alice, channel=club.channel)
    assert "its thread is being opened" in listed.content, listed.content
    club.clock.advance(timedelta(days=5))  # longer than any turn: the bot was down
    club.wake_deadlines()
    await club.fake.wait_quiet(0.5)
    await club.restart()
    opened_at = club.clock.now
    await club.fake.wait_for(lambda: len(club.fake.threads(club.channel)) == 3, what="3 threads")
    for game_id in change.games_created:
        table = await table_of(club, game_id)
        assert "Cup**, round" in table.start.content, table.start.content
        game = await club.game(game_id)
        control = game.time_control
        assert game.is_active and control.period is not None
        assert game.started_at == opened_at
        assert game.deadline == opened_at + control.bank + control.period
        assert f"<t:{int(game.deadline.timestamp())}:R>" in table.start.content
    assert len(club.fake.threads(club.channel)) == 3


async def test_a_knockout_past_one_images_players_shows_its_bracket_as_text(club: Club) -> None:
    """65 players (a first round of 64 pairings, too many for one readable image): the
    announcement names the pairings as text and carries no image."""
    club.make_manager(club.alice)
    assert club.bot is not None
    zone = await club.bot.server_zone(club.guild.id)
    await club.fake.slash(
        "tournament",
        {"name": "大会", "format": "knockout", "starts": start_text(club, zone), "max_players": 65},
        user=club.alice,
        channel=club.channel,
    )
    posted = await announcement(club, "大会")
    members = [club.fake.add_member(club.guild, f"p{n}") for n in range(65)]
    await join_all(club, posted, members)
    started = await club.fake.slash("tournament_start", user=club.alice, channel=club.channel)
    assert started.ephemeral, started.content
    await club.fake.wait_for(lambda: "Round 1:" in posted.content, what="the bracket as text")
    assert bracket_text(posted) == "" and not posted.attachments
    assert "p63 against p64" in posted.content  # seeds 64 and 65: every other has a bye
