"""A team match played through the real bot against the fake Discord, in a Japanese
server, to its final post: created with `/団体戦` from two lists of members, the
announcement naming the lineup, each game opened in its own thread with the match and the
board in its first post, results by resignation, the scoreboard edited into the
announcement after every result (its image with the score as alt text), the post when
the match is decided early and the final post, whose figures are checked against a count
of the test's own."""

from __future__ import annotations

import re
from fractions import Fraction

from tests.fakediscord import ErrorCode, FakeMember
from tests.support.club import Club, Table

from .test_bot_tournaments import table_of

EAST_NAMES = ("佐藤", "鈴木", "高橋")
WEST_NAMES = ("田中", "伊藤", "渡辺")


def mentions(members: list[FakeMember]) -> str:
    return " ".join(f"<@{member.id}>" for member in members)


def figure(text: str) -> Fraction:
    return Fraction(text.replace("½", "")) + (Fraction(1, 2) if "½" in text else 0)


async def test_a_three_board_match_is_played_to_its_final_post_in_japanese(
    japanese_club: Club,
) -> None:
    club = japanese_club
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
    await club.fake.wait_for(
        lambda: len(club.fake.threads(club.channel)) == 6, what="the six games' threads"
    )
    tables: dict[int, Table] = {}
    for place in match.games:
        assert place.game_id is not None
        tables[place.game_id] = await table_of(club, place.game_id)
        heading = tables[place.game_id].start.content
        assert "団体戦 東軍 対 西軍" in heading and f"{place.board}将" in heading, heading
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
    [picture] = final.attachments
    assert picture.filename.endswith(".png") and picture.description
    # Decided early: East's fourth game point came with games still to play.
    [decided] = await club.posts(club.channel, "の勝利が決まりました")
    assert "東軍" in decided.content and "残りの" in decided.content
    # The announcement carries the final scoreboard, edited after the last result.
    await club.fake.wait_for(
        lambda: "勝利" in announcement.content and bool(announcement.attachments),
        what="the final scoreboard in the announcement",
    )
    assert club.bot is not None
    await club.bot.sends_settled()
