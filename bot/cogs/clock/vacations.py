"""Vacations (休暇): `/vacation` starts, ends or shows a player's vacation, and each of
their active games' threads hears when it starts and ends.

The answer is the player's own, so it is private and in their language; the posts in
the threads are for their opponents, in each server's language. A vacation that ends by
itself (the allowance ran out) is posted by the announcements feature.
"""

from __future__ import annotations

import logging

from discord import app_commands
from discord.app_commands import Choice

from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.replies import Reply, reader_language
from bot.ui.threads import tell_vacation

log = logging.getLogger(__name__)
ACTIONS = [Choice(name=name, value=value) for value, name in text.VACATION_ACTIONS.items()]


class VacationsFeature(Feature):
    """Players' vacations."""

    @command("vacation")
    @app_commands.choices(action=ACTIONS)
    async def vacation(self, interaction: Interaction, action: str = "status") -> None:
        """Start, end or show; the player hears privately, their opponents in the threads."""
        lang = reader_language(interaction)
        vacations = self.bot.service.vacations
        user_id = interaction.user.id
        reply = Reply(interaction)
        if action == "status":
            status = await vacations.status(user_id)
            await reply.send(text.vacation_text(lang, status), ephemeral=True)
            return
        change = await reply.within(
            vacations.start(user_id) if action == "start" else vacations.end(user_id),
            ephemeral=True,
        )
        log.info("player %s: vacation %s", user_id, action)
        answer = text.vacation_text(lang, change.status, games=len(change.games))
        await reply.send(answer, ephemeral=True)
        await tell_vacation(self.bot, change, by=interaction.user.id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(VacationsFeature(bot))
