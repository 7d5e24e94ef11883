"""Ending a game by a player's choice: `/resign` (confirmed with a button) and `/abort`."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.services import both_have_moved
from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import GameArg, game_meant, server_of
from bot.ui.replies import Reply, reader_language, send_ephemeral
from bot.ui.threads import announce_end
from rules import Termination


class ResignButton(GameButton, template=r"rs:(?P<game_id>\d+)"):
    """The confirmation that `/resign` asks for."""

    def __init__(self, game_id: int, lang: str = SOURCE_LANGUAGE) -> None:
        label = text.button_label(lang, "rs")
        super().__init__(f"rs:{game_id}", label, discord.ButtonStyle.danger)
        self.game_id = game_id

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        game = await bot.service.endings.resign(
            self.game_id, interaction.user.id, guild_id=server_of(interaction)
        )
        aborted = game.outcome is not None and game.outcome.termination is Termination.ABORT
        answer = text.say(reader_language(interaction), text.ABORTED if aborted else text.RESIGNED)
        await Reply(interaction).edit(answer, view=None)
        await announce_end(bot, game, by=interaction.user.id)


class EndingsFeature(Feature):
    """Resigning and aborting."""

    BUTTONS = (ResignButton,)

    @app_commands.command(name="resign", description=text.COMMANDS["resign"])
    @app_commands.describe(game=text.OPTIONS["game"])
    @app_commands.guild_only()
    async def resign(
        self, interaction: discord.Interaction[Any], game: GameArg | None = None
    ) -> None:
        """Ask to confirm, privately: a resignation cannot be taken back."""
        game_id = await game_meant(self.bot, interaction, game)
        chosen, opponent = await self.bot.service.endings.check_resign(
            game_id, interaction.user.id, guild_id=server_of(interaction)
        )
        lang = reader_language(interaction)
        aborts = not both_have_moved(chosen.ply)
        await send_ephemeral(
            interaction,
            text.resign_question(lang, opponent, aborts=aborts),
            view=view_of(ResignButton(chosen.id, lang)),
        )

    @app_commands.command(name="abort", description=text.COMMANDS["abort"])
    @app_commands.describe(game=text.OPTIONS["game"])
    @app_commands.guild_only()
    async def abort(
        self, interaction: discord.Interaction[Any], game: GameArg | None = None
    ) -> None:
        """End a game nobody has really started, without a result."""
        game_id = await game_meant(self.bot, interaction, game)
        ended = await self.bot.service.endings.abort(
            game_id, interaction.user.id, guild_id=server_of(interaction)
        )
        await send_ephemeral(interaction, text.say(reader_language(interaction), text.ABORTED))
        await announce_end(self.bot, ended, by=interaction.user.id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(EndingsFeature(bot))
