"""Discord's global limit through the real bot: discord.py's own HTTP client, the pacing
hook, the fake Discord recording when each request arrives.

Why: discord.py sends as fast as it is asked (it only reacts to a 429); a bot that posts
to many channels at once would exceed Discord's 50 requests a second, and with it every
shard process sharing the token. With the hook, 120 posts asked for at once arrive spread
to the configured rate, while a member's command is still answered at once.
"""

from __future__ import annotations

import asyncio
import math
from pathlib import Path

import discord

from bot.client import create_bot
from bot.config import Settings
from bot.db.limiters import Pace
from tests.fakediscord import CALLBACK, CREATE_MESSAGE, BotRunner, FakeDiscord
from tests.support.stall import LoopProbe
from tests.support.windows import most_in_window

CHANNELS = 120


async def test_posts_asked_for_at_once_are_spread_to_the_rate(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    fake = fake_discord
    guild = fake.add_guild("Big Club", channels=tuple(f"room-{n}" for n in range(CHANNELS)))
    alice = fake.add_member(guild, "alice")
    settings = Settings(discord_token="fake-token-for-e2e", database_path=tmp_path / "shogi.db")
    pace = settings.pace
    assert pace == Pace(46, 2)  # the defaults: no second holds more than 48 of 50
    bot = await bot_runner.start(lambda: create_bot(settings), sync_commands=True)
    rooms = [fake.channel(f"room-{n}", guild) for n in range(CHANNELS)]
    await fake.wait_quiet()
    first = len(fake.requests)

    async def post(room_id: int) -> None:
        channel = bot.get_channel(room_id)
        assert isinstance(channel, discord.TextChannel)
        await channel.send("A tournament round begins.")

    async with LoopProbe() as probe:
        posting = asyncio.gather(*(post(room.id) for room in rooms))
        await fake.wait_for(
            lambda: sum(r.route == CREATE_MESSAGE for r in fake.requests[first:]) >= 10,
            what="the first posts",
        )
        # A member's command in the middle of it is answered at once (an exempt
        # response), not after the posts queued before it.
        help_answer = await fake.slash("help", user=alice, channel=rooms[0], wait=False)
        await help_answer.wait_response()
        assert help_answer.response_type == 4  # a message, at once
        assert not posting.done()
        await posting
    posts = [r for r in fake.requests[first:] if r.route == CREATE_MESSAGE]
    arrived = [r.started for r in posts]
    assert len(arrived) == CHANNELS
    # The burst, then one every 1/45 s: at least (120 - 5) / 45 s from first to last.
    span = max(arrived) - min(arrived)
    assert span >= (CHANNELS - pace.burst) / pace.rate * 0.95, span
    # No second holds more than rate + burst, but for the requests a stall of the loop
    # (the bot's and the fake's: one loop, on a busy machine) held back and let go
    # together: at most as many as the slots of the longest stall.
    stalled = math.ceil(probe.worst * pace.rate) + 1
    most = most_in_window(arrived)
    assert most <= pace.rate + pace.burst + stalled, (most, probe.report())
    assert bot.pacing.waits >= CHANNELS - pace.burst
    assert all("tournament" in fake.last_message(room).content for room in rooms)
    [answer] = [r for r in fake.requests[first:] if r.route == CALLBACK]
    assert answer.started < max(arrived)  # it went ahead of the posts asked for before it
