"""Analysis (解析): `/analyse` a finished game with the engine.

Only finished games: the service refuses one in progress. The engine evaluates each
position in the background while one message shows how far it got (edited at most once a
second, well inside Discord's rate limits); the answer then replaces it: each player's
mistakes and blunders, the engine's move at each, and the evaluation chart. Evaluations
are stored, so asking again answers at once.
"""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.services import NO_ENGINE, ServiceError
from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import GameArg, answer_language, game_meant, server_of
from bot.ui.replies import Reply

log = logging.getLogger(__name__)
#: The least time between two edits of the progress message, in seconds.
PROGRESS_EVERY = 1.0


class AnalysisFeature(Feature):
    """Finished games analysed by the engine."""

    @command("analyse", public="show_all")
    async def analyse(
        self, interaction: Interaction, game: GameArg | None = None, public: bool = False
    ) -> None:
        reply = Reply(interaction)
        private = not public
        service = self.bot.service.analyses
        guild_id = server_of(interaction)
        game_id = await reply.within(game_meant(self.bot, interaction, game), ephemeral=private)
        _, missing = await reply.within(
            service.prepare(game_id, guild_id=guild_id, user_id=interaction.user.id),
            ephemeral=private,
        )
        lang = await answer_language(self.bot, interaction, public=public)
        if not missing:
            analysis = await reply.within(
                service.analyse(game_id, guild_id=guild_id), ephemeral=not public
            )
            chart = await self.bot.boards.evaluation_chart(analysis, lang)
            await reply.send(text.analysis_text(lang, analysis), file=chart, ephemeral=not public)
            return
        await reply.defer(ephemeral=private)
        loop = asyncio.get_running_loop()
        shown = [loop.time() - PROGRESS_EVERY]

        async def progress(done: int, total: int) -> None:
            if loop.time() - shown[0] < PROGRESS_EVERY and done < total:
                return
            shown[0] = loop.time()
            try:
                await interaction.edit_original_response(
                    content=text.analysis_progress_text(lang, game_id, done, total)
                )
            except discord.HTTPException:
                log.warning("could not show game %s's analysis progress", game_id, exc_info=True)

        try:
            analysis = await service.analyse(
                game_id, guild_id=guild_id, progress=progress, user_id=interaction.user.id
            )
        except ServiceError as error:
            await interaction.edit_original_response(content=text.say(lang, error.sentence))
            return
        chart = await self.bot.boards.evaluation_chart(analysis, lang)
        await interaction.edit_original_response(
            content=text.truncate(text.analysis_text(lang, analysis)), attachments=[chart]
        )
        log.info("game %s analysed (%s marked moves)", game_id, len(analysis.marks))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(AnalysisFeature(bot))
    if bot.service.analyses.engine is None:  # nothing to offer: the command is not published
        bot.withhold("analyse", NO_ENGINE)
