"""A first run as a newcomer meets it: the commands appear without a deploy step, once.

The bot is started the way `python -m bot` starts it (no `sync_commands` from the harness), so
every command PUT the fake sees is the bot's own. Each test restarts bots on one database file,
as a server admin restarts theirs, and checks what Discord (the fake) holds afterwards.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import discord
import pytest

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from bot.publishing import PublishReport, bot_permissions
from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord, FakeGuild
from tests.support.club import open_club

_COMMANDS_PATH = re.compile(r"/api/v10/applications/\d+(?:/guilds/(\d+))?/commands")


def command_calls(fake: FakeDiscord) -> list[tuple[str, int | None]]:
    """Every call the bot made to the command endpoints, as (method, guild id or None)."""
    calls = []
    for record in fake.requests:
        match = _COMMANDS_PATH.fullmatch(record.path)
        if match is not None:
            calls.append((record.method, None if match[1] is None else int(match[1])))
    return calls


def names(fake: FakeDiscord, guild: FakeGuild | None = None) -> list[str]:
    return sorted(command.name for command in fake.registered_commands(guild))


def tree_names(bot: ShogiBot) -> list[str]:
    return sorted(command.name for command in bot.tree.get_commands())


class Admin:
    """Someone who runs the bot on one database file and restarts it with new settings."""

    def __init__(self, fake: FakeDiscord, runner: BotRunner, tmp_path: Path) -> None:
        self.fake = fake
        self.runner = runner
        self.database = tmp_path / "shogi.db"
        #: The command names of the last bot's tree (what Discord should show).
        self.expected: list[str] = []

    def settings(self, dev_guild: FakeGuild | None = None) -> Settings:
        return Settings(
            discord_token="fake-token-for-e2e",
            database_path=self.database,
            dev_guild_id=None if dev_guild is None else dev_guild.id,
        )

    async def run(
        self,
        dev_guild: FakeGuild | None = None,
        *,
        force: bool = False,
        change: Callable[[ShogiBot], None] | None = None,
    ) -> PublishReport:
        """Start a bot, wait until it is ready, stop it; what it did about the commands."""

        def build() -> ShogiBot:
            bot = create_bot(self.settings(dev_guild), sync_global=force)
            if change is not None:
                change(bot)
            return bot

        bot = await self.runner.start(build, sync_commands=False)
        report = bot._publication
        self.expected = tree_names(bot)
        await self.runner.stop(bot)
        assert report is not None, "the bot did not publish (see the log)"
        return report


@pytest.fixture
def admin(fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path) -> Admin:
    fake_discord.add_guild("Shogi Club", channels=("shogi",))
    return Admin(fake_discord, bot_runner, tmp_path)


def add_extra_command(bot: ShogiBot) -> None:
    @bot.tree.command(name="extra", description="A command added by a new version")
    async def extra(interaction: discord.Interaction) -> None:
        """Never called."""


async def test_a_first_start_publishes_globally(admin: Admin, fake_discord: FakeDiscord) -> None:
    report = await admin.run()
    assert command_calls(fake_discord) == [("PUT", None)]
    assert names(fake_discord) == admin.expected
    assert {"challenge", "move"} <= set(admin.expected)
    assert report == PublishReport(None, True, len(admin.expected))


async def test_a_second_start_publishes_nothing(admin: Admin, fake_discord: FakeDiscord) -> None:
    await admin.run()
    report = await admin.run()
    assert command_calls(fake_discord) == [("PUT", None)]
    assert report == PublishReport(None, False, len(admin.expected))
    assert names(fake_discord) == admin.expected


async def test_a_changed_command_tree_is_published_again(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    await admin.run()
    report = await admin.run(change=add_extra_command)
    assert command_calls(fake_discord) == [("PUT", None), ("PUT", None)]
    assert report.published
    assert "extra" in names(fake_discord)
    assert names(fake_discord) == admin.expected
    await admin.run(change=add_extra_command)
    assert len(command_calls(fake_discord)) == 2
    # Going back to the old version takes the command away again.
    await admin.run()
    assert (
        command_calls(fake_discord)[-1] == ("PUT", None) and len(command_calls(fake_discord)) == 3
    )
    assert "extra" not in names(fake_discord)


async def test_sync_forces_publishing_when_up_to_date(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    await admin.run()
    report = await admin.run(force=True)
    assert command_calls(fake_discord) == [("PUT", None), ("PUT", None)]
    assert report == PublishReport(None, True, len(admin.expected))


async def test_a_dev_guild_gets_the_commands_and_the_global_list_does_not(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    dev = fake_discord.add_guild("Dev server")
    report = await admin.run(dev)
    # Nothing known about the global list on a fresh database: it is checked once.
    assert command_calls(fake_discord) == [("GET", None), ("PUT", dev.id)]
    assert names(fake_discord, dev) == admin.expected
    assert names(fake_discord) == []
    assert report == PublishReport(dev.id, True, len(admin.expected))
    await admin.run(dev)
    assert len(command_calls(fake_discord)) == 2


async def test_moving_to_a_dev_guild_takes_back_the_global_copies(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    await admin.run()
    dev = fake_discord.add_guild("Dev server")
    report = await admin.run(dev)
    assert command_calls(fake_discord)[1:] == [("PUT", None), ("PUT", dev.id)]
    assert fake_discord.command_puts[1].json == []
    assert names(fake_discord) == []
    assert names(fake_discord, dev) == admin.expected
    assert report.removed_from == (None,)
    await admin.run(dev)
    assert len(command_calls(fake_discord)) == 3


async def test_commands_published_before_records_are_taken_back_from_the_global_list(
    admin: Admin, fake_discord: FakeDiscord, bot_runner: BotRunner
) -> None:
    """An older version's `--sync` left global commands and no record of them: the first
    start with a dev server finds them and removes them, or the server shows them twice."""
    bot = await bot_runner.start(lambda: create_bot(admin.settings()), sync_commands=True)
    await bot_runner.stop(bot)
    admin.database.unlink()
    for suffix in ("-wal", "-shm"):
        Path(f"{admin.database}{suffix}").unlink(missing_ok=True)
    assert names(fake_discord) != []
    dev = fake_discord.add_guild("Dev server")
    calls_before = len(command_calls(fake_discord))
    report = await admin.run(dev)
    assert command_calls(fake_discord)[calls_before:] == [
        ("GET", None),
        ("PUT", None),
        ("PUT", dev.id),
    ]
    assert names(fake_discord) == []
    assert report.removed_from == (None,)


async def test_removing_the_dev_guild_empties_it_and_publishes_globally(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    dev = fake_discord.add_guild("Dev server")
    await admin.run(dev)
    report = await admin.run()
    assert command_calls(fake_discord)[2:] == [("PUT", dev.id), ("PUT", None)]
    assert fake_discord.command_puts[1].json == []
    assert names(fake_discord, dev) == []
    assert names(fake_discord) == admin.expected
    assert report == PublishReport(None, True, len(admin.expected), removed_from=(dev.id,))
    await admin.run()
    assert len(command_calls(fake_discord)) == 4


async def test_changing_the_dev_guild_moves_the_commands(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    first = fake_discord.add_guild("Dev server")
    second = fake_discord.add_guild("New dev server")
    await admin.run(first)
    report = await admin.run(second)
    assert command_calls(fake_discord)[2:] == [("PUT", first.id), ("PUT", second.id)]
    assert names(fake_discord, first) == []
    assert names(fake_discord, second) == admin.expected
    assert report.removed_from == (first.id,)


async def test_copies_in_a_server_the_bot_left_are_forgotten(
    admin: Admin, fake_discord: FakeDiscord
) -> None:
    """The bot was removed from its old dev server: Discord refuses the clean-up (and took
    the commands away itself). The start goes on, and does not try again next time."""
    dev = fake_discord.add_guild("Dev server")
    await admin.run(dev)
    del fake_discord.guilds[dev.id]
    fake_discord.expect_rejections(10004)  # Unknown Guild
    report = await admin.run()
    assert command_calls(fake_discord)[2:] == [("PUT", dev.id), ("PUT", None)]
    assert report == PublishReport(None, True, len(admin.expected))
    await admin.run()
    assert len(command_calls(fake_discord)) == 4


async def test_the_ready_log_names_the_bot_and_gives_the_invite_link(
    admin: Admin, fake_discord: FakeDiscord, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="bot")
    await admin.run()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.publishing"]
    user = fake_discord.bot_user
    who = next(line for line in lines if line.startswith("logged in as"))
    assert user.username in who and f"id {user.id}" in who and "in 1 server" in who
    assert any(
        line == f"slash commands: {PublishReport(None, True, len(admin.expected)).describe()}"
        for line in lines
    )
    invite = next(line for line in lines if line.startswith("invite link: "))
    query = parse_qs(urlsplit(invite.removeprefix("invite link: ")).query)
    assert query["client_id"] == [str(fake_discord.application_id)]
    assert query["permissions"] == [str(bot_permissions().value)]
    assert query["scope"] == ["bot applications.commands"]

    caplog.clear()
    await admin.run()
    lines = [r.getMessage() for r in caplog.records if r.name == "bot.publishing"]
    assert "already up to date globally" in "\n".join(lines)


async def test_the_ready_log_comes_once_per_run(
    fake_discord: FakeDiscord, bot_runner: BotRunner, admin: Admin, caplog: pytest.LogCaptureFixture
) -> None:
    """`on_ready` fires again after a reconnect that could not resume (a new session); the
    event is dispatched directly, as such a reconnect costs discord.py's 5 s wait."""
    caplog.set_level(logging.INFO, logger="bot")
    bot = await bot_runner.start(lambda: create_bot(admin.settings()), sync_commands=False)
    bot.dispatch("ready")
    await fake_discord.wait_quiet()
    await bot_runner.stop(bot)
    logged_in = [r for r in caplog.records if r.getMessage().startswith("logged in as")]
    assert len(logged_in) == 1


async def test_no_voice_warning_at_start(
    admin: Admin, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # discord.py warns once per process; earlier tests' clients may have used that up.
    monkeypatch.setattr(discord.VoiceClient, "warn_nacl", True)
    monkeypatch.setattr(discord.VoiceClient, "warn_dave", True)
    caplog.set_level(logging.INFO, logger="discord")
    await admin.run()
    assert any(r.name == "discord.client" for r in caplog.records)  # the capture works
    voice = [
        r.getMessage()
        for r in caplog.records
        if r.levelno >= logging.WARNING and "voice" in r.getMessage().lower()
    ]
    assert voice == []


async def test_the_invite_permissions_are_enough_for_a_game(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """A server that grants the bot exactly what the invite asks for: a challenge, its
    thread and the boards all go through (the fake refuses what a permission lacks, and any
    refusal fails the test)."""
    club = await open_club(fake_discord, bot_runner, e2e_guard, tmp_path)
    guild = club.guild
    players = fake_discord.add_role(guild, "Players", permissions=guild.everyone.permissions)
    for member in (club.alice, club.bob, club.carol):
        member.roles.append(players.id)
    guild.everyone.permissions = 0
    bot_role = next(role for role in guild.roles.values() if role.managed)
    bot_role.permissions = bot_permissions().value
    assert fake_discord.permissions(guild.id, fake_discord.bot_user.id) == bot_permissions().value

    table = await club.new_game(club.alice, club.bob)
    await club.play(table, [(club.alice, "P-7f"), (club.bob, "P-3d")])
    await fake_discord.wait_quiet()
    boards = [m for m in fake_discord.channel_history(table.thread) if m.attachments]
    assert len(boards) >= 1
    assert fake_discord.rejections == []
