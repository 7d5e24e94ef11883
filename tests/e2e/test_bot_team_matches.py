"""A team match played through the real bot against the fake Discord, in a Japanese
server, to its final post: created with `/団体戦` from two lists of members, the
announcement naming the lineup, each game opened in the background in its own thread with
the match and the board in its first post, the bot restarted in the middle of the opening
(a thread being created as it stops) and every game then with exactly one thread and one
first post, results by resignation, the scoreboard edited into the
announcement after every result (its image with the score as alt text), the post when
the match is decided early and the final post, whose figures are checked against a count
of the test's own."""

from __future__ import annotations

import asyncio
import io
import re
import zipfile
from fractions import Fraction

import pytest

from tests.fakediscord import ErrorCode, FakeMember
from tests.support.club import Club, Table

from .test_bot_tournaments import table_of

EAST_NAMES = ("佐藤", "鈴木", "高橋")
WEST_NAMES = ("田中", "伊藤", "渡辺")
#: Discord's route that opens a thread in a channel (an event game's).
CHANNEL_THREAD = "POST /channels/{channel_id}/threads"
#: Seconds between two games' threads: long enough to restart between two of them.
INTERVAL = 0.3


def mentions(members: list[FakeMember]) -> str:
    return " ".join(f"<@{member.id}>" for member in members)


def figure(text: str) -> Fraction:
    return Fraction(text.replace("½", "")) + (Fraction(1, 2) if "½" in text else 0)


async def _threads_stored(club: Club, game_ids: list[int], count: int) -> None:
    for _ in range(300):
        stored = [(await club.game(g)).thread_id for g in game_ids]
        if sum(t is not None for t in stored) >= count:
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"{count} threads expected, {stored} stored")


async def test_a_three_board_match_is_played_to_its_final_post_in_japanese(
    japanese_club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.ui.openings.OPEN_INTERVAL", INTERVAL)
    club = japanese_club
    await club.restart()  # an opener at this test's pace
    east = [club.fake.add_member(club.guild, name) for name in EAST_NAMES]
    west = [club.fake.add_member(club.guild, name) for name in WEST_NAMES]
    for member in east + west:
        member.user.locale = "ja"
    club.make_manager(club.alice)

    # A member who may not run tournaments is refused with one sentence.
    refused = await club.fake.slash(
        "team_match",
        {"first_team": "東軍", "second_team": "西軍", "first_members": mentions(east),
         "second_members": mentions(west)},
        user=club.bob,
        channel=club.channel,
    )  # fmt: skip
    assert refused.ephemeral and "団体戦を行えるのは" in refused.content, refused.content
    # A mention of nobody in this server: one sentence, nothing created.
    club.fake.expect_rejections(ErrorCode.UNKNOWN_MEMBER)  # the bot looked them up
    stranger = await club.fake.slash(
        "team_match",
        {"first_team": "東軍", "second_team": "西軍", "first_members": mentions(east),
         "second_members": "<@123456789>"},
        user=club.alice,
        channel=club.channel,
    )  # fmt: skip
    assert stranger.ephemeral and "メンバーではありません" in stranger.content, stranger.content

    created = await club.fake.slash(
        "team_match",
        {"first_team": "東軍", "second_team": "西軍", "first_members": mentions(east),
         "second_members": mentions(west)},
        user=club.alice,
        channel=club.channel,
    )  # fmt: skip
    assert created.ephemeral and "団体戦#" in created.content, created.content
    [announcement] = await club.posts(club.channel, "**団体戦#")
    # Everyone is unrated (1500): the boards follow the lists' order.
    for board, (a, b) in enumerate(zip(EAST_NAMES, WEST_NAMES, strict=True), start=1):
        assert f"{board}将：{a}（東軍）対 {b}（西軍）" in announcement.content, announcement.content

    match_id = int(re.search(r"団体戦#(\d+)", created.content)[1])  # type: ignore[index]
    match = await club.service.team_matches.get(match_id)
    assert len(match.games) == 6
    game_ids = match.game_ids()
    # The threads open in the background, a game at a time. The bot stops after two,
    # while Discord is creating the next one (its answer slow): once started again, it
    # finds the rest in the database and opens each once.
    await _threads_stored(club, game_ids, 2)
    slow = club.fake.inject_fault(CHANNEL_THREAD, delay=1.0)
    await club.fake.wait_for(lambda: slow.hits == 1, what="a thread being created")
    await club.restart()
    await _threads_stored(club, game_ids, 6)
    await club.fake.wait_quiet(3 * INTERVAL)
    threads = club.fake.threads(club.channel)
    assert len(threads) == 6, [t.name for t in threads]
    assert {(await club.game(g)).thread_id for g in game_ids} == {t.id for t in threads}
    tables: dict[int, Table] = {}
    for place in match.games:
        assert place.game_id is not None
        tables[place.game_id] = await table_of(club, place.game_id)
        heading = tables[place.game_id].start.content
        assert "団体戦 東軍 対 西軍" in heading and f"{place.board}将" in heading, heading
        firsts = club.bot_posts(tables[place.game_id].thread, "団体戦 東軍 対 西軍")
        assert len(firsts) == 1, [m.content for m in firsts]
        # Its clock started as this first post was made, so the post shows its deadline.
        game = await club.game(place.game_id)
        control = game.time_control
        assert control.period is not None and game.deadline is not None
        assert game.deadline == game.started_at + control.bank + control.period
        assert f"<t:{int(game.deadline.timestamp())}:R>" in heading, heading

    # Who wins each game, by board: East both on board 1, the boards 2 and 3 split. East
    # wins 4 to 2 on game points, 2 to 1 on board points; its fourth point, with a game
    # still to play, decides the match early.
    winners = {
        (1, 1): "east", (1, 2): "east",
        (2, 1): "west", (2, 2): "east",
        (3, 1): "east", (3, 2): "west",
    }  # fmt: skip
    east_ids = {m.id for m in east}
    points = {"east": Fraction(0), "west": Fraction(0)}
    by_board: dict[int, dict[str, Fraction]] = {}
    for place in sorted(match.games, key=lambda g: (g.game_number, g.board)):
        assert place.game_id is not None
        side = winners[(place.board, place.game_number)]
        east_player = place.sente_id if place.sente_id in east_ids else place.gote_id
        west_player = place.gote_id if east_player == place.sente_id else place.sente_id
        loser = west_player if side == "east" else east_player
        await club.resign(tables[place.game_id], club.member(loser))
        await club.posts(tables[place.game_id].thread, "投了")
        points[side] += 1
        tally = by_board.setdefault(place.board, {"east": Fraction(0), "west": Fraction(0)})
        tally[side] += 1

    boards = {"east": Fraction(0), "west": Fraction(0)}
    for tally in by_board.values():
        if tally["east"] == tally["west"]:
            boards["east"] += Fraction(1, 2)
            boards["west"] += Fraction(1, 2)
        else:
            boards["east" if tally["east"] > tally["west"] else "west"] += 1
    winner = (
        "東軍" if (points["east"], boards["east"]) > (points["west"], boards["west"]) else "西軍"
    )

    [final] = await club.posts(club.channel, "おめでとうございます")
    assert f"{winner}の勝利です" in final.content, final.content
    found = re.search(r"対局の得点 (\S+)対(\S+)、将ごとの勝ち点 (\S+)対(\S+)。", final.content)
    assert found is not None, final.content
    shown = tuple(figure(found[n]) for n in range(1, 5))
    assert shown == (points["east"], points["west"], boards["east"], boards["west"])
    [picture, archive] = final.attachments
    assert picture.filename.endswith(".png") and picture.description
    # Every game's records, filed by board and game, sente first, each naming the match.
    assert archive.filename == "team-match.zip", archive.filename
    zipped = zipfile.ZipFile(io.BytesIO(archive.data))
    kifu = sorted(name for name in zipped.namelist() if name.endswith(".kifu"))
    named = {member.id: member.user.username for member in east + west}
    expected_files = []
    for place in sorted(match.games, key=lambda g: (g.board, g.game_number)):
        sente, gote = named[place.sente_id], named[place.gote_id]
        expected_files.append(
            f"kifu/R01-B{place.board:02d}-{place.game_number} ▲{sente} △{gote}.kifu"
        )
    assert kifu == expected_files
    record = zipped.read(kifu[0]).decode()
    assert "棋戦：団体戦 東軍 対 西軍" in record and "投了" in record, record
    # Decided early: East's fourth game point came with games still to play.
    [decided] = await club.posts(club.channel, "の勝利が決まりました")
    assert "東軍" in decided.content and "残りの" in decided.content
    # The announcement carries the final scoreboard, edited after the last result.
    await club.fake.wait_for(
        lambda: "勝利" in announcement.content and bool(announcement.attachments),
        what="the final scoreboard in the announcement",
    )

    # Each player's profile lists the match: their team, board and its score, the result.
    def board_of(member: FakeMember) -> tuple[int, Fraction, Fraction]:
        side = "east" if member in east else "west"
        other = "west" if side == "east" else "east"
        [number] = {g.board for g in match.games if member.id in (g.sente_id, g.gote_id)}
        return number, by_board[number][side], by_board[number][other]

    mine = await club.fake.slash("profile", user=east[0], channel=club.channel)
    number, ours, theirs = board_of(east[0])
    ours_total, theirs_total = (figure(found[1]), figure(found[2]))
    assert "出場した団体戦：" in mine.content, mine.content
    assert (
        f"東軍 対 西軍（東軍・{number}将 {ours}対{theirs}）："
        f"{ours_total}対{theirs_total}で{'勝ち' if winner == '東軍' else '負け'}"
    ) in mine.content, mine.content
    club.alice.user.locale = "en-US"  # an English reader looks a player up
    looked_up = await club.fake.slash(
        "profile", {"member": west[1]}, user=club.alice, channel=club.channel
    )
    number, ours, theirs = board_of(west[1])
    outcome = "lost" if winner == "東軍" else "won"
    assert "Team matches:" in looked_up.content, looked_up.content
    assert (
        f"東軍 v 西軍 (西軍, board {number}: {ours} to {theirs}): "
        f"{outcome} {theirs_total} to {ours_total}"
    ) in looked_up.content, looked_up.content

    assert club.bot is not None
    await club.bot.sends_settled()
