"""Records: `/export` gives a game's record as a file, with a lishogi analysis link, or
the game as an animated GIF."""

from __future__ import annotations

import io
from datetime import tzinfo

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import FORMATS, GameSnapshot
from bot.ui import text
from bot.ui.boards import AnimationBusy, upload_size
from bot.ui.commands import command
from bot.ui.errors import OptionError
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import GameArg, answer_language, game_meant, server_of, shown_publicly
from bot.ui.replies import Reply
from render import GifTooLarge

#: The `format` choice that gives the game as an animation instead of a record.
ANIMATION = "gif"


class ExportFeature(Feature):
    """Game records."""

    @command("export")
    @app_commands.choices(
        format=[Choice(name=text.FORMAT_NAMES[f], value=f) for f in (*FORMATS, ANIMATION)]
    )
    async def export(
        self,
        interaction: Interaction,
        game: GameArg | None = None,
        format: str = "kif",
        public: bool | None = None,
    ) -> None:
        """The record as an attachment with the analysis link if it fits; public for the
        game's players, private for others unless they ask. A private record carries the
        asker's own notes as comments; a public one never carries any."""
        guild_id = server_of(interaction)
        game_id = await game_meant(self.bot, interaction, game)
        shown = await self.bot.service.games.get(game_id, guild_id=guild_id)
        publicly = shown_publicly(interaction, shown, public)
        if format == ANIMATION:
            await self._animation(interaction, shown, publicly=publicly)
            return
        # The asker's private notes go only into a record nobody else will see.
        notes_of = None if publicly else interaction.user.id
        guild = self.bot.get_guild(guild_id)
        me = self.bot.user
        exported = await self.bot.service.exports.file(
            game_id,
            format,
            guild_id=guild_id,
            notes_of=notes_of,
            zone=await self._record_zone(guild_id),
            event=None if guild is None else guild.name,
            site="Discord" if me is None else f"Discord ({me.name})",
        )
        file = discord.File(io.BytesIO(exported.data), filename=exported.filename)
        lang = await answer_language(self.bot, interaction, public=publicly)
        caption = text.export_caption(
            lang, game_id, format, exported.analysis_url, replaced=exported.replaced
        )
        await Reply(interaction).send(caption, file=file, ephemeral=not publicly)

    async def _record_zone(self, guild_id: int) -> tzinfo:
        """The time zone a record's dates are written in: the server's (the one chosen with
        `/timezone`, else Japan's for a server whose posts are in Japanese, else UTC)."""
        return await self.bot.server_zone(guild_id)

    async def _animation(
        self, interaction: Interaction, game: GameSnapshot, *, publicly: bool
    ) -> None:
        """The game from its start to its current move as a GIF (notes have no place in a
        picture, so it is the same for everyone); a game too long for the upload limit
        from as late a move as fits, saying so. One at a time for each member: a second
        request while the first is being made is answered with one sentence."""
        reply = Reply(interaction)
        lang = await answer_language(self.bot, interaction, public=publicly)
        built = self.bot.boards.animation(
            game, lang, limit=interaction.filesize_limit, member=interaction.user.id
        )
        try:
            animation = await reply.within(built, ephemeral=not publicly)
        except AnimationBusy as busy:
            sentence = text.ANIMATIONS_CROWDED if busy.crowded else text.ANIMATION_BUSY
            raise OptionError(sentence) from None
        except GifTooLarge:
            raise OptionError(text.ANIMATION_TOO_LARGE) from None
        if upload_size(animation.file) > interaction.filesize_limit:
            raise OptionError(text.ANIMATION_TOO_LARGE)
        caption = text.animation_export_caption(lang, game, animation.shown_moves)
        await reply.send(caption, file=animation.file, ephemeral=not publicly)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ExportFeature(bot))
