"""Looking at games: `/board` (a position as an image) and `/games` (a member's list)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import PlayerRef
from bot.services.loading import parse_color
from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.options import GameArg, resolve_game
from bot.ui.replies import Reply, player_of
from rules import Color


class Boards(Feature):
    """Boards and lists of games."""

    @app_commands.command(name="board", description="Show a game's board.")
    @app_commands.describe(
        game=text.GAME_OPTION, perspective="Whose side faces you (default: yours)"
    )
    @app_commands.choices(
        perspective=[Choice(name=n, value=v) for v, n in text.PERSPECTIVE_NAMES.items()]
    )
    async def board(
        self,
        interaction: discord.Interaction[Any],
        game: GameArg | None = None,
        perspective: str | None = None,
    ) -> None:
        reply = Reply(interaction)
        shown = await resolve_game(self.bot, interaction, game)
        if perspective is None:
            own = shown.color_of(interaction.user.id)
            facing = Color.SENTE if own is None else own
        else:
            facing = parse_color(perspective) or Color.SENTE
        file = await reply.within(self.bot.boards.file(shown, perspective=facing), private=False)
        await reply.send(text.board_caption(shown), file=file)

    @app_commands.command(name="games", description="List active games.")
    @app_commands.describe(member="Whose games (default: yours)")
    async def games(
        self, interaction: discord.Interaction[Any], member: discord.Member | None = None
    ) -> None:
        owner = (
            PlayerRef(member.id, member.display_name, member.bot)
            if member is not None
            else player_of(interaction)
        )
        listed = await self.bot.service.games.active_for(
            owner.user_id, guild_id=interaction.guild_id
        )
        await Reply(interaction).send(text.games_list_text(owner, listed), ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Boards(bot))
