"""Options shared by several commands: `game`, with its parsing and suggestions."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import GameSnapshot

from . import text
from .errors import UserInputError
from .host import GameBot, host_of

log = logging.getLogger(__name__)
MAX_CHOICES = 25


def parse_game_id(value: str) -> int:
    """`12`, `#12` or a suggestion's value, as a game id."""
    digits = value.strip().lstrip("#")
    if not digits.isdigit() or len(digits) > 18:
        raise UserInputError(text.BAD_GAME_OPTION)
    return int(digits)


class GameOption(app_commands.Transformer):
    """A game id typed or picked from the member's own games in this server."""

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> int:
        return parse_game_id(value)

    async def autocomplete(  # type: ignore[override]
        self, interaction: discord.Interaction[Any], value: str
    ) -> list[Choice[str]]:
        try:
            games = await host_of(interaction).service.games.active_for(
                interaction.user.id, guild_id=interaction.guild_id
            )
        except Exception:
            log.exception("game suggestions failed")
            return []
        typed = value.strip().lower().lstrip("#")
        choices = []
        for summary in games:
            name = text.game_choice(summary)
            if typed in name.lower():
                choices.append(Choice(name=name, value=str(summary.id)))
        return choices[:MAX_CHOICES]


GameArg = app_commands.Transform[int, GameOption]


async def resolve_game(
    bot: GameBot, interaction: discord.Interaction[Any], game_id: int | None
) -> GameSnapshot:
    """The game a command means (see `Games.resolve`), in this server."""
    return await bot.service.games.resolve(
        interaction.user.id,
        guild_id=interaction.guild_id or 0,
        game_id=game_id,
        thread_id=interaction.channel_id,
    )
