"""Looking at games: `/board` (a position as an image) and `/games` (a member's list)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import ListedStatus, PlayerRef
from bot.ui import text
from bot.ui.host import Feature, GameBot
from bot.ui.options import GameArg, answer_language, game_meant, server_of, shown_publicly
from bot.ui.replies import Reply, player_of, reader_language
from rules import Color


class BoardFeature(Feature):
    """Boards and lists of games."""

    @app_commands.command(name="board", description=text.COMMANDS["board"])
    @app_commands.describe(
        game=text.OPTIONS["finished_game"],
        perspective=text.OPTIONS["perspective"],
        style=text.OPTIONS["style"],
        public=text.OPTIONS["public"],
    )
    @app_commands.choices(
        perspective=[Choice(name=text.PERSPECTIVE_NAMES[c], value=c.name.lower()) for c in Color],
        style=[Choice(name=name, value=value) for value, name in text.STYLE_NAMES.items()],
    )
    @app_commands.guild_only()
    async def board(
        self,
        interaction: discord.Interaction[Any],
        game: GameArg | None = None,
        perspective: str | None = None,
        style: str = "image",
        public: bool | None = None,
    ) -> None:
        """The board from the viewer's side unless they choose one; public for the
        game's players, private for others unless they ask. `style:text` gives it as a
        text diagram under the same caption, for screen readers and text-only readers;
        a diagram is always written from sente's side, as records write it, so it takes
        no perspective."""
        reply = Reply(interaction)
        games = self.bot.service.games
        guild_id = server_of(interaction)
        shown = await games.get(await game_meant(self.bot, interaction, game), guild_id=guild_id)
        own = shown.color_of(interaction.user.id)
        if perspective is not None:
            facing = Color[perspective.upper()]
        else:
            facing = Color.SENTE if own is None else own
        publicly = shown_publicly(interaction, shown, public)
        lang = await answer_language(self.bot, interaction, public=publicly)
        if style == "text":
            diagram = text.board_caption(lang, shown) + "\n" + text.text_diagram(lang, shown)
            await reply.send(text.truncate(diagram), ephemeral=not publicly)
            return
        board = self.bot.boards.file(shown, lang, perspective=facing)
        file = await reply.within(board, ephemeral=not publicly)
        await reply.send(text.board_caption(lang, shown), file=file, ephemeral=not publicly)

    @app_commands.command(name="games", description=text.COMMANDS["games"])
    @app_commands.describe(member=text.OPTIONS["member"], status=text.OPTIONS["status"])
    @app_commands.choices(
        status=[Choice(name=name, value=value) for value, name in text.STATUS_NAMES.items()]
    )
    @app_commands.guild_only()
    async def games(
        self,
        interaction: discord.Interaction[Any],
        member: discord.Member | None = None,
        status: str = "active",
    ) -> None:
        """A member's games in this server, privately: active ones, finished ones with
        their result for that member, or both."""
        owner = (
            PlayerRef(member.id, member.display_name, member.bot)
            if member is not None
            else player_of(interaction)
        )
        which = ListedStatus(status)
        listed = await self.bot.service.games.listed(
            owner.user_id, guild_id=server_of(interaction), status=which
        )
        own = owner.user_id == interaction.user.id
        lang = reader_language(interaction)
        listing = text.games_list_text(lang, owner, listed, which, own=own)
        await Reply(interaction).send(listing, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(BoardFeature(bot))
