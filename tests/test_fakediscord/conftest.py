"""The fake Discord's own tests use the bot tests' fixtures (:mod:`tests.support.fixtures`)
and a server of their own: #general and #games, with alice and bob."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, FakeChannel, FakeDiscord, FakeGuild, FakeMember
from tests.support.fixtures import bot_runner, e2e_guard, fail_on_leaks, fake_discord

from .toybot import ToyBot

__all__ = ["bot_runner", "e2e_guard", "fake_discord"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    fail_on_leaks(Path(__file__).parent, items)


@pytest.fixture
def guild(fake_discord: FakeDiscord) -> FakeGuild:
    guild = fake_discord.add_guild("Shogi Club", channels=("general", "games"))
    fake_discord.add_member(guild, "alice")
    fake_discord.add_member(guild, "bob")
    return guild


@pytest.fixture
def alice(guild: FakeGuild) -> FakeMember:
    return next(m for m in guild.members.values() if m.user.username == "alice")


@pytest.fixture
def bob(guild: FakeGuild) -> FakeMember:
    return next(m for m in guild.members.values() if m.user.username == "bob")


@pytest.fixture
def general(fake_discord: FakeDiscord, guild: FakeGuild) -> FakeChannel:
    return fake_discord.channel("general", guild)


@pytest.fixture
async def toy(bot_runner: BotRunner, guild: FakeGuild) -> ToyBot:
    """The toy bot, connected and with its commands synced."""
    return await bot_runner.start(lambda: ToyBot(guild.id))
