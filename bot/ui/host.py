"""The bot as feature modules see it: a discord.py bot with the game service and the
board renderer. `bot.client.ShogiBot` builds and wires them; features only use them.
"""

from __future__ import annotations

from typing import Any, cast

import discord
from discord.ext import commands

from bot.services import GameService

from .boards import BoardRenderer


class GameBot(commands.Bot):
    """What every feature needs: `service` (set up in `setup_hook`) and `boards`."""

    boards: BoardRenderer

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.boards = BoardRenderer()
        self._service: GameService | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service


def host_of(interaction: discord.Interaction[Any]) -> GameBot:
    """The bot an interaction came to."""
    return cast(GameBot, interaction.client)
