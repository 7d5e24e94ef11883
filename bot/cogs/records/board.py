"""Looking at games: `/board` (a game's position, or any position or record, as an image)
and `/games` (a member's list)."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import ListedStatus, read_position
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import OptionError
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import (
    GameArg,
    answer_language,
    game_meant,
    record_file,
    server_of,
    shown_publicly,
)
from bot.ui.replies import Reply, as_player, reader_language
from rules import Color


class BoardFeature(Feature):
    """Boards and lists of games."""

    @command("board")
    @app_commands.choices(
        perspective=[Choice(name=text.PERSPECTIVE_NAMES[c], value=c.name.lower()) for c in Color],
        style=[Choice(name=name, value=value) for value, name in text.STYLE_NAMES.items()],
    )
    async def board(
        self,
        interaction: Interaction,
        game: GameArg | None = None,
        perspective: str | None = None,
        style: str = "image",
        public: bool | None = None,
        position: app_commands.Range[str, 1, 6000] | None = None,
        record: discord.Attachment | None = None,
        at_move: app_commands.Range[int, 0, 10_000] | None = None,
    ) -> None:
        """The board from the viewer's side unless they choose one; public for the
        game's players, private for others unless they ask. `style:text` gives it as a
        text diagram under the same caption, for screen readers and text-only readers;
        a diagram is always written from sente's side, as records write it, so it takes
        no perspective. With `position` or `record`, any position instead of a game's."""
        if position is not None or record is not None:
            if game is not None or (position is not None and record is not None):
                raise OptionError(text.GAME_OR_POSITION)
            facing = Color.SENTE if perspective is None else Color[perspective.upper()]
            await self._show_position(
                interaction, position or record, at_move, facing, style, public=bool(public)
            )
            return
        if at_move is not None:
            raise OptionError(text.BOARD_MOVE_WITHOUT_RECORD)
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
        caption = text.board_caption(lang, shown, self.bot.service.store.now())
        if style == "text":
            diagram = caption + "\n" + text.text_diagram(lang, shown)
            await reply.send(text.truncate(diagram), ephemeral=not publicly)
            return
        board = self.bot.boards.file(shown, lang, perspective=facing)
        file = await reply.within(board, ephemeral=not publicly)
        await reply.send(caption, file=file, ephemeral=not publicly)

    async def _show_position(
        self,
        interaction: Interaction,
        given: str | discord.Attachment | None,
        at_move: int | None,
        facing: Color,
        style: str,
        *,
        public: bool,
    ) -> None:
        """An SFEN or a record (pasted, or a file, refused unread when too large) at a
        ply; private unless asked, as it belongs to no game's thread."""
        reply = Reply(interaction)
        if isinstance(given, discord.Attachment):
            data: str | bytes = await record_file(reply, given, public=public)
        else:
            data = given or ""
        reading = self.bot.readers.run(read_position, data, at_move)  # off the GIL too
        shown = await reply.within(reading, ephemeral=not public)
        lang = await answer_language(self.bot, interaction, public=public)
        caption = text.position_caption(lang, shown)
        if style == "text":
            diagram = "\n".join(
                text.position_diagram(lang, shown.position, handicap=shown.handicap)
            )
            await reply.send(text.truncate(f"{caption}\n```\n{diagram}\n```"), ephemeral=not public)
            return
        board = self.bot.boards.position_file(shown, lang, perspective=facing)
        file = await reply.within(board, ephemeral=not public)
        await reply.send(caption, file=file, ephemeral=not public)

    @command("games")
    @app_commands.choices(
        status=[Choice(name=name, value=value) for value, name in text.STATUS_NAMES.items()]
    )
    async def games(
        self, interaction: Interaction, member: discord.Member | None = None, status: str = "active"
    ) -> None:
        """A member's games in this server, privately: active ones, finished ones with
        their result for that member, or both."""
        owner = as_player(member or interaction.user)
        which = ListedStatus(status)
        listed = await self.bot.service.games.listed(
            owner.user_id, guild_id=server_of(interaction), status=which
        )
        own = owner.user_id == interaction.user.id
        lang = reader_language(interaction)
        openings = await self.bot.service.openings.of_games([game.id for game in listed.games])
        listing = text.games_list_text(lang, owner, listed, which, own=own, openings=openings)
        await Reply(interaction).send(listing, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(BoardFeature(bot))
