"""What `create_bot` asks of Discord, checked without connecting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import discord
import pytest
from discord.ext import commands

from bot import create_bot
from bot.config import Settings
from bot.db import ShardScope


def test_the_bot_asks_only_for_guild_events_and_messages(tmp_path: Path) -> None:
    """Commands reach the bot as interactions, moves by mention as guild messages; no
    privileged intents (which Discord would have to approve), so no message content but
    that of messages mentioning the bot, no direct messages, no member list."""
    bot = create_bot(Settings(discord_token="x", database_path=tmp_path / "db.sqlite"))
    intents = bot.intents
    assert intents.guilds and intents.guild_messages
    assert not intents.dm_messages
    assert not intents.message_content and not intents.members and not intents.presences


def test_without_shard_options_one_process_runs_every_shard(tmp_path: Path) -> None:
    bot = create_bot(Settings(discord_token="x", database_path=tmp_path / "db.sqlite"))
    assert not isinstance(bot, discord.AutoShardedClient)
    assert bot.scope is None and bot.publishes_commands


def test_a_shard_process_runs_its_shards_and_only_shard_0_publishes(tmp_path: Path) -> None:
    settings = Settings(discord_token="x", database_path=tmp_path / "db.sqlite")
    first = create_bot(settings, scope=ShardScope(frozenset({0, 1}), 4))
    second = create_bot(settings, scope=ShardScope(frozenset({3, 2}), 4))
    for bot, shards in ((first, [0, 1]), (second, [2, 3])):
        assert isinstance(bot, commands.AutoShardedBot)
        assert bot.shard_ids == shards and bot.shard_count == 4
    assert first.publishes_commands and not second.publishes_commands


async def test_closing_twice_closes_once_and_a_cancelled_caller_does_not_stop_it(
    tmp_path: Path,
) -> None:
    """A SIGTERM's close and the closing of the code that started the bot may overlap, and
    the first caller may be cancelled as the process ends: the one close still runs to its
    end, the database last, so no database thread outlives the event loop."""
    bot = create_bot(Settings(discord_token="x", database_path=tmp_path / "db.sqlite"))
    await bot.load_features()
    database = bot.service.store.db
    first = asyncio.create_task(bot.close())
    second = asyncio.create_task(bot.close())
    await asyncio.sleep(0)
    first.cancel()
    await second
    with pytest.raises(asyncio.CancelledError):
        await first
    assert bot.is_closed()
    with pytest.raises(ValueError, match="no active connection"):  # aiosqlite, once closed
        async with database.read() as tx:
            await tx.games.get(1)
