"""`/help`: how to play, in one private message."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.replies import Reply, reader_language


class HelpFeature(Feature):
    """The help text."""

    @app_commands.command(name="help", description=text.COMMANDS["help"])
    async def help(self, interaction: discord.Interaction[Any]) -> None:
        """Notations, commands and the rules in brief, privately."""
        await Reply(interaction).send(text.help_text(reader_language(interaction)), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(HelpFeature(bot))
