"""Records: `/export` gives a game's record as a file, with a lishogi analysis link."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import FORMATS
from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.options import GameArg, game_meant, server_of
from bot.ui.replies import Reply


class ExportFeature(Feature):
    """Game records."""

    @app_commands.command(name="export", description=text.COMMANDS["export"])
    @app_commands.describe(game=text.OPTIONS["finished_game"], format=text.OPTIONS["format"])
    @app_commands.choices(format=[Choice(name=text.FORMAT_NAMES[f], value=f) for f in FORMATS])
    @app_commands.guild_only()
    async def export(
        self,
        interaction: discord.Interaction[Any],
        game: GameArg | None = None,
        format: str = "kif",
    ) -> None:
        """The record as an attachment, publicly, with the analysis link if it fits."""
        game_id = await game_meant(self.bot, interaction, game)
        exported = await self.bot.service.exports.file(
            game_id, format, guild_id=server_of(interaction)
        )
        data = io.BytesIO(exported.content.encode("utf-8"))
        file = discord.File(data, filename=exported.filename)
        lang = await self.bot.post_language(server_of(interaction))
        caption = text.export_caption(lang, game_id, format, exported.analysis_url)
        await Reply(interaction).send(caption, file=file)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ExportFeature(bot))
