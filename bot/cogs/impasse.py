"""Impasse (jishogi): `/jishogi` shows both counts; buttons propose or accept the 24-point
count, or declare under the 27-point rule, as the game's rule allows."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.options import GameArg, resolve_game
from bot.ui.replies import Reply, mentions, send_ephemeral
from bot.ui.threads import announce_end, post_to_game

_LABELS = {"propose": "propose", "accept": "accept_count", "declare": "declare"}


class JishogiButton(GameButton, template=r"js:(?P<action>propose|accept|declare):(?P<game_id>\d+)"):
    """Propose the 24-point count, accept it, or declare under the 27-point rule."""

    def __init__(self, action: str, game_id: int) -> None:
        super().__init__(
            f"js:{action}:{game_id}",
            text.BUTTON_LABELS[_LABELS[action]],
            discord.ButtonStyle.primary,
        )
        self.action, self.game_id = action, game_id

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        bot = host_of(interaction)
        impasse = bot.service.impasse
        user_id, guild_id = interaction.user.id, interaction.guild_id or 0
        if self.action == "propose":
            game = await impasse.propose_count(self.game_id, user_id, guild_id=guild_id)
            if game.is_active:
                opponent = game.opponent_of(user_id)
                await send_ephemeral(interaction, text.PROPOSAL_SENT)
                await post_to_game(
                    bot,
                    game,
                    text.count_proposed(opponent),
                    ping=opponent,
                    view=view_of(JishogiButton("accept", game.id)),
                )
                return
        elif self.action == "accept":
            game = await impasse.accept_count(self.game_id, user_id, guild_id=guild_id)
        else:
            game = await impasse.declare(self.game_id, user_id, guild_id=guild_id)
        await send_ephemeral(interaction, text.IMPASSE_SETTLED)
        await announce_end(bot, game)


class Impasse(Feature):
    """The impasse count and its settlement."""

    BUTTONS = (JishogiButton,)

    @app_commands.command(name="jishogi", description="Impasse count, proposals and declaration.")
    @app_commands.describe(game=text.GAME_OPTION)
    async def jishogi(
        self, interaction: discord.Interaction[Any], game: GameArg | None = None
    ) -> None:
        shown = await resolve_game(self.bot, interaction, game)
        report = await self.bot.service.impasse.report(shown.id, guild_id=interaction.guild_id or 0)
        buttons = []
        if report.can_propose_count:
            pending = report.game.pending_count_proposal
            buttons.append(JishogiButton("accept" if pending is not None else "propose", shown.id))
        if report.can_declare is not None:
            buttons.append(JishogiButton("declare", shown.id))
        extra = {"view": view_of(*buttons)} if buttons else {}
        await Reply(interaction).send(
            text.impasse_text(report), allowed_mentions=mentions(), **extra
        )


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Impasse(bot))
