"""A member floods a game's thread with messages mentioning the bot: one sentence back,
the players' moves answered meanwhile, the loop never stalled, nothing left behind."""

from __future__ import annotations

import asyncio

from bot.cogs.play.mentions import MentionGate
from tests.fakediscord.runner import settle
from tests.support.checks import assert_board
from tests.support.club import Club
from tests.support.stall import LoopProbe

FLOOD = 60


async def test_a_flood_of_mentions_gets_one_sentence(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await club.new_game(alice, bob)
    bot = f"<@{club.fake.bot_user.id}>"
    junk = [
        f"{bot} P-7f",  # a spectator's move
        f"{bot} " + "７六歩" * 600,  # far past a move's 64 characters
        bot + f" <@{alice.id}>" * 90 + " P-7f",  # a mention bomb around a move
        f"{bot} " + "<@" * 900,  # half-written mentions for the expression to chew
    ]
    async with LoopProbe() as probe:
        flood = [club.fake.say(table.thread, carol, junk[n % len(junk)]) for n in range(FLOOD)]
        move = asyncio.ensure_future(club.move(alice, "P-7f", table))
        sent = await asyncio.gather(*flood)
        played = await move
        await settle(timeout=club.fake.default_timeout)
    assert probe.worst < 0.1, probe.report()

    assert not played.ephemeral and "(P-7f)" in played.content, played.content
    assert_board(played.files)
    flooded = {message.id for message in sent}
    replies = [
        m
        for m in club.fake.channel_history(table.thread)
        if m.author.id == club.fake.bot_user.id and m.reference_id in flooded
    ]
    assert len(replies) == 1, [m.content for m in replies]
    assert "\n" not in replies[0].content and replies[0].mentioned_user_ids == []
    game = await club.game(table.game_id)
    assert game.ply == 1

    # Nothing held once the flood has passed: no mention in hand, one refusal remembered.
    assert club.bot is not None
    # (the bot loads its features by name: their classes are not this test's imports)
    gate = getattr(club.bot.get_cog("MentionsFeature"), "gate")  # noqa: B009
    assert type(gate).__name__ == MentionGate.__name__
    assert gate.handling == 0 and gate.remembered <= 1
    # Bob's move by mention is still played.
    [board] = await club.say(bob, "P-3d", table.thread)
    assert "(P-3d)" in board.content
    assert_board(board.attachments)
