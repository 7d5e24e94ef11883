"""The published command tree, checked against Discord's limits without connecting.

Discord refuses (or silently cuts) a name over 32 characters, a description or choice
name over 100, more than 25 options or choices, and a command whose text adds up to
over 4,000 characters; one such mistake makes the whole publication fail.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot import create_bot
from bot.client import EXTENSIONS, ShogiBot
from bot.config import Settings
from bot.ui import text
from bot.ui.errors import GameButton
from bot.ui.i18n import translate

NAME = re.compile(r"^[-_\w]{1,32}$")
TEXT_LIMIT = 100
COMMAND_TEXT_LIMIT = 4000
MAX_OPTIONS = 25


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[ShogiBot]:
    """The bot with every feature loaded, an engine set (never started) so that the
    engine's commands are checked too."""
    settings = Settings(discord_token="x", database_path=tmp_path / "db.sqlite", engine_path="e")
    shogi = create_bot(settings)
    await shogi.load_features()
    try:
        yield shogi
    finally:
        await shogi.close()


def payloads(bot: ShogiBot) -> list[dict[str, Any]]:
    return [command.to_dict(bot.tree) for command in bot.tree.get_commands()]


def options_of(command: dict[str, Any]) -> Iterator[dict[str, Any]]:
    for option in command.get("options", []):
        yield option
        yield from options_of(option)


def text_size(command: dict[str, Any]) -> int:
    """What Discord counts against a command's 4,000 characters: names, descriptions,
    choice names and values."""
    total = len(command["name"]) + len(command.get("description", ""))
    for option in options_of(command):
        total += len(option["name"]) + len(option.get("description", ""))
        for choice in option.get("choices", []):
            total += len(choice["name"]) + len(str(choice["value"]))
    return total


async def test_every_command_fits_discords_limits(bot: ShogiBot) -> None:
    commands = payloads(bot)
    assert {c["name"] for c in commands} >= {"challenge", "move", "board", "resign", "export"}
    for command in commands:
        where = f"/{command['name']}"
        assert NAME.match(command["name"]) and command["name"] == command["name"].lower(), where
        assert 1 <= len(command["description"]) <= TEXT_LIMIT, where
        assert len(command.get("options", [])) <= MAX_OPTIONS, where
        assert text_size(command) <= COMMAND_TEXT_LIMIT, where
        for option in options_of(command):
            at = f"{where} {option['name']}"
            assert NAME.match(option["name"]) and option["name"] == option["name"].lower(), at
            assert 1 <= len(option["description"]) <= TEXT_LIMIT, (at, option["description"])
            choices = option.get("choices", [])
            assert len(choices) <= MAX_OPTIONS, at
            assert not (choices and option.get("autocomplete")), at
            for choice in choices:
                assert 1 <= len(choice["name"]) <= TEXT_LIMIT, (at, choice["name"])
                assert len(str(choice["value"])) <= TEXT_LIMIT, (at, choice["value"])


async def test_every_game_option_suggests_games(bot: ShogiBot) -> None:
    """A member picks a game from a list wherever a command takes one."""
    with_game = 0
    for command in payloads(bot):
        for option in options_of(command):
            if option["name"] == "game":
                with_game += 1
                assert option.get("autocomplete"), f"/{command['name']} game"
    assert with_game >= 6


async def test_every_tournament_option_suggests_tournaments(bot: ShogiBot) -> None:
    """A member picks a tournament from a list wherever a command takes one."""
    with_tournament = [
        command["name"]
        for command in payloads(bot)
        for option in options_of(command)
        if option["name"] == "tournament"
    ]
    assert len(with_tournament) >= 4
    for command in payloads(bot):
        for option in options_of(command):
            if option["name"] == "tournament":
                assert option.get("autocomplete"), f"/{command['name']} tournament"


async def test_every_button_is_registered_to_survive_restarts(bot: ShogiBot) -> None:
    """Each feature registers its buttons; a button class nobody registered would answer
    "interaction failed" after a restart."""

    def named(classes: Iterable[type]) -> set[str]:
        # Loading an extension executes its module afresh, so compare classes by name.
        return {f"{cls.__module__}.{cls.__qualname__}" for cls in classes}

    def subclasses(cls: type) -> set[type]:
        found: set[type] = set()
        direct: type
        for direct in cls.__subclasses__():
            found |= {direct, *subclasses(direct)}
        return found

    registered = named(bot._connection._view_store._dynamic_items.values())
    buttons = named(cls for cls in subclasses(GameButton) if cls.__module__.startswith("bot."))
    assert len(buttons) >= 5
    assert buttons <= registered


async def test_features_unload_cleanly(bot: ShogiBot) -> None:
    """A feature can be reloaded: its buttons go with it and come back."""
    for extension in EXTENSIONS:
        await bot.reload_extension(extension)
    assert len(bot.tree.get_commands()) == len(payloads(bot))


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_help_names_every_command_and_fits_an_embed(bot: ShogiBot, lang: str) -> None:
    """`/help` is where a new member learns the commands: each one published is named in
    it, as that language's players see it (`/挑戦` for a Japanese reader); each section
    fits an embed field (1,024 characters, its heading 256), and all of it one embed."""
    sections = text.help_sections(lang)
    assert 4 <= len(sections) <= 25
    assert all(len(heading) <= 256 and 0 < len(body) <= 1024 for heading, body in sections)
    help_text = "\n".join([text.help_title(lang), *(h + "\n" + b for h, b in sections)])
    assert len(help_text) <= 6000
    missing = []
    for command in bot.tree.get_commands():
        if command.name == "help":
            continue
        named = translate(lang, command.name, "command_name") or command.name
        if f"/{named}" not in help_text:
            missing.append(named)
    assert missing == []
