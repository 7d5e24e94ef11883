"""A player's own settings: `/preferences`, whether `/move` asks to confirm first and
whether a direct message tells them their turn has come.

They are the player's, in every server, so the answer is private and in the member's
language. Each use stores the member's Discord language too: a direct message answers
no interaction, so it is written in the language they had when they last chose.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.replies import Reply, reader_language

log = logging.getLogger(__name__)
SWITCHES = [Choice(name=name, value=value) for value, name in text.SWITCH_NAMES.items()]


def _switch(value: str | None) -> bool | None:
    """An on/off option as chosen, None where it was left out."""
    return None if value is None else value == "on"


class PreferencesFeature(Feature):
    """What each player chooses for themselves."""

    @app_commands.command(name="preferences", description=text.COMMANDS["preferences"])
    @app_commands.describe(
        confirm=text.OPTIONS["confirm"], turn_message=text.OPTIONS["turn_message"]
    )
    @app_commands.choices(confirm=SWITCHES, turn_message=SWITCHES)
    @app_commands.guild_only()
    async def preferences(
        self,
        interaction: discord.Interaction[Any],
        confirm: str | None = None,
        turn_message: str | None = None,
    ) -> None:
        """Change what is given and show all the settings; with no option, only show."""
        lang = reader_language(interaction)
        user_id = interaction.user.id
        changing = confirm is not None or turn_message is not None
        chosen = await self.bot.service.preferences.change(
            user_id,
            confirm_moves=_switch(confirm),
            turn_messages=_switch(turn_message),
            language=lang,
        )
        self.bot.turn_messages.reopened(user_id)  # perhaps they opened their DMs since
        if changing:
            log.info(
                "player %s: confirm moves %s, turn messages %s",
                user_id,
                chosen.confirm_moves,
                chosen.turn_messages,
            )
        answer = text.preferences_text(lang, chosen, changed=changing)
        await Reply(interaction).send(answer, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PreferencesFeature(bot))
