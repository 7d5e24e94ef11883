"""The invite link and the digest that decides whether the commands are published again."""

from __future__ import annotations

import ast
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import discord
import pytest
from discord import app_commands

from bot.publishing import bot_permissions, command_payload, invite_url, payload_digest

APP_ID = 123456789012345678


def test_invite_url_asks_for_both_scopes_and_exactly_the_bot_permissions() -> None:
    url = urlsplit(invite_url(APP_ID))
    query = parse_qs(url.query)
    assert (url.scheme, url.netloc, url.path) == ("https", "discord.com", "/oauth2/authorize")
    assert query["client_id"] == [str(APP_ID)]
    assert query["scope"] == ["bot applications.commands"]
    assert query["permissions"] == [str(bot_permissions().value)]


def test_the_bot_asks_for_what_it_does_and_nothing_else() -> None:
    """Threads on challenges, boards as files, history read at restart; no moderation,
    no embeds, no administrator (a server owner refuses a bot that asks for too much)."""
    granted = {name for name, value in bot_permissions() if value}
    assert granted == {
        "read_messages",  # discord.py's name for View Channel
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "attach_files",
        "read_message_history",
    }
    # The same as the integer in the link: View Channel (bit 10), Send Messages (11), Attach
    # Files (15), Read Message History (16), Create Public Threads (35), Send Messages in
    # Threads (38), per Discord's permission table.
    assert bot_permissions().value == sum(1 << bit for bit in (10, 11, 15, 16, 35, 38))


def command(name: str, description: str, **extra: Any) -> dict[str, Any]:
    return {"type": 1, "name": name, "description": description, **extra}


def test_digest_ignores_key_order_and_command_order() -> None:
    first = [
        command("move", "Play a move", options=[{"name": "move", "type": 3}]),
        command("board", "Show the board"),
    ]
    shuffled = [
        {"description": "Show the board", "name": "board", "type": 1},
        {
            "options": [{"type": 3, "name": "move"}],
            "type": 1,
            "description": "Play a move",
            "name": "move",
        },
    ]
    assert payload_digest(first) == payload_digest(shuffled)
    assert len(payload_digest(first)) == 64


@pytest.mark.parametrize(
    "changed",
    [
        [command("move", "Play a move!"), command("board", "Show the board")],
        [command("move", "Play a move")],
        [command("move", "Play a move"), command("board", "Show the board", nsfw=True)],
        [command("move", "Play a move"), command("board", "Show the board"), command("x", "")],
    ],
    ids=["description", "removed", "new-key", "added"],
)
def test_digest_changes_with_what_discord_would_show(changed: list[dict[str, Any]]) -> None:
    base = [command("move", "Play a move"), command("board", "Show the board")]
    assert payload_digest(changed) != payload_digest(base)


def test_digest_keeps_the_order_of_options() -> None:
    """Discord shows options in the order given, so a reordering must be published."""
    a = {"name": "a", "type": 3}
    b = {"name": "b", "type": 3}
    assert payload_digest([command("m", "d", options=[a, b])]) != payload_digest(
        [command("m", "d", options=[b, a])]
    )


@pytest.fixture
async def tree() -> AsyncIterator[app_commands.CommandTree[discord.Client]]:
    client = discord.Client(intents=discord.Intents.none())
    tree = app_commands.CommandTree(client)

    @tree.command(name="move", description="Play a move")
    async def move(interaction: discord.Interaction, text: str) -> None:
        """Never called."""

    yield tree
    await client.close()


async def test_payload_is_what_the_tree_would_send(
    tree: app_commands.CommandTree[discord.Client],
) -> None:
    payload = await command_payload(tree, guild_id=None)
    assert payload == [c.to_dict(tree) for c in tree.get_commands()]
    assert [c["name"] for c in payload] == ["move"]
    assert await command_payload(tree, guild_id=42) == []
    tree.copy_global_to(guild=discord.Object(42))
    assert [c["name"] for c in await command_payload(tree, guild_id=42)] == ["move"]


async def test_a_changed_description_changes_the_digest(
    tree: app_commands.CommandTree[discord.Client],
) -> None:
    before = payload_digest(await command_payload(tree, guild_id=None))
    assert payload_digest(await command_payload(tree, guild_id=None)) == before
    move = tree.get_command("move")
    assert isinstance(move, app_commands.Command)
    move.description = "Play a move in your game"
    assert payload_digest(await command_payload(tree, guild_id=None)) != before


async def test_translations_are_part_of_the_payload(
    tree: app_commands.CommandTree[discord.Client],
) -> None:
    """With a translator, what `tree.sync` sends carries the localizations: a new
    translation must be published like a new description."""

    class French(app_commands.Translator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            return "Jouer un coup" if locale is discord.Locale.french else None

    before = payload_digest(await command_payload(tree, guild_id=None))
    await tree.set_translator(French())
    payload = await command_payload(tree, guild_id=None)
    assert payload[0]["description_localizations"] == {"fr": "Jouer un coup"}
    assert payload_digest(payload) != before
    await tree.set_translator(None)


def test_only_the_start_up_wiring_imports_publishing() -> None:
    """Publishing is start-up wiring: the game code must not come to depend on it."""
    package = Path(__file__).resolve().parents[2] / "bot"
    importers: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                modules = {"." * node.level + (node.module or "")}
                modules |= {alias.name for alias in node.names}
            elif isinstance(node, ast.Import):
                modules = {alias.name for alias in node.names}
            else:
                continue
            if any(module.endswith("publishing") for module in modules):
                importers.add(path.relative_to(package).as_posix())
    assert importers <= {"client.py", "__main__.py"}
    assert "client.py" in importers
