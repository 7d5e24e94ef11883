"""What `create_bot` asks of Discord, checked without connecting."""

from __future__ import annotations

from pathlib import Path

from bot import create_bot
from bot.config import Settings


def test_the_bot_asks_only_for_guild_events(tmp_path: Path) -> None:
    """Everything reaches the bot as an interaction: no message events, no privileged
    intents (which a server owner would have to approve), no member list."""
    bot = create_bot(Settings(discord_token="x", database_path=tmp_path / "db.sqlite"))
    intents = bot.intents
    assert intents.guilds
    assert not intents.guild_messages and not intents.dm_messages
    assert not intents.message_content and not intents.members and not intents.presences
