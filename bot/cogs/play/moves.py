"""Playing: `/move`, its suggestions, the Promote / Don't promote buttons, and the
Confirm / Cancel buttons of players who confirm their moves.

The board after a move goes publicly into the game's thread with a mention of
the player to move; the mover gets a private note wherever else they typed, and
the player to move a direct message if they asked for one (`bot.ui.notify`).

A player who turned move confirmation on (`/preferences`) first sees, privately,
the board as it would be after the move, with Confirm and Cancel: only Confirm
stores it. Confirm carries the game, the ply and the move's USI in its id, so it
works after a restart and is refused (`PositionChanged`) once the game has moved
on; two presses race in the service, where the move is stored exactly once.
When a move leaves the promotion open, the promotion question still comes first,
and its answer leads to the confirmation: the two buttons sit side by side, which
is where a finger slips on a phone, and the player asked to see every move's board
before it counts.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TypedDict

import discord
from discord.app_commands import Choice

from bot.services import AmbiguousMove, MovePreview, PlayedMove
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.offers import withdraw_lapsed
from bot.ui.options import MAX_CHOICES, GameArg, game_meant, parse_game_id, server_of
from bot.ui.played import follow_played
from bot.ui.replies import Reply, pings, player_of, reader_language, send_ephemeral
from bot.ui.suggestions import rank_moves
from bot.ui.threads import (
    as_posted,
    board_post,
    ending_posted,
    move_audience,
    post_move,
)

log = logging.getLogger(__name__)
ALREADY_ANSWERED = 40060  # Discord's code for a second answer to one interaction
MAX_BUTTONS = 25  # Discord's limit: five rows of five


_USI = r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]"
#: Where a question was asked: the ply, the move, and (in ids made since takebacks exist)
#: the position's mark, since a takeback can bring the same ply back in another position.
_ASKED = rf"(?P<game_id>\d+):(?P<ply>\d+):(?P<usi>{_USI})(?::(?P<position>h[0-9a-f]{{8}}))?"


def _asked_id(game_id: int, ply: int, usi: str, position: str | None) -> str:
    return f"{game_id}:{ply}:{usi}" + ("" if position is None else f":{position}")


class MoveButton(GameButton, template=rf"pr:{_ASKED}"):
    """One answer to a move that fitted several: Promote / Don't promote, or one of the
    pieces that could go there (labelled as the player would write it, ４八金右). The ply
    and position in the id make a late click on an old question fail cleanly instead of
    playing a move into a position that has changed."""

    def __init__(
        self,
        game_id: int,
        ply: int,
        usi: str,
        position: str | None = None,
        lang: str = SOURCE_LANGUAGE,
        label: str | None = None,
    ) -> None:
        promote = usi.endswith("+")
        if label is None:
            label = text.button_label(lang, "pr:promote" if promote else "pr:keep")
        self.show(
            f"pr:{_asked_id(game_id, ply, usi, position)}",
            label,
            discord.ButtonStyle.primary if promote else discord.ButtonStyle.secondary,
        )
        self.game_id, self.ply, self.usi, self.position = game_id, ply, usi, position

    async def press(self, interaction: Interaction) -> None:
        await _play_asked(interaction, self, confirmed=False)


class ConfirmButton(GameButton, template=rf"cf:(?P<action>play|cancel):{_ASKED}"):
    """Confirm / Cancel under the private board of a move not yet played. Confirm plays
    the move in the position it was checked in (a later press finds the game moved on
    and is refused); Cancel plays nothing."""

    def __init__(
        self,
        action: str,
        game_id: int,
        ply: int,
        usi: str,
        position: str | None = None,
        lang: str = SOURCE_LANGUAGE,
    ) -> None:
        play_it = action == "play"
        self.show(
            f"cf:{action}:{_asked_id(game_id, ply, usi, position)}",
            text.button_label(lang, f"cf:{action}"),
            discord.ButtonStyle.success if play_it else discord.ButtonStyle.secondary,
        )
        self.action, self.game_id, self.ply, self.usi = action, game_id, ply, usi
        self.position = position

    async def press(self, interaction: Interaction) -> None:
        if self.action == "cancel":
            note = text.say(reader_language(interaction), text.MOVE_CANCELLED)
            await Reply(interaction).edit(note, view=None, attachments=[])
            return
        await _play_asked(interaction, self, confirmed=True)


async def _play_asked(
    interaction: Interaction, asked: MoveButton | ConfirmButton, *, confirmed: bool
) -> None:
    """Play the move a button answers, in the position its question was asked in."""
    seen = (asked.ply, asked.position)
    bot = host_of(interaction)
    await play(bot, interaction, asked.game_id, asked.usi, seen=seen, confirmed=confirmed)


class _Where(TypedDict):
    """Where a move is played: the server, and the ply and position a button's question
    was asked in (None for a typed move), as the service's preview and play both take
    them, so that the board a player confirms is the move that is played."""

    expected_ply: int | None
    expected_position: str | None
    guild_id: int


@dataclass(frozen=True)
class _Unconfirmed:
    """A move checked but not played, and its board, for the player to confirm."""

    preview: MovePreview
    board: discord.File


async def play(
    bot: GameBot,
    interaction: Interaction,
    game_id: int | None,
    move: str,
    *,
    seen: tuple[int, str | None] | None = None,
    confirmed: bool = False,
) -> None:
    """Play and announce a move, answering Discord in time however slow the database or
    the renderer is today. `seen` is the ply and position mark a button was made in. For
    a player who confirms their moves, show the board after it first, unless this is the
    confirmation (`confirmed`)."""
    expected_ply, expected_position = (None, None) if seen is None else seen
    reply = Reply(interaction)
    service = bot.service
    user = player_of(interaction)
    guild_id = server_of(interaction)
    reader = reader_language(interaction)

    where = _Where(
        expected_ply=expected_ply, expected_position=expected_position, guild_id=guild_id
    )

    async def work() -> PlayedMove | _Unconfirmed:
        resolved = await game_meant(bot, interaction, game_id)
        if not confirmed and (await service.preferences.of(user.user_id)).confirm_moves:
            preview = await service.moves.preview(resolved, user.user_id, move, **where)
            return _Unconfirmed(preview, await bot.boards.file(preview.game, reader))
        return await service.moves.play(resolved, user.user_id, move, name=user.name, **where)

    try:
        result = await reply.within(work(), ephemeral=True)
    except AmbiguousMove as question:
        await _ask_which(interaction, question, typed=move)
        return
    if isinstance(result, _Unconfirmed):
        await _ask_to_confirm(reply, result)
        return
    await follow_played(bot, result, by=user.user_id, announce=_announce(bot, reply, result))


async def _ask_to_confirm(reply: Reply, unconfirmed: _Unconfirmed) -> None:
    """The board after the move, privately, with Confirm and Cancel. Answering a
    promotion button, the question becomes the confirmation."""
    interaction, preview = reply.interaction, unconfirmed.preview
    lang = reader_language(interaction)
    usi, game_id = preview.move.usi, preview.game.id
    view = view_of(
        ConfirmButton("play", game_id, preview.ply, usi, preview.position_mark, lang),
        ConfirmButton("cancel", game_id, preview.ply, usi, preview.position_mark, lang),
    )
    question = text.confirm_question(lang, preview.move)
    log.info("game %s ply %s: %s awaits confirmation", game_id, preview.ply, usi)
    if interaction.type is discord.InteractionType.component:
        await reply.edit(question, attachments=[unconfirmed.board], view=view)
    else:
        await send_ephemeral(interaction, question, file=unconfirmed.board, view=view)


async def _ask_which(interaction: Interaction, question: AmbiguousMove, *, typed: str) -> None:
    """Several moves fit what was typed: one button per answer, privately."""
    lang = reader_language(interaction)
    game_id, ply, mark = question.game_id, question.ply, question.position_mark
    if question.promotion_choice is not None:
        buttons = [MoveButton(game_id, ply, c.usi, mark, lang) for c in question.promotion_choice]
        content = text.say(lang, question.sentence)
    else:
        japanese = any(not character.isascii() for character in typed)
        candidates = question.candidates[:MAX_BUTTONS]
        buttons = [
            MoveButton(game_id, ply, c.usi, mark, lang, c.japanese if japanese else c.western)
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
    where = game.thread_id or 0
    posted_in = None if where == interaction.channel_id else where
    note = text.played_note(reader_language(interaction), played.move, posted_in=posted_in)
    if interaction.type is discord.InteractionType.component:
        # The question (promotion, or confirmation with its board) becomes the note.
        await reply.edit(note, view=None, attachments=[])
    elif interaction.channel_id == game.thread_id and not interaction.response.is_done():
        if await _answer_with_board(bot, reply, played):
            return
    else:
        await send_ephemeral(interaction, note)
    await post_move(bot, played)


async def _answer_with_board(bot: GameBot, reply: Reply, played: PlayedMove) -> bool:
    """Answer the move in its thread with the board; False if the board must still be
    posted: the answer was deferred, or it surely did not reach the thread (refused as too
    late, or failed without Discord saying it was already given)."""
    interaction, game_id = reply.interaction, played.game.id
    try:
        lang = await bot.post_language(played.game.guild_id)
        board = await reply.within(board_post(bot, played.game, lang), ephemeral=True)
        if interaction.response.is_done():
            note = text.played_note(reader_language(interaction), played.move)
            await reply.send(note, ephemeral=True)
            return False
        shown, told = as_posted(played), move_audience(played)
        content = text.addressed(text.move_text(lang, shown), told.mentioned)
        if board.note is not None:
            content = f"{content}\n{board.note}"
        view = bot.board_view(played.game, lang)
        extra = {} if view is None else {"view": view}
        await reply.send(
            content, files=board.files, allowed_mentions=pings(*told.mentioned), **extra
        )
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
    """A move that ended the game (mate, repetition) announced the ending with its board
    and the game's animation; the thread is then renamed with the result and archived.
    A move that made a question lapse takes its buttons away."""
    if played.outcome is not None:
        await ending_posted(bot, played.game)
    elif played.withdrawn:  # a question left unanswered no longer holds
        await withdraw_lapsed(bot, played.game.id)


class PlayFeature(Feature):
    """Moves."""

    BUTTONS = (MoveButton, ConfirmButton)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.play_move = play  # the picker's moves take the typed moves' path

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.play_move = None

    @command("move")
    async def move(
        self, interaction: Interaction, move: str | None = None, game: GameArg | None = None
    ) -> None:
        picker = self.bot.open_picker
        if (move is None or not move.strip()) and picker is not None:
            await picker(interaction, game)  # no text: the picker (`play/picker.py`)
            return
        await play(self.bot, interaction, game, "" if move is None else move)

    @move.autocomplete("move")
    async def move_suggestions(self, interaction: Interaction, current: str) -> list[Choice[str]]:
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
