"""Ending a game by a player's choice: `/resign` (confirmed with a button) and `/abort`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.options import GameArg, resolve_game
from bot.ui.replies import Reply, send_ephemeral
from bot.ui.threads import announce_end


class ResignButton(GameButton, template=r"rs:(?P<game_id>\d+)"):
    """The confirmation that `/resign` asks for."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"rs:{game_id}", text.BUTTON_LABELS["resign"], discord.ButtonStyle.danger)
        self.game_id = game_id

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        game = await bot.service.moves.resign(
            self.game_id, interaction.user.id, guild_id=interaction.guild_id or 0
        )
        await Reply(interaction).edit(text.RESIGNED, view=None)
        await announce_end(bot, game)


class Endings(Feature):
    """Resigning and aborting."""

    BUTTONS = (ResignButton,)

    @app_commands.command(name="resign", description="Resign a game (asks to confirm).")
    @app_commands.describe(game=text.GAME_OPTION)
    async def resign(
        self, interaction: discord.Interaction[Any], game: GameArg | None = None
    ) -> None:
        chosen = await resolve_game(self.bot, interaction, game)
        chosen, opponent = await self.bot.service.moves.check_resign(
            chosen.id, interaction.user.id, guild_id=interaction.guild_id or 0
        )
        await send_ephemeral(
            interaction, text.resign_question(opponent), view=view_of(ResignButton(chosen.id))
        )

    @app_commands.command(name="abort", description="Abort a game before both players have moved.")
    @app_commands.describe(game=text.GAME_OPTION)
    async def abort(
        self, interaction: discord.Interaction[Any], game: GameArg | None = None
    ) -> None:
        chosen = await resolve_game(self.bot, interaction, game)
        ended = await self.bot.service.moves.abort(
            chosen.id, interaction.user.id, guild_id=interaction.guild_id or 0
        )
        await send_ephemeral(interaction, text.ABORTED)
        await announce_end(self.bot, ended)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Endings(bot))
