"""A command declared by name (`bot.ui.commands.command`): its description and every
option's come from the wording, and a mistake fails when the feature loads."""

from __future__ import annotations

from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from bot.ui import text
from bot.ui.commands import command


class Declared(commands.Cog):
    @command("jishogi")
    async def jishogi(
        self, interaction: discord.Interaction[Any], game: int | None = None, public: bool = False
    ) -> None: ...

    @command("export")
    async def export(
        self, interaction: discord.Interaction[Any], game: int | None = None, format: str = "kif"
    ) -> None: ...

    @command("rating", member="rated_member", public="show_all")
    async def rating(
        self, interaction: discord.Interaction[Any], member: str = "", public: bool = False
    ) -> None: ...

    @command("help", everywhere=True)
    async def help(self, interaction: discord.Interaction[Any]) -> None: ...


def descriptions(declared: app_commands.Command[Any, Any, Any]) -> dict[str, str]:
    return {parameter.name: parameter.description for parameter in declared.parameters}


def test_a_command_and_its_options_are_described_by_their_names() -> None:
    assert Declared.jishogi.name == "jishogi"
    assert Declared.jishogi.description == text.COMMANDS["jishogi"]
    assert descriptions(Declared.jishogi) == {
        "game": text.OPTIONS["game"],
        "public": text.OPTIONS["public"],
    }


def test_game_says_finished_games_count_where_the_command_takes_them() -> None:
    assert descriptions(Declared.export)["game"] == text.OPTIONS["finished_game"]
    assert descriptions(Declared.export)["format"] == text.OPTIONS["format"]


def test_an_option_may_name_the_entry_describing_it() -> None:
    assert descriptions(Declared.rating) == {
        "member": text.OPTIONS["rated_member"],
        "public": text.OPTIONS["show_all"],
    }


def test_commands_are_for_servers_unless_declared_everywhere() -> None:
    assert Declared.jishogi.guild_only and Declared.rating.guild_only
    assert not Declared.help.guild_only


def test_an_option_described_nowhere_fails_at_declaration() -> None:
    with pytest.raises(KeyError, match="undescribed"):

        @command("move")
        async def move(
            self: commands.Cog, interaction: discord.Interaction[Any], undescribed: str
        ) -> None: ...


def test_a_description_for_no_option_fails_at_declaration() -> None:
    with pytest.raises(TypeError, match="/move has no option gmae"):

        @command("move", gmae="finished_game")
        async def move(
            self: commands.Cog, interaction: discord.Interaction[Any], move: str
        ) -> None: ...
