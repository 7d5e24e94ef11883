"""The Japanese catalog and the command tree Discord receives with it.

Every command, option and choice must carry a Japanese name and description within
Discord's limits (a name Discord refuses makes the whole publication fail), the catalog
must hold nothing the bot no longer shows, and a translation must keep its placeholders.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import create_bot
from bot.client import ShogiBot
from bot.config import Settings
from bot.ui.i18n import catalog, language_of, translate

#: Discord's rule for command and option names in any language (letters and numbers of
#: any script, `-` and `_`); where a script has case, the name must be lower case.
NAME = re.compile(r"^[-_\w]{1,32}$")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


@pytest.fixture
async def payloads(tmp_path: Path) -> AsyncIterator[list[dict[str, Any]]]:
    """What the bot publishes: each command as discord.py sends it, translations included."""
    bot: ShogiBot = create_bot(Settings(discord_token="x", database_path=tmp_path / "db"))
    await bot.load_features()
    translator = bot.tree.translator
    assert translator is not None
    try:
        yield [
            await command.get_translated_payload(bot.tree, translator)
            for command in bot.tree.get_commands()
        ]
    finally:
        await bot.close()


def localized(payload: list[dict[str, Any]]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every command, option and choice: where it is, what it is (as the catalog's
    contexts name it: command, parameter, choice), and its payload."""
    for command in payload:
        yield f"/{command['name']}", "command", command
        for option in command.get("options", []):
            yield f"/{command['name']} {option['name']}", "parameter", option
            for choice in option.get("choices", []):
                where = f"/{command['name']} {option['name']}={choice['value']}"
                yield where, "choice", choice


async def test_every_command_option_and_choice_has_japanese(
    payloads: list[dict[str, Any]],
) -> None:
    seen = 0
    for where, kind, item in localized(payloads):
        seen += 1
        name = item.get("name_localizations", {}).get("ja")
        assert name, f"{where} has no Japanese name"
        if kind == "choice":
            assert 1 <= len(name) <= 100, (where, name)
            continue
        assert NAME.match(name) and name == name.lower(), (where, name)
        description = item.get("description_localizations", {}).get("ja")
        assert description, f"{where} has no Japanese description"
        assert 1 <= len(description) <= 100, (where, description)
    assert seen > 50


async def test_the_catalog_holds_only_what_the_bot_shows(payloads: list[dict[str, Any]]) -> None:
    """An entry nothing asks for is a translation gone stale (its English changed)."""
    shown: set[tuple[str, str]] = set()
    for _, kind, item in localized(payloads):
        if kind == "choice":
            shown.add(("choice_name", item["name"]))
            continue
        shown.add((f"{kind}_name", item["name"]))
        shown.add((f"{kind}_description", item["description"]))
    ja = catalog("ja")
    assert ja is not None
    held = {(str(m.context), str(m.id)) for m in ja if m.id}
    assert held - shown == set()
    assert shown - held == set()


def test_translations_keep_their_placeholders() -> None:
    ja = catalog("ja")
    assert ja is not None
    for message in ja:
        if message.id and isinstance(message.string, str):
            assert sorted(PLACEHOLDER.findall(str(message.id))) == sorted(
                PLACEHOLDER.findall(message.string)
            ), message.id


def test_locales_fall_back_to_english() -> None:
    assert language_of(discord.Locale.japanese) == "ja"
    assert language_of(discord.Locale.american_english) == "en"
    assert translate("ja", "challenge", "command_name") == "挑戦"
    assert translate("en", "challenge", "command_name") is None
    assert translate("fr", "challenge", "command_name") is None
    assert translate("ja", "no such text", "command_name") is None
