"""`/help`: how to play, in one private message: an embed with a field per section."""

from __future__ import annotations

import discord

from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.replies import Reply, reader_language


def help_embed(lang: str) -> discord.Embed:
    """The help as Discord shows it best: a title and one field per section, each with
    its heading, so a reader finds "Writing moves" without reading everything."""
    embed = discord.Embed(title=text.help_title(lang))
    for heading, body in text.help_sections(lang):
        embed.add_field(name=heading, value=body, inline=False)
    return embed


class HelpFeature(Feature):
    """The help text."""

    @command("help", everywhere=True)
    async def help(self, interaction: Interaction) -> None:
        """Notations, commands and the rules in brief, privately."""
        embed = help_embed(reader_language(interaction))
        await Reply(interaction).send("", embed=embed, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(HelpFeature(bot))
