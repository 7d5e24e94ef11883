"""Server settings: `/language`, the language of the bot's posts in this server, and
`/timezone`, the zone its records and digests are dated in.

Posts in game threads are read by everyone there, so they follow the server, not the
member who caused them: by default the server's language in Discord (its community
settings), or the one a member who may manage the server chose here.
"""

from __future__ import annotations

import logging

from discord import app_commands
from discord.app_commands import Choice, Range

from bot.services.club.zones import LONGEST_NAME, default_zone, matching_zones
from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import MAX_CHOICES, server_of
from bot.ui.replies import Reply, reader_language
from bot.ui.text import zone_name

log = logging.getLogger(__name__)
FOLLOW_DISCORD = "server"


class SettingsFeature(Feature):
    """What a server's administrators choose."""

    @command("language")
    @app_commands.choices(
        language=[Choice(name=name, value=value) for value, name in text.LANGUAGE_NAMES.items()]
    )
    @app_commands.default_permissions(manage_guild=True)
    async def language(self, interaction: Interaction, language: str) -> None:
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

    @command("timezone", zone="server_zone")
    @app_commands.default_permissions(manage_guild=True)
    async def timezone(
        self, interaction: Interaction, zone: Range[str, 1, LONGEST_NAME] | None = None
    ) -> None:
        """Choose the server's zone (or its language's again), or show it; answered
        privately. Only a member who may manage the server changes it."""
        guild_id = server_of(interaction)
        lang = reader_language(interaction)
        if zone is not None and not interaction.permissions.manage_guild:
            refusal = text.say(lang, text.ZONE_MANAGERS_ONLY)
            await Reply(interaction).send(refusal, ephemeral=True)
            return
        if zone is not None:
            name = None if zone == text.DEFAULT_ZONE else zone
            await self.bot.service.servers.set_zone(guild_id, name)
            log.info("server %s: dated in %s", guild_id, name or "its language's zone")
        current = await self.bot.service.servers.chosen_zone(guild_id)
        shown = zone_name(await self.bot.server_zone(guild_id))
        answer = text.server_zone_text(
            lang, shown, chosen=current is not None, changed=zone is not None
        )
        await Reply(interaction).send(answer, ephemeral=True)

    @timezone.autocomplete("zone")
    async def zone_suggestions(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """The language's zone first, then the zone names containing what is typed."""
        lang = reader_language(interaction)
        language_zone = default_zone(await self.bot.post_language(interaction.guild_id)).key
        default = Choice(
            name=text.default_zone_choice(lang, language_zone), value=text.DEFAULT_ZONE
        )
        found = matching_zones(current, MAX_CHOICES - 1)
        return [default, *(Choice(name=name, value=name) for name in found)]


async def setup(bot: GameBot) -> None:
    await bot.add_cog(SettingsFeature(bot))
