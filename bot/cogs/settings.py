"""Server settings: `/language`, the language of the bot's posts in this server.

Posts in game threads are read by everyone there, so they follow the server, not the
member who caused them: by default the server's language in Discord (its community
settings), or the one a member who may manage the server chose here.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.options import server_of
from bot.ui.replies import Reply, reader_language

log = logging.getLogger(__name__)
FOLLOW_DISCORD = "server"


class SettingsFeature(Feature):
    """What a server's administrators choose."""

    @app_commands.command(name="language", description=text.COMMANDS["language"])
    @app_commands.describe(language=text.OPTIONS["language"])
    @app_commands.choices(
        language=[Choice(name=name, value=value) for value, name in text.LANGUAGE_NAMES.items()]
    )
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        """Choose the language of posts; answered privately, in that language. Discord
        hides the command from members without Manage Server unless the server's
        administrators allowed them; the check here holds either way."""
        guild_id = server_of(interaction)
        if not interaction.permissions.manage_guild:
            refusal = text.say(reader_language(interaction), text.MANAGE_SERVER_ONLY)
            await Reply(interaction).send(refusal, ephemeral=True)
            return
        chosen = None if language == FOLLOW_DISCORD else language
        await self.bot.service.servers.set_language(guild_id, chosen)
        log.info("server %s: posts in %s", guild_id, chosen or "the server's language")
        lang = await self.bot.post_language(guild_id)
        await Reply(interaction).send(text.language_set(lang, chosen), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(SettingsFeature(bot))
