"""Whole games through the real bot, discord.py and a fake Discord on 127.0.0.1."""

from __future__ import annotations

import io
from pathlib import Path

from PIL import Image

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from tests.e2e.harness import BotRunner, FakeDiscord


def settings_for(tmp_path: Path) -> Settings:
    return Settings(discord_token="fake-token-for-e2e", database_path=tmp_path / "shogi.db")


async def start_bot(bot_runner: BotRunner, tmp_path: Path) -> ShogiBot:
    return await bot_runner.start(lambda: create_bot(settings_for(tmp_path)), sync_commands=True)


def assert_png(result_files: list, min_width: int = 720) -> None:  # type: ignore[type-arg]
    assert result_files, "expected a board image"
    with Image.open(io.BytesIO(result_files[-1].data)) as image:
        assert image.format == "PNG"
        assert image.width >= min_width


async def test_challenge_accept_and_play(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    guild = fake_discord.add_guild("Shogi Club", channels=("shogi",))
    alice = fake_discord.add_member(guild, "alice")
    bob = fake_discord.add_member(guild, "bob")
    channel = fake_discord.channel("shogi", guild)
    await start_bot(bot_runner, tmp_path)

    challenge = await fake_discord.slash(
        "challenge", {"opponent": bob, "color": "sente"}, user=alice, channel=channel
    )
    assert challenge.reply is not None
    assert bob.id in challenge.reply.mentioned_user_ids
    accept_id = next(c for c in challenge.custom_ids if c.startswith("ch:accept"))

    stranger = await fake_discord.click(challenge, accept_id, user=alice)
    assert stranger.ephemeral

    await fake_discord.click(challenge, accept_id, user=bob)
    await fake_discord.wait_for(lambda: bool(fake_discord.threads(channel)), what="the thread")
    [thread] = fake_discord.threads(channel)
    assert "alice" in thread.name and "bob" in thread.name
    await fake_discord.wait_for(
        lambda: any(m.attachments for m in fake_discord.channel_history(thread)),
        what="the start board in the thread",
    )
    start = fake_discord.last_message(thread)
    assert start is not None
    assert_png(start.attachments)
    assert alice.id in start.mentioned_user_ids

    move = await fake_discord.slash("move", {"move": "P-7f"}, user=alice, channel=thread)
    assert not move.ephemeral, move.content
    assert "７六歩" in (move.content or "")
    assert_png(move.files)

    wrong_turn = await fake_discord.slash("move", {"move": "3c3d"}, user=alice, channel=thread)
    assert wrong_turn.ephemeral

    reply = await fake_discord.slash("move", {"move": "３四歩"}, user=bob, channel=thread)
    assert not reply.ephemeral, reply.content
