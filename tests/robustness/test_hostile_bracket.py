"""Hostile names in a knockout's bracket, through the real client and the fake Discord,
while two others play: 63 members named with 6,000 characters each (Latin, kanji, emoji,
a right-to-left override, a combining accent piled up, mentions and Markdown) enter a
64-player knockout with one ordinary member, and it starts. Each entrant's answer is one
sentence, the announcement carries the bracket as one PNG within its bound with its text
cut to Discord's alt text length, `/tournament_standings` answers with the same bracket,
the players' moves are answered with their boards meanwhile, and the event loop never
stalls more than 100 ms."""

from __future__ import annotations

import asyncio
import io
from datetime import timedelta

from PIL import Image

from tests.fakediscord import FakeMessage, InteractionResult
from tests.support.club import Club
from tests.support.stall import LoopProbe

STALL = 0.1
#: The largest bracket image (as `tests/render/test_bracket.py` bounds it).
BOUND = (2400, 2000)
HOSTILE = [
    "W" * 6000,
    "山" * 6000,
    "🌸" * 6000,
    "\u202e" + "evil" * 1500,
    "a" + "\u0301" * 5999,
    "**@everyone** <@1> `" * 300,
]


def one_sentence(result: InteractionResult) -> str:
    assert result.ephemeral, result.content
    said = result.content
    assert said and "\n" not in said and len(said) <= 400, said
    return said


def bracket_of(message: FakeMessage) -> Image.Image | None:
    for attachment in message.attachments:
        if attachment.filename == "bracket.png":
            assert attachment.description is not None
            assert len(attachment.description) <= 1024
            image = Image.open(io.BytesIO(attachment.data))
            image.load()
            assert image.format == "PNG"
            return image
    return None


async def test_a_bracket_of_hostile_names_is_drawn_within_bounds_and_stalls_nothing(
    club: Club,
) -> None:
    club.make_manager(club.alice)
    entrants = [
        club.fake.add_member(club.guild, HOSTILE[n % len(HOSTILE)] + str(n)) for n in range(63)
    ]
    starts = (club.clock.now + timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
    async with LoopProbe() as probe:
        table = await club.new_game(club.bob, club.carol)
        await club.fake.slash(
            "tournament",
            {"name": "Cup", "format": "knockout", "starts": starts, "max_players": 64},
            user=club.alice,
            channel=club.channel,
        )
        [posted] = await club.posts(club.channel, "Tournament #1: Cup")
        join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
        presses = [
            await club.fake.click(posted, join, user=member, wait=False)
            for member in [club.alice, *entrants]
        ]
        moved = asyncio.ensure_future(club.play(table, [(club.bob, "7g7f")]))
        for press in presses:
            assert "You have entered" in one_sentence(await press.wait_final())
        await moved
        await club.fake.wait_for(lambda: "64 of 64 players" in posted.content, what="a full field")

        started = await club.fake.slash("tournament_start", user=club.alice, channel=club.channel)
        assert started.ephemeral, started.content
        reply = await club.move(club.carol, "3c3d", table)
        assert not reply.ephemeral and reply.files, reply.content
        await club.fake.wait_for(lambda: bracket_of(posted) is not None, what="the bracket")
        image = bracket_of(posted)
        assert image is not None and image.width <= BOUND[0] and image.height <= BOUND[1]
        assert len(posted.content) <= 2000 and "@everyone" not in posted.content

        asked = await club.fake.slash(
            "tournament_standings", user=entrants[0], channel=club.channel
        )
        assert asked.ephemeral and asked.files, asked.content
        assert len(asked.content) <= 2000 and "Knockout bracket of 64 players" in asked.content
        assert "**@everyone**" not in asked.content  # the names' Markdown and mentions inert
        reply = await club.move(club.bob, "2g2f", table)
        assert not reply.ephemeral and reply.files, reply.content
    assert probe.worst < STALL, f"the event loop stalled {probe.worst * 1000:.0f} ms"
