"""The bank (main time) of a `7d+1d` game shown wherever its clock is: the start post, each
move's post, `/board`, `/games` and the reminder, both players' banks, in English and in
Japanese; a game with a period only shows none."""

from __future__ import annotations

from datetime import timedelta

from tests.support.club import Club
from tests.support.japanese import assert_japanese


async def test_both_banks_are_shown_where_the_clock_is(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game(time="7d+1d")
    [start] = await club.posts(table.thread, "Main time left: ☗alice 7 days, ☖bob 7 days.")
    assert "you move first" in start.content
    club.clock.advance(timedelta(days=2, hours=3, minutes=20))
    moved = await club.move(alice, "7g7f", table)
    assert "Main time left: ☗alice 4 days 20 hours, ☖bob 7 days." in moved.content

    club.clock.advance(timedelta(days=1, minutes=30))  # bob thinks: his bank runs
    board = await club.fake.slash("board", user=bob, channel=table.thread)
    assert "Main time left: ☗alice 4 days 20 hours, ☖bob 5 days 23 hours." in board.content
    listed = await club.fake.slash("games", user=alice, channel=club.channel)
    assert ", main time ☗4 days 20 hours · ☖5 days 23 hours" in listed.content

    club.clock.advance(timedelta(days=6))  # a day before bob's deadline: his bank is gone
    club.wake_deadlines()
    [reminder] = await club.posts(table.thread, "your move is due")
    assert "Main time left: ☗alice 4 days 20 hours, ☖bob used up." in reminder.content


async def test_a_game_without_a_bank_shows_none(club: Club) -> None:
    table = await club.new_game(time="3d")
    moved = await club.move(club.alice, "7g7f", table)
    board = await club.fake.slash("board", user=club.bob, channel=table.thread)
    assert "Main time" not in moved.content + board.content


async def test_both_banks_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    yamada, hanako = club.alice, club.bob
    table = await club.new_game(time="7d+1d")
    club.clock.advance(timedelta(days=2, hours=3))
    moved = await club.move(yamada, "７六歩", table)
    assert "残り持ち時間：☗山田太郎 4日21時間、☖はなこ🌸 7日" in moved.content
    club.clock.advance(timedelta(minutes=30))
    listed = await club.fake.slash("games", user=hanako, channel=club.channel)
    assert "、残り持ち時間 ☗4日21時間・☖6日23時間" in listed.content
    assert_japanese(moved, listed)
