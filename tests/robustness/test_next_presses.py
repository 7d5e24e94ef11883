"""A member with a great many games to move who mashes `/next` and its Next button, and
another member who presses that private button with a modified client, while two members
play: each of the masher's answers is a board of one of their games, the intruder gets one
sentence and sees none of them, the players' move is answered with its board meanwhile, and
the event loop never stalls for 100 ms."""

from __future__ import annotations

import asyncio

from bot.services import PlayerRef
from tests.support.checks import assert_board
from tests.support.club import Club
from tests.support.stall import LoopProbe

GAMES = 120
MASHES = 8


async def test_mashing_next_with_many_games(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    masher = PlayerRef(carol.user.id, "carol")
    rivals = [PlayerRef(10_000 + n, f"rival{n}") for n in range(GAMES)]
    for n, rival in enumerate(rivals):  # carol is sente and to move in each, deadlines apart
        offered = await club.service.challenges.offer(
            guild_id=club.guild.id,
            channel_id=club.channel.id,
            challenger=masher,
            opponent=rival,
            color="sente",
            time_control=f"{1 + n % 30}d",
        )
        await club.service.challenges.accept(offered.id, rival.user_id)
    table = await club.new_game(alice, bob)
    first = await club.fake.slash("next", user=carol, channel=club.channel)
    assert first.content.startswith(f"Game 1 of the 25 with the nearest deadlines ({GAMES} games")
    assert "(☗carol vs ☖rival0), move 0; deadline" in first.content

    async with LoopProbe() as probe:
        mashed = [club.fake.slash("next", user=carol, channel=club.channel) for _ in range(MASHES)]
        mashed += [club.fake.click(first, first.custom_ids[0], user=carol) for _ in range(MASHES)]
        assert first.reply is not None
        intruder = club.fake.forge_click(
            first.reply, first.custom_ids[0], user=alice, channel=club.channel
        )
        move = club.move(alice, "7g7f", table)
        *answers, forged, played = await asyncio.gather(*mashed, intruder, move)
    assert probe.worst < 0.1, probe.report()

    assert not played.ephemeral and played.content.startswith("1. ☗"), played.content
    assert_board(played.files)
    for answer in answers:
        assert answer.ephemeral and answer.content.startswith("Game "), answer.content
        assert "of the 25 with the nearest deadlines" in answer.content
        assert_board(answer.files)
    shown = await forged.wait_final()
    assert shown.ephemeral and shown.files == []
    assert shown.content == (
        "These buttons are for the member who ran `/next`; run it yourself for your own games."
    )
    assert "rival" not in shown.content
