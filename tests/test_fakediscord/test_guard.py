"""What the harness promises around a test: discord.py pointed at the fake and back, nothing
left running after a clean run, and leaks and error logs reported."""

from __future__ import annotations

import asyncio

import discord
import discord.client
import discord.http
import pytest

from tests.fakediscord import BotRunner, DiscordPointer, E2EGuard, FakeDiscord

from .toybot import ToyBot


async def test_a_clean_run_leaves_nothing_behind() -> None:
    guard = E2EGuard()
    guard.install()
    fake = FakeDiscord()
    await fake.start()
    original = discord.http.Route.BASE
    runner = BotRunner(fake, guard)
    with pytest.raises(RuntimeError, match="not pointed at the fake"):
        await runner.start(lambda: ToyBot(0))
    with fake.patched_discord():
        guild = fake.add_guild(channels=("general",))
        carol = fake.add_member(guild, "carol")
        await runner.start(lambda: ToyBot(guild.id))
        pong = await fake.slash("ping", user=carol, channel=fake.channel("general", guild))
        assert pong.content == "pong"
        await runner.close_all()
    await fake.stop()
    assert fake.problems() == []
    assert await guard.finish() == []
    assert original == discord.http.Route.BASE  # the pointer was restored

    pointer = DiscordPointer.from_url(fake.url)  # what a bot in another process uses
    expected = fake.patched_discord()
    assert (pointer.api_base, pointer.gateway_url, pointer.cdn_base) == (
        expected.api_base,
        expected.gateway_url,
        expected.cdn_base,
    )


async def test_the_guard_reports_leaked_tasks_and_error_logs() -> None:
    guard = E2EGuard()
    guard.install()
    forever = asyncio.get_running_loop().create_task(asyncio.Event().wait(), name="leaky")
    discord.client._log.error("something broke")
    discord.client._log.error("something expected")
    guard.expect_error_log("expected")
    problems = await guard.finish(task_timeout=0.01)
    assert forever.cancelled() or forever.done()
    assert [p for p in problems if "leaky" in p]
    assert [p for p in problems if "ERROR log" in p] == [
        "ERROR log: discord.client ERROR: something broke"
    ]
