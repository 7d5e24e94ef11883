"""Forecasts (予約手, conditional moves): `/forecast` stores, lists and clears a player's
lines, always privately: a forecast is a plan the opponent must not see.

The reply a line gives is played by the service inside the opponent's move's own
transaction and comes back with that move (`PlayedMove.forecast`); `bot.cogs.play.moves`
posts it after the opponent's move, so the thread reads in the order things happened.
"""

from __future__ import annotations

import logging

from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import GameArg, game_meant, server_of
from bot.ui.replies import Reply, reader_language

log = logging.getLogger(__name__)


class ForecastsFeature(Feature):
    """Storing, listing and clearing forecasts."""

    @command("forecast")
    async def forecast(
        self,
        interaction: Interaction,
        line: str | None = None,
        clear: bool = False,
        game: GameArg | None = None,
    ) -> None:
        """With `line`, store it; with `clear`, drop the player's lines first; either way
        (or with neither) answer with the lines as they now stand."""
        reply = Reply(interaction)
        lang = reader_language(interaction)
        user_id, guild_id = interaction.user.id, server_of(interaction)
        forecasts = self.bot.service.forecasts

        async def work() -> str:
            game_id = await game_meant(self.bot, interaction, game)
            cleared = None
            if clear:
                cleared = await forecasts.clear(game_id, user_id, guild_id=guild_id)
                log.info("game %s: %s cleared %s forecasts", game_id, user_id, cleared)
            if line:
                stored = await forecasts.add(game_id, user_id, line, guild_id=guild_id)
                log.info("game %s: %s stored a forecast", game_id, user_id)
            else:
                stored = await forecasts.lines(game_id, user_id, guild_id=guild_id)
            return text.forecast_text(lang, stored, added=bool(line), cleared=cleared)

        answer = await reply.within(work(), ephemeral=True)
        await reply.send(answer, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ForecastsFeature(bot))
