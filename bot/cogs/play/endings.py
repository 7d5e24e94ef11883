"""Ending a game by a player's choice: `/resign` (confirmed with a button) and `/abort`."""

from __future__ import annotations

import discord

from bot.services import both_have_moved
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.options import GameArg, by_member, on_game_meant
from bot.ui.replies import Reply, reader_language, send_ephemeral
from bot.ui.threads import announce_end
from rules import Termination


class ResignButton(GameButton):
    """The confirmation that `/resign` asks for."""

    KEY, STYLE = "rs", discord.ButtonStyle.danger

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        game = await by_member(interaction, bot.service.endings.resign, self.game_id)
        aborted = game.outcome is not None and game.outcome.termination is Termination.ABORT
        answer = text.say(reader_language(interaction), text.ABORTED if aborted else text.RESIGNED)
        await Reply(interaction).edit(answer, view=None)
        await announce_end(bot, game, by=interaction.user.id)


class EndingsFeature(Feature):
    """Resigning and aborting."""

    BUTTONS = (ResignButton,)

    @command("resign")
    async def resign(self, interaction: Interaction, game: GameArg | None = None) -> None:
        """Ask to confirm, privately: a resignation cannot be taken back."""
        chosen, opponent = await on_game_meant(
            self.bot, interaction, game, self.bot.service.endings.check_resign
        )
        lang = reader_language(interaction)
        aborts = not both_have_moved(chosen.ply)
        await send_ephemeral(
            interaction,
            text.resign_question(lang, opponent, aborts=aborts),
            view=view_of(ResignButton(chosen.id, lang)),
        )

    @command("abort")
    async def abort(self, interaction: Interaction, game: GameArg | None = None) -> None:
        """End a game nobody has really started, without a result."""
        ended = await on_game_meant(self.bot, interaction, game, self.bot.service.endings.abort)
        await send_ephemeral(interaction, text.say(reader_language(interaction), text.ABORTED))
        await announce_end(self.bot, ended, by=interaction.user.id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(EndingsFeature(bot))
