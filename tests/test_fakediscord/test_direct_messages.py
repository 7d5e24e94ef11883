"""Direct messages from the bot to a member: a DM channel opened once per user, messages in
it that nobody else sees, and the 403 (code 50007) Discord answers when the user does not
accept direct messages."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import (
    OPEN_DM,
    ChannelType,
    ErrorCode,
    FakeChannel,
    FakeDiscord,
    FakeMember,
)

from .toybot import ToyBot


async def test_a_direct_message_reaches_only_its_user(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    bob: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    first = await fake.slash("dm", {"text": "your move"}, user=alice, channel=general)
    second = await fake.slash("dm", {"text": "again"}, user=alice, channel=general)
    [channel] = fake.dm_channels.values()
    assert first.content == second.content == f"Sent in {channel.id}"  # one channel per user
    assert channel.type == ChannelType.DM and channel.recipient is alice.user
    assert [m.content for m in fake.direct_messages(alice)] == ["your move", "again"]
    assert fake.direct_messages(bob) == []
    assert all(m.author.id == fake.bot_user.id for m in fake.direct_messages(alice))
    assert fake.channel_history(general) == []  # nothing shows in the server
    opened = [r for r in fake.requests if r.route == OPEN_DM]
    assert len(opened) == 1, "discord.py keeps the channel; the fake must answer it once"
    payload = fake.message_payload(fake.direct_messages(alice)[0])
    assert "guild_id" not in payload and payload["channel_id"] == str(channel.id)
    assert toy.errors == []


async def test_a_user_who_closed_direct_messages_cannot_be_sent_one(
    fake_discord: FakeDiscord, alice: FakeMember, general: FakeChannel, toy: ToyBot
) -> None:
    fake = fake_discord
    fake.close_dms(alice)
    fake.expect_rejections(ErrorCode.CANNOT_MESSAGE_USER)
    result = await fake.slash("dm", {"text": "your move"}, user=alice, channel=general)
    assert result.ephemeral and result.content == "Your DMs are closed"
    [error] = toy.errors
    assert isinstance(error, discord.Forbidden)
    assert (error.status, error.code) == (403, ErrorCode.CANNOT_MESSAGE_USER)
    assert fake.direct_messages(alice) == []
    [refused] = fake.rejections
    assert (refused.status, refused.code) == (403, 50007)


async def test_the_bot_itself_is_no_recipient(
    fake_discord: FakeDiscord, alice: FakeMember, general: FakeChannel, toy: ToyBot
) -> None:
    fake = fake_discord
    fake.expect_rejections(ErrorCode.INVALID_RECIPIENTS)
    assert toy.user is not None
    with pytest.raises(discord.HTTPException) as refused:
        await toy.create_dm(discord.Object(toy.user.id))
    assert (refused.value.status, refused.value.code) == (400, ErrorCode.INVALID_RECIPIENTS)
    assert fake.dm_channels == {}
