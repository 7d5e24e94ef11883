"""A member who mashes the buttons that start a game: Play again eight times at the same
moment and once more later, and Accept with Accept unrated on another challenge, while two
other members play their game. One game starts per button; every other press gets one
private sentence; the other members' move is answered with its board meanwhile; the event
loop never stalls for 100 ms; and nothing is left running."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord, FakeMessage
from tests.support.checks import assert_board
from tests.support.club import open_club
from tests.support.engines import fake_engine
from tests.support.stall import LoopProbe

MASHES = 8


async def test_mashing_play_again_and_accept_starts_one_game_each(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    program, _ = fake_engine(tmp_path, "resign")
    club = await open_club(fake_discord, bot_runner, e2e_guard, tmp_path, engine_path=program)
    alice, bob, carol = club.alice, club.bob, club.carol
    started = await club.fake.slash(
        "computer", {"level": 1, "color": "gote"}, user=alice, channel=club.channel
    )
    assert not started.ephemeral, started.content
    [thread] = club.fake.threads(club.channel)
    [ending] = await club.posts(thread, "/export")  # it resigned at once: aborted
    others = await club.new_game(bob, carol)
    offered = await club.challenge(carol, alice)
    assert offered.reply is not None
    accepts = [c for c in offered.reply.custom_ids if c.startswith("ch:accept")]
    assert len(accepts) == 2

    async with LoopProbe() as probe:
        presses = [
            club.fake.click(ending, f"ca:{ending_game(ending)}", user=alice) for _ in range(MASHES)
        ]
        presses += [club.fake.click(offered.reply, accepts[i % 2], user=alice) for i in range(4)]
        move = club.move(bob, "7g7f", others)
        *answers, played = await asyncio.gather(*presses, move)
    assert probe.worst < 0.1, probe.report()

    assert not played.ephemeral and played.content.startswith("1. ☗"), played.content
    assert_board(played.files)
    for answer in answers:
        assert answer.reply is not None and answer.content.strip(), answer
        assert len(answer.messages) == 1 and not answer.files
    again = answers[:MASHES]
    assert sum("level 1" in a.content for a in again) == 1, [a.content for a in again]
    assert sum(not a.ephemeral for a in answers[MASHES:]) == 1  # the challenge closed once
    await club.fake.wait_quiet()
    late = await club.fake.click(ending, f"ca:{ending_game(ending)}", user=alice)
    assert late.ephemeral and "already been played again" in late.content, late.content
    await club.fake.wait_quiet()
    games = await club.service.games.active_for(alice.user.id)
    assert len(games) == 2  # the computer's next game and carol's
    assert len(club.fake.threads(club.channel)) == 4


def ending_game(ending: FakeMessage) -> int:
    """The game id on an ending's Play again button."""
    return int(next(c for c in ending.custom_ids if c.startswith("ca:")).split(":")[1])
