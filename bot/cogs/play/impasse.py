"""Impasse (jishogi): `/jishogi` shows both counts; buttons propose or accept the 24-point
count, or declare under the 27-point rule, as the game's rule allows."""

from __future__ import annotations

from dataclasses import replace

import discord

from bot.services import Cast, Event
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import GameArg, answer_language, game_meant, server_of, shown_publicly
from bot.ui.replies import Reply, pings, reader_language, send_ephemeral
from bot.ui.threads import announce, announce_end


class JishogiButton(GameButton, template=r"js:(?P<action>propose|accept|declare):(?P<game_id>\d+)"):
    """Propose the 24-point count, accept it, or declare under the 27-point rule."""

    def __init__(self, action: str, game_id: int, lang: str = SOURCE_LANGUAGE) -> None:
        self.show(
            f"js:{action}:{game_id}",
            text.button_label(lang, f"js:{action}"),
            discord.ButtonStyle.primary,
        )
        self.action, self.game_id = action, game_id

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        impasse = bot.service.impasse
        user_id, guild_id = interaction.user.id, server_of(interaction)
        reader = reader_language(interaction)
        if self.action == "propose":
            game = await impasse.propose_count(self.game_id, user_id, guild_id=guild_id)
            if game.outcome is None:  # proposed; had the opponent proposed first, it is settled
                opponent = game.opponent_of(user_id)
                await send_ephemeral(interaction, text.say(reader, text.PROPOSAL_SENT))
                cast = replace(Cast.of_game(game, actor=user_id), answerer=opponent)
                await announce(
                    bot,
                    Event.COUNT_PROPOSED,
                    game,
                    lambda lang: text.count_proposed(lang, opponent),
                    cast=cast,
                    view=lambda lang: view_of(JishogiButton("accept", game.id, lang)),
                )
                return
        elif self.action == "accept":
            game = await impasse.accept_count(self.game_id, user_id, guild_id=guild_id)
        else:
            game = await impasse.declare(self.game_id, user_id, guild_id=guild_id)
        await send_ephemeral(interaction, text.say(reader, text.IMPASSE_SETTLED))
        await announce_end(bot, game, by=user_id)


class ImpasseFeature(Feature):
    """The impasse count and its settlement."""

    BUTTONS = (JishogiButton,)

    @command("jishogi")
    async def jishogi(
        self, interaction: Interaction, game: GameArg | None = None, public: bool | None = None
    ) -> None:
        """Both counts, with the buttons the game's rule allows now; public for the
        game's players, private for others unless they ask."""
        game_id = await game_meant(self.bot, interaction, game)
        guild_id = server_of(interaction)
        report = await self.bot.service.impasse.report(game_id, guild_id=guild_id)
        publicly = shown_publicly(interaction, report.game, public)
        lang = await answer_language(self.bot, interaction, public=publicly)
        buttons = []
        if report.can_propose_count:
            pending = report.game.pending_count_proposal
            action = "accept" if pending is not None else "propose"
            buttons.append(JishogiButton(action, game_id, lang))
        if report.can_declare is not None:
            buttons.append(JishogiButton("declare", game_id, lang))
        extra = {"view": view_of(*buttons)} if buttons else {}
        content = text.impasse_text(lang, report)
        await Reply(interaction).send(
            content, allowed_mentions=pings(), ephemeral=not publicly, **extra
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ImpasseFeature(bot))
