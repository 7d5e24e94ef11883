"""Records: `/export` gives a game's record as a file, with a lishogi analysis link."""

from __future__ import annotations

import io
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.options import GameArg, resolve_game
from bot.ui.replies import Reply


class Exports(Feature):
    """Game records."""

    @app_commands.command(name="export", description="Download a game record and an analysis link.")
    @app_commands.describe(game=text.GAME_OPTION, format="Record format")
    @app_commands.choices(format=[Choice(name=n, value=v) for v, n in text.FORMAT_NAMES.items()])
    async def export(
        self,
        interaction: discord.Interaction[Any],
        game: GameArg | None = None,
        format: str = "kif",
    ) -> None:
        shown = await resolve_game(self.bot, interaction, game)
        exported = await self.bot.service.exports.file(
            shown.id, format, guild_id=interaction.guild_id or 0
        )
        file = discord.File(
            io.BytesIO(exported.content.encode("utf-8")), filename=exported.filename
        )
        caption = text.export_caption(shown.id, format, exported.analysis_url)
        await Reply(interaction).send(caption, file=file)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Exports(bot))
