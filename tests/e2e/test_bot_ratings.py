"""Ratings through the real bot: a rated game's ending tells both players' new ratings,
`/rating` and `/leaderboard` show them (provisional ones marked ?), unrated and handicap
games change nothing, and `/profile` counts a member's games, names their openings and
attaches their rating chart as a PNG that Pillow decodes; the same in Japanese."""

from __future__ import annotations

import io

from PIL import Image

from render.chart import HEIGHT, WIDTH
from tests.fakediscord import FakeMember, InteractionResult
from tests.support.club import Club
from tests.support.japanese import assert_japanese


async def private(club: Club, command: str, asker: FakeMember, **options: object) -> str:
    result = await club.fake.slash(command, dict(options), user=asker, channel=club.channel)
    assert result.ephemeral, result.content
    return result.content


async def test_a_rated_ending_shows_the_change_and_fills_the_leaderboard(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    challenge = await club.challenge(alice, bob, color="sente")
    assert "rated" in challenge.content and "unrated" not in challenge.content
    table = await club.accept(challenge, bob)
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    await club.resign(table, alice)
    [ending] = await club.posts(table.thread, "resigned")
    assert "Ratings: ☗alice 1500? → 1338? (-162), ☖bob 1500? → 1662? (+162)" in ending.content

    rating = await private(club, "rating", carol, member=bob)
    assert "bob: 1662?, ranked #1 in this server (1 rated game)." in rating
    assert "provisional" in rating
    never = await private(club, "rating", carol)
    assert "carol has played no rated game in this server yet" in never and "1500?" in never
    board = await private(club, "leaderboard", carol)
    assert board.splitlines()[1:3] == ["1. bob 1662? (1 game)", "2. alice 1338? (1 game)"]
    assert "? is provisional" in board

    shown = await club.fake.slash("leaderboard", {"public": True}, user=bob, channel=club.channel)
    assert not shown.ephemeral and "1. bob 1662?" in shown.content

    await club.restart()  # the ratings are stored, not kept in memory
    assert "1. bob 1662?" in await private(club, "leaderboard", alice)


async def test_unrated_and_handicap_games_change_no_rating(club: Club) -> None:
    alice, bob = club.alice, club.bob
    for options, moves in (
        ({"rated": False}, [(bob, "7g7f"), (alice, "3c3d")]),
        ({"handicap": "two_piece"}, [(alice, "5a4b"), (bob, "7g7f")]),
    ):
        challenge = await club.challenge(alice, bob, color="gote", **options)
        assert "unrated" in challenge.content
        table = await club.accept(challenge, bob)
        await club.play(table, moves)
        await club.resign(table, alice)
        [ending] = await club.posts(table.thread, "resigned")
        assert "Ratings:" not in ending.content
    board = await private(club, "leaderboard", alice)
    assert board == "Nobody in this server has played a rated game yet."


async def test_a_profile_counts_games_and_attaches_the_rating_chart(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    for _ in range(2):
        table = await club.new_game(alice, bob)
        await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
        await club.resign(table, bob)
        await club.posts(table.thread, "resigned")
    await club.new_game(alice, carol)  # under way

    result = await club.fake.slash("profile", {"member": alice}, user=bob, channel=club.channel)
    assert result.ephemeral
    assert "Games: 2 (2 won, 0 lost, 0 drawn)." in result.content
    assert "Games under way: 1." in result.content
    assert "ranked #1 in this server (2 rated games)" in result.content
    assert "☗７六歩 (P-7f) ☖３四歩 (P-3d) (2 games)" in result.content
    [chart] = result.files
    assert chart.filename.endswith(".png") and chart.description
    assert "alice's rating" in chart.description
    image = Image.open(io.BytesIO(chart.data))
    image.load()
    assert image.format == "PNG" and image.size == (WIDTH, HEIGHT)

    fresh = await club.fake.slash("profile", {}, user=carol, channel=club.channel)
    assert "Rating: no rated game yet." in fresh.content and fresh.files == []


async def test_ratings_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    alice, bob = club.alice, club.bob
    challenge = await club.challenge(alice, bob, color="sente")
    table = await club.accept(challenge, bob)
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    await club.resign(table, bob)
    [ending] = await club.posts(table.thread, "投了")
    assert "レーティング：☗山田太郎 1500? → 1662?（+162）" in ending.content
    results: list[InteractionResult] = [
        await club.fake.slash(command, options, user=bob, channel=club.channel)
        for command, options in (
            ("rating", {}),
            ("leaderboard", {}),
            ("profile", {"member": alice}),
            ("profile", {"member": club.carol}),
        )
    ]
    assert "1位" in results[1].content and results[2].files
    assert_japanese(challenge, ending, *results)
