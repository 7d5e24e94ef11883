"""Private notes (メモ): `/note` writes one on a game, `/notes` lists and deletes them.

A note is its author's alone, so every answer here is private and in the member's own
language; the notes reach a record only through the author's private `/export`.
"""

from __future__ import annotations

import logging

from discord import app_commands

from bot.services import MAX_NOTE_LENGTH, note_number
from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import GameArg, game_meant, server_of
from bot.ui.replies import Reply, reader_language

log = logging.getLogger(__name__)


class NotesFeature(Feature):
    """Each member's private notes on games."""

    @command("note", body="note_text")
    @app_commands.rename(body="text")  # `text` is this module's wording
    async def note(
        self,
        interaction: Interaction,
        body: app_commands.Range[str, 1, MAX_NOTE_LENGTH],
        game: GameArg | None = None,
    ) -> None:
        """Store the note at the game's current move; only its author hears of it."""
        game_id = await game_meant(self.bot, interaction, game)
        written = await self.bot.service.notes.add(
            game_id, interaction.user.id, body, guild_id=server_of(interaction)
        )
        log.info("game %s: note %s written", game_id, written.id)
        answer = text.note_saved(reader_language(interaction), written)
        await Reply(interaction).send(answer, ephemeral=True)

    @command("notes")
    async def notes(
        self, interaction: Interaction, game: GameArg | None = None, delete: str | None = None
    ) -> None:
        """List the member's notes on the game, privately; with `delete`, first delete
        that note (`all`, or 0: all of them)."""
        guild_id = server_of(interaction)
        game_id = await game_meant(self.bot, interaction, game)
        notes = self.bot.service.notes
        user_id = interaction.user.id
        deleted = None
        if delete is not None:
            number = note_number(delete)
            deleted = await notes.delete(game_id, user_id, number, guild_id=guild_id)
            log.info("game %s: %s notes deleted", game_id, deleted)
        kept = await notes.of(game_id, user_id, guild_id=guild_id)
        lang = reader_language(interaction)
        answer = text.notes_text(lang, game_id, kept, deleted=deleted)
        await Reply(interaction).send(answer, ephemeral=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(NotesFeature(bot))
