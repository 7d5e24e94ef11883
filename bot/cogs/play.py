"""Playing: `/move`, its suggestions, and the Promote / Don't promote buttons.

The board after a move goes publicly into the game's thread with a mention of
the player to move; the mover gets a private note wherever else they typed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import AmbiguousMove, PlayedMove
from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import MAX_CHOICES, GameArg, game_meant, parse_game_id, server_of
from bot.ui.replies import Reply, pings, player_of, reader_language, send_ephemeral
from bot.ui.suggestions import rank_moves
from bot.ui.threads import post_board

log = logging.getLogger(__name__)
ALREADY_ANSWERED = 40060  # Discord's code for a second answer to one interaction
MAX_BUTTONS = 25  # Discord's limit: five rows of five


class MoveButton(
    GameButton,
    template=r"pr:(?P<game_id>\d+):(?P<ply>\d+):(?P<usi>(?:[1-9][a-i]|[PLNSGBR]\*)[1-9][a-i]\+?)",
):
    """One answer to a move that fitted several: Promote / Don't promote, or one of the
    pieces that could go there (labelled as the player would write it, ４八金右). The ply
    in the id makes a late click on an old question fail cleanly instead of playing a
    move into a position that has changed."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        usi: str,
        lang: str = SOURCE_LANGUAGE,
        label: str | None = None,
    ) -> None:
        promote = usi.endswith("+")
        if label is None:
            label = text.button_label(lang, "pr:promote" if promote else "pr:keep")
        super().__init__(
            f"pr:{game_id}:{ply}:{usi}",
            label,
            discord.ButtonStyle.primary if promote else discord.ButtonStyle.secondary,
        )
        self.game_id, self.ply, self.usi = game_id, ply, usi

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await play(host_of(interaction), interaction, self.game_id, self.usi, expected_ply=self.ply)


async def play(
    bot: GameBot,
    interaction: discord.Interaction[Any],
    game_id: int | None,
    move: str,
    *,
    expected_ply: int | None = None,
) -> None:
    """Play and announce a move, answering Discord in time however slow the database or
    the renderer is today."""
    reply = Reply(interaction)
    service = bot.service
    user = player_of(interaction)
    guild_id = server_of(interaction)

    async def work() -> PlayedMove:
        resolved = await game_meant(bot, interaction, game_id)
        return await service.moves.play(
            resolved,
            user.user_id,
            move,
            expected_ply=expected_ply,
            guild_id=guild_id,
            name=user.name,
        )

    try:
        played = await reply.within(work(), ephemeral=True)
    except AmbiguousMove as question:
        await _ask_which(interaction, question, typed=move)
        return
    log.info("game %s ply %s: %s", played.game.id, played.game.ply, played.move.usi)
    await _announce(bot, reply, played)


async def _ask_which(
    interaction: discord.Interaction[Any], question: AmbiguousMove, *, typed: str
) -> None:
    """Several moves fit what was typed: one button per answer, privately."""
    lang = reader_language(interaction)
    game_id, ply = question.game_id, question.ply
    if question.promotion_choice is not None:
        buttons = [MoveButton(game_id, ply, c.usi, lang) for c in question.promotion_choice]
        content = text.say(lang, question.sentence)
    else:
        japanese = any(not character.isascii() for character in typed)
        candidates = question.candidates[:MAX_BUTTONS]
        buttons = [
            MoveButton(game_id, ply, c.usi, lang, c.japanese if japanese else c.western)
            for c in candidates
        ]
        content = text.which_move(lang, typed)
    await send_ephemeral(interaction, content, view=view_of(*buttons))


async def _announce(bot: GameBot, reply: Reply, played: PlayedMove) -> None:
    """The board publicly in the game's thread, a private note elsewhere.

    In the thread, a quick answer is the board itself. A slow one was deferred privately,
    and the board is posted as a new message: the edit that replaces "thinking…" would
    not notify the player it mentions. The move is stored by now, so whatever goes wrong
    with the answer, the thread still hears of it.
    """
    interaction, game = reply.interaction, played.game
    reader = reader_language(interaction)
    if interaction.type is discord.InteractionType.component:
        await reply.edit(text.played_note(reader, played.move), view=None)
    elif interaction.channel_id == game.thread_id and not interaction.response.is_done():
        if await _answer_with_board(bot, reply, played):
            return
    else:
        where = game.thread_id or 0
        note = text.played_note(
            reader, played.move, posted_in=None if where == interaction.channel_id else where
        )
        await send_ephemeral(interaction, note)
    await post_board(bot, game, lambda lang: text.move_text(lang, played), ping=played.next_player)
    await _note_ending(bot, played)


async def _answer_with_board(bot: GameBot, reply: Reply, played: PlayedMove) -> bool:
    """Answer the move in its thread with the board; False if the board must still be
    posted: the answer was deferred, or it surely did not reach the thread (refused as too
    late, or failed without Discord saying it was already given)."""
    interaction, game_id = reply.interaction, played.game.id
    try:
        lang = await bot.post_language(played.game.guild_id)
        board = await reply.within(bot.boards.file(played.game, lang), ephemeral=True)
        if interaction.response.is_done():
            note = text.played_note(reader_language(interaction), played.move)
            await reply.send(note, ephemeral=True)
            return False
        content = text.move_text(lang, played)
        await reply.send(content, file=board, allowed_mentions=pings(played.next_player))
    except discord.HTTPException as error:
        if error.code != ALREADY_ANSWERED:
            log.warning("could not answer game %s's move; posting it", game_id, exc_info=True)
            return False
        # A retry of an answer Discord had taken (its reply was lost): the board is there.
        log.info("game %s: the move's answer had reached Discord already", game_id)
    except Exception:
        log.exception("could not answer game %s's move; posting it", game_id)
        return False
    await _note_ending(bot, played)
    return True


async def _note_ending(bot: GameBot, played: PlayedMove) -> None:
    """A move that ended the game (mate, repetition) announced the ending with its board."""
    if played.outcome is not None:
        await bot.service.deadlines.ending_posted(played.game.id)


class PlayFeature(Feature):
    """Moves."""

    BUTTONS = (MoveButton,)

    @app_commands.command(name="move", description=text.COMMANDS["move"])
    @app_commands.describe(move=text.OPTIONS["move"], game=text.OPTIONS["game"])
    @app_commands.guild_only()
    async def move(
        self, interaction: discord.Interaction[Any], move: str, game: GameArg | None = None
    ) -> None:
        await play(self.bot, interaction, game, move)

    @move.autocomplete("move")
    async def move_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        """Legal moves matching what is typed, for the player to move only."""
        games = self.bot.service.games
        try:
            typed_game = getattr(interaction.namespace, "game", None)
            chosen = parse_game_id(str(typed_game)) if typed_game else None
            game_id = await game_meant(self.bot, interaction, chosen)
            moves = await games.legal_moves(game_id, interaction.user.id)
        except Exception as error:
            log.debug("no move suggestions: %s", error)
            return []
        return [
            Choice(name=text.move_choice(m), value=m.usi)
            for m in rank_moves(moves, current, MAX_CHOICES)
        ]


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PlayFeature(bot))
