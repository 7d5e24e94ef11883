"""Threads with a real discord.py bot: renamed and archived by their owner without Manage
Threads, closed to changes while archived, reopened by a post (the bot's or a member's),
and refused what only moderators may do."""

from __future__ import annotations

import discord
import pytest

from tests.fakediscord import ErrorCode, FakeChannel, FakeDiscord, FakeGuild, FakeMember, Perm

from .toybot import ToyBot


async def bot_thread(
    fake: FakeDiscord, alice: FakeMember, general: FakeChannel, toy: ToyBot
) -> tuple[FakeChannel, discord.Thread]:
    """A thread the toy bot opened (so it owns it), as the fake and as the bot see it."""
    fake.expect_rejections(ErrorCode.THREAD_ALREADY_CREATED)  # `room` tries a second one
    await fake.slash("room", {"topic": "Game 1"}, user=alice, channel=general)
    [thread] = fake.threads(general)
    await fake.wait_for(lambda: toy.get_channel(thread.id) is not None, what="THREAD_CREATE")
    seen = toy.get_channel(thread.id)
    assert isinstance(seen, discord.Thread)
    return thread, seen


def without_manage_threads(guild: FakeGuild) -> None:
    """The bot as its invite link makes it: no Manage Threads."""
    for role in guild.roles.values():
        role.permissions &= ~Perm.MANAGE_THREADS


async def test_the_owner_renames_and_archives_its_thread_without_manage_threads(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    without_manage_threads(guild)
    thread, seen = await bot_thread(fake, alice, general, toy)
    edited = await seen.edit(name="#1 Game 1 · done", archived=True)
    assert (thread.name, thread.archived, thread.locked) == ("#1 Game 1 · done", True, False)
    assert edited.archived and edited.name == "#1 Game 1 · done"
    # discord.py drops an archived thread from its cache on THREAD_UPDATE.
    await fake.wait_for(lambda: toy.get_channel(thread.id) is None, what="THREAD_UPDATE")
    fetched = await toy.fetch_channel(thread.id)
    assert isinstance(fetched, discord.Thread) and fetched.archived


async def test_an_archived_thread_takes_no_change_until_reopened(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    thread, seen = await bot_thread(fake, alice, general, toy)
    [welcome] = fake.channel_history(thread)
    archived = await seen.edit(archived=True)
    fake.expect_rejections(ErrorCode.THREAD_ARCHIVED)
    with pytest.raises(discord.HTTPException) as renamed:
        await archived.edit(name="too late")
    assert (renamed.value.status, renamed.value.code) == (400, ErrorCode.THREAD_ARCHIVED)
    message = await archived.fetch_message(welcome.id)
    with pytest.raises(discord.HTTPException) as edited:
        await message.edit(content="edited while archived")
    assert edited.value.code == ErrorCode.THREAD_ARCHIVED
    reopened = await archived.edit(archived=False, name="reopened")
    assert not thread.archived and reopened.name == thread.name == "reopened"


async def test_a_post_reopens_an_archived_thread(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    thread, seen = await bot_thread(fake, alice, general, toy)
    archived = await seen.edit(archived=True)
    await fake.wait_for(lambda: toy.get_channel(thread.id) is None, what="archived")
    await archived.send("a late word from the bot")
    assert not thread.archived
    await fake.wait_for(lambda: toy.get_channel(thread.id) is not None, what="reopened")
    await seen.edit(archived=True)
    await fake.say(thread, alice, "a member's word")
    assert not thread.archived
    assert [m.content for m in fake.channel_history(thread)][-2:] == [
        "a late word from the bot",
        "a member's word",
    ]


async def test_locking_and_a_post_in_a_locked_thread_need_manage_threads(
    fake_discord: FakeDiscord,
    guild: FakeGuild,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    thread, seen = await bot_thread(fake, alice, general, toy)
    locked = await seen.edit(archived=True, locked=True)  # the bot may manage threads here
    assert thread.locked and thread.archived
    without_manage_threads(guild)
    fake.expect_rejections(ErrorCode.THREAD_ARCHIVED, ErrorCode.MISSING_PERMISSIONS)
    with pytest.raises(discord.HTTPException) as posted:
        await locked.send("let me in")
    assert posted.value.code == ErrorCode.THREAD_ARCHIVED and thread.archived
    with pytest.raises(discord.Forbidden):
        await locked.edit(archived=False)
    assert thread.archived


async def test_a_thread_name_is_one_to_a_hundred_characters(
    fake_discord: FakeDiscord,
    alice: FakeMember,
    general: FakeChannel,
    toy: ToyBot,
) -> None:
    fake = fake_discord
    thread, seen = await bot_thread(fake, alice, general, toy)
    fake.expect_rejections(ErrorCode.INVALID_FORM_BODY)
    for name in ("", "x" * 101):
        with pytest.raises(discord.HTTPException) as refused:
            await seen.edit(name=name)
        assert refused.value.code == ErrorCode.INVALID_FORM_BODY
    await seen.edit(name="x" * 100)
    assert thread.name == "x" * 100
