"""Fair play through the real bot and the fake Discord: a second account that accepts and
resigns at once farms no rating (each of those games is aborted and its ending says why
it is not rated), in English and in Japanese; and a record exported while the game goes
on carries no analysis link, which comes with the finished game's."""

from __future__ import annotations

from datetime import timedelta

from tests.support.club import Club
from tests.support.japanese import assert_japanese

NOT_RATED = "Not rated: the game ended before both players had moved."
NOT_RATED_JA = "双方が一手ずつ指す前に終局したため、レーティングには反映されません。"


async def test_five_accepted_and_resigned_games_farm_no_rating(club: Club) -> None:
    alice, farm = club.alice, club.bob
    for _ in range(5):
        challenge = await club.challenge(alice, farm)
        assert "unrated" not in challenge.content
        table = await club.accept(challenge, farm)
        ask = await club.fake.slash("resign", user=farm, channel=table.thread)
        assert ask.ephemeral and "aborts it without a result" in ask.content
        await club.fake.click(ask, f"rs:{table.game_id}", user=farm)
        [ending] = await club.posts(table.thread, "aborted")
        assert NOT_RATED in ending.content and "Ratings:" not in ending.content
        assert "wins" not in ending.content
    rating = await club.fake.slash("rating", {"member": alice}, user=alice, channel=club.channel)
    assert "alice has played no rated game in this server yet" in rating.content
    board = await club.fake.slash("leaderboard", user=alice, channel=club.channel)
    assert board.content == "Nobody in this server has played a rated game yet."
    profile = await club.fake.slash("profile", {"member": alice}, user=alice, channel=club.channel)
    assert "0 won" in profile.content  # an abort is nobody's win


async def test_a_time_out_before_both_have_moved_says_it_is_not_rated(club: Club) -> None:
    table = await club.new_game(club.alice, club.bob, time="1d")
    await club.play(table, [(club.alice, "7g7f")])
    club.clock.advance(timedelta(days=2))
    club.wake_deadlines()
    [ending] = await club.posts(table.thread, "did not make a first move in time")
    assert NOT_RATED in ending.content


async def test_the_early_abort_speaks_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game(club.alice, club.bob)
    await club.resign(table, club.bob)
    [ending] = await club.posts(table.thread, NOT_RATED_JA)
    assert_japanese(ending)
    assert "中止" in ending.content


async def test_an_active_games_export_has_no_analysis_link_until_it_ends(club: Club) -> None:
    table = await club.new_game(club.alice, club.bob)
    await club.play(table, [(club.alice, "7g7f"), (club.bob, "3c3d")])
    during = await club.fake.slash("export", user=club.alice, channel=table.thread)
    assert during.files and "lishogi.org" not in during.content
    assert "The lishogi analysis link comes once the game is over." in during.content
    await club.resign(table, club.bob)
    await club.posts(table.thread, "resigned")
    after = await club.fake.slash("export", user=club.alice, channel=table.thread)
    assert "lishogi.org/analysis/" in after.content


async def test_accept_pressed_after_its_button_was_taken_away_is_answered(club: Club) -> None:
    """A member whose client still shows Accept a moment after the other player pressed it
    sends a press for a message that no longer carries the button: discord.py drops it
    unanswered ("This interaction failed"); the bot answers it as a stale button."""
    challenge = await club.challenge(club.alice, club.bob)
    message = challenge.reply
    assert message is not None
    accept_id = next(c for c in message.custom_ids if c.startswith("ch:accept:"))
    await club.accept(challenge, club.bob)
    assert accept_id not in message.custom_ids
    late = await club.fake.forge_click(message, accept_id, user=club.bob, channel=club.channel)
    await late.wait_final(timeout=10)
    assert late.ephemeral and "This button no longer works" in late.content, late.content
    assert len(club.fake.threads(club.channel)) == 1
