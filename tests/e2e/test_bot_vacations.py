"""Vacations through the real bot: /vacation start tells the opponent in the game's thread,
a deadline passing during the vacation does not end the game, /board says who is away,
/vacation end moves the deadline and tells the thread; in Japanese too."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from tests.fakediscord import FakeMember, InteractionResult
from tests.support.club import Club
from tests.support.japanese import assert_japanese


async def vacation(club: Club, member: FakeMember, action: str) -> InteractionResult:
    result = await club.fake.slash(
        "vacation", {"action": action}, user=member, channel=club.channel
    )
    assert result.ephemeral, result.content
    return result


async def checked(club: Club) -> None:
    """Wake the bot's deadline task and wait until it has checked once more."""
    assert club.bot is not None and club.bot._scheduler is not None
    scheduler = club.bot._scheduler
    before = scheduler.checks
    club.wake_deadlines()
    for _ in range(500):
        if scheduler.checks > before:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the deadline task did not check")


async def test_a_vacation_pauses_the_clock_and_the_opponent_is_told(club: Club) -> None:
    table = await club.new_game(time="1d")
    await club.play(table, [(club.alice, "P-7f")])  # Bob to move, one day
    shown = await vacation(club, club.bob, "status")
    assert "You are not on vacation." in shown.content and "14 days left" in shown.content
    started = await vacation(club, club.bob, "start")
    assert "You are on vacation until" in started.content
    assert "Your opponent was told in your game's thread." in started.content
    [post] = await club.posts(table.thread, "is on vacation until")
    assert "bob" in post.content and "clock is paused" in post.content

    club.clock.advance(timedelta(days=3))  # Bob's old deadline passed
    await checked(club)
    game = await club.game(table.game_id)
    assert game.is_active, "a vacation must not lose the game on time"
    assert not club.bot_posts(table.thread, "ran out of time")
    board = await club.fake.slash("board", {}, user=club.alice, channel=table.thread)
    assert "bob is on vacation until" in board.content

    await club.restart()  # still paused after a restart
    await checked(club)
    assert (await club.game(table.game_id)).is_active

    ended = await vacation(club, club.bob, "end")
    assert "Welcome back" in ended.content and "3 days used" in ended.content
    [back] = await club.posts(table.thread, "back from vacation")
    assert "bob to move" in back.content
    game = await club.game(table.game_id)
    assert game.deadline == club.clock.now + timedelta(days=1)
    played = await club.move(club.bob, "P-3d", table)
    assert not played.ephemeral and "on vacation" not in played.content


async def test_vacation_in_japanese(japanese_club: Club) -> None:
    club = japanese_club
    table = await club.new_game()
    status = await vacation(club, club.alice, "status")
    started = await vacation(club, club.alice, "start")
    again = await vacation(club, club.alice, "start")  # refused
    started_post = await club.posts(table.thread, "休暇に入りました")
    club.clock.advance(timedelta(hours=5))
    ended = await vacation(club, club.alice, "end")
    ended_post = await club.posts(table.thread, "休暇から戻りました")
    assert "すでに休暇中" in again.content
    assert_japanese(status, started, again, ended, *started_post, *ended_post)


async def test_a_vacation_names_the_sente_player_who_took_it_on_gotes_turn(club: Club) -> None:
    """Sente (alice) goes away while it is gote's turn: the thread names alice both times.
    Her colour is `Color.SENTE`, which once read as false where `or` picked the player to
    move instead, so the thread said that bob had gone."""
    table = await club.new_game(time="1d")
    await club.play(table, [(club.alice, "P-7f")])  # bob to move
    await vacation(club, club.alice, "start")
    [away] = await club.posts(table.thread, "is on vacation until")
    assert away.content.startswith("alice is on vacation"), away.content
    await vacation(club, club.alice, "end")
    [back] = await club.posts(table.thread, "back from vacation")
    assert back.content.startswith("alice is back from vacation"), back.content
