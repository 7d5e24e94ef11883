"""Buttons that start a game, pressed twice through the real bot and the fake Discord: Play
again, Accept, Accept unrated and Rematch, one press after the other and at the same
moment, by one member or two, start exactly one game (one thread); every other press is
answered privately in one sentence that the game started, with a link to its thread once
it has one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakediscord import (
    BotRunner,
    E2EGuard,
    FakeDiscord,
    FakeMember,
    FakeMessage,
    InteractionResult,
)
from tests.support.club import Club
from tests.support.computer_games import computer_moved, start
from tests.support.engines import fake_engine

from .test_bot_computer import computer_club

STARTED = ("already started", "already been played again", "no longer open (it was accepted)")


def told_it_started(result: InteractionResult, thread_id: int | None = None) -> None:
    assert result.ephemeral and result.files == [], result.content
    assert any(said in result.content for said in STARTED), result.content
    assert len(result.messages) == 1
    if thread_id is not None:
        assert f"It is played in <#{thread_id}>." in result.content, result.content


async def threads_settle(club: Club, count: int) -> None:
    await club.fake.wait_for(lambda: len(club.fake.threads(club.channel)) >= count, what="threads")
    await club.fake.wait_quiet()
    assert len(club.fake.threads(club.channel)) == count


async def test_play_again_twice_and_at_once_starts_one_game(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _ = fake_engine(tmp_path, "legal resign legal resign")
    club = await computer_club(fake_discord, bot_runner, e2e_guard, tmp_path, program)
    game_id, thread = await start(club, level=2, color="gote")
    await computer_moved(club, game_id, 1)
    await club.fake.slash("move", {"move": "3c3d"}, user=club.alice, channel=thread)
    [ending] = await club.posts(thread, "resigned")
    again = f"ca:{game_id}"
    first = await club.fake.click(ending, again, user=club.alice)
    assert first.ephemeral and "level 2" in first.content
    await threads_settle(club, 2)
    [game] = await club.service.games.active_for(club.alice.user.id)
    second = await club.fake.click(ending, again, user=club.alice)
    told_it_started(second, (await club.game(game.id)).thread_id)
    await threads_settle(club, 2)

    # The next game's ending, pressed three times at the same moment.
    [next_thread] = [t for t in club.fake.threads(club.channel) if t.id != thread.id]
    await club.fake.slash("move", {"move": "7g7f"}, user=club.alice, channel=next_thread)
    await computer_moved(club, game.id, 2)  # colours swapped: alice moved first
    await club.fake.slash("move", {"move": "2g2f"}, user=club.alice, channel=next_thread)
    [next_ending] = await club.posts(next_thread, "resigned")
    results = await asyncio.gather(
        *(club.fake.click(next_ending, f"ca:{game.id}", user=club.alice) for _ in range(3))
    )
    started = [r for r in results if "level 2" in r.content]
    assert len(started) == 1, [r.content for r in results]
    for result in results:
        if result is not started[0]:
            told_it_started(result)
    await threads_settle(club, 3)
    assert len(await club.service.games.active_for(club.alice.user.id)) == 1


async def press_accepts(
    club: Club, message: FakeMessage, presses: list[tuple[str, FakeMember]]
) -> list[InteractionResult]:
    """The presses (`accept` or `accept_unrated`, by whom) on a challenge, all at once."""
    ids = {c.split(":")[1]: c for c in message.custom_ids}
    clicks = (club.fake.click(message, ids[action], user=user) for action, user in presses)
    return list(await asyncio.gather(*clicks))


async def test_accept_and_accept_unrated_at_once_start_one_game(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    named = await club.challenge(alice, bob)
    assert named.reply is not None
    results = await press_accepts(
        club, named.reply, [("accept", bob), ("accept_unrated", bob), ("accept", bob)]
    )
    await threads_settle(club, 1)
    closed = [r for r in results if not r.ephemeral]
    assert len(closed) == 1, [r.content for r in results]
    for result in results:
        if result is not closed[0]:
            told_it_started(result)

    posted = await club.fake.slash("challenge", {}, user=alice, channel=club.channel)
    assert posted.reply is not None
    results = await press_accepts(
        club, posted.reply, [("accept", bob), ("accept_unrated", carol), ("accept", carol)]
    )
    await threads_settle(club, 2)
    assert sum(not r.ephemeral for r in results) == 1, [r.content for r in results]
    assert len(await club.service.games.active_for(alice.user.id)) == 2
    # Once taken, the challenge's message has no buttons left: Discord delivers no
    # later press of them (see tests/robustness/test_authority.py).
    assert club.fake.messages[posted.reply.id].custom_ids == []


async def test_both_rematch_presses_at_once_start_one_game(club: Club) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game()
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    await club.resign(table, bob)
    [ending] = await club.posts(table.thread, "resigned")
    rematch = f"rm:{table.game_id}"
    await asyncio.gather(
        club.fake.click(ending, rematch, user=alice), club.fake.click(ending, rematch, user=bob)
    )
    await threads_settle(club, 2)
    games = await club.service.games.active_for(alice.user.id)
    assert len(games) == 1
    for member in (alice, bob):
        late = await club.fake.click(ending, rematch, user=member)
        told_it_started(late, (await club.game(games[0].id)).thread_id)
    await threads_settle(club, 2)
