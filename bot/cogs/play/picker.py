"""Moving by pointing: the Move button under the board of the player to move, `/move`
without text, and the private picker they open: a piece, then the square it goes to.

Each step is one private message edited in place: the board with the pieces that can
move marked and a select of them (on the board, and in hand when a drop is legal); once
a piece is chosen, the board with it and its destinations marked, a select of the
squares (a drop on more than 25 squares takes a file first, then a square of it), the
piece selects still there to change piece, and Back. Every id carries the game, the ply
and the position mark it was drawn for, so a step pressed after the game moved on (a
move, a takeback, a forecast reply, a restart) is refused and plays nothing; the chosen
move is played by the moves feature's own path (`GameBot.play_move`), which checks it
again and stores it once however often it is pressed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services import Destination, GameSnapshot, Picker, PieceChoice, files_of, squares_of_file
from bot.ui import text
from bot.ui.errors import GameButton, GameSelect, OptionError, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.options import game_meant, server_of
from bot.ui.replies import Reply, reader_language, send_ephemeral
from render import Marks
from rules import Square

log = logging.getLogger(__name__)
MAX_OPTIONS = 25  # Discord's limit of options in a select
MAX_ROWS = 5  # Discord's limit of rows in a message; a select fills one
MAX_ALT = 1024  # Discord's longest attachment description

#: Where a step was drawn: the game, the ply and the position's mark.
_AT = r"(?P<game_id>\d+):(?P<ply>\d+):(?P<position>h[0-9a-f]{8})"
_PIECE = r"[1-9][a-i]|[PLNSGBR]\*"


def _at(game_id: int, ply: int, position: str) -> str:
    return f"{game_id}:{ply}:{position}"


class PointButton(GameButton, template=rf"mv:{_AT}"):
    """Move (指す) under the board of the player to move: it opens the picker in a private
    message."""

    KEY_PREFIX = "mv"
    STYLE = discord.ButtonStyle.primary

    def __init__(self, game_id: int, ply: int, position: str, lang: str = SOURCE_LANGUAGE) -> None:
        key = self.KEY_PREFIX
        self.show(f"{key}:{_at(game_id, ply, position)}", text.button_label(lang, key), self.STYLE)
        self.game_id, self.ply, self.position = game_id, ply, position

    async def press(self, interaction: Interaction) -> None:
        picker = await _current(interaction, self.game_id, self.ply, self.position)
        await _show(interaction, picker, None, None, new_message=self.KEY_PREFIX == "mv")


class BackButton(PointButton, template=rf"pb:{_AT}"):
    """Back in the picker: its first step again, in place."""

    KEY_PREFIX = "pb"
    STYLE = discord.ButtonStyle.secondary


class PieceSelect(GameSelect, template=rf"pk:{_AT}:(?P<shelf>[bch])"):
    """The pieces that can move: those on the board (`b`, and `c` for those past the 25 a
    select holds) or in hand (`h`)."""

    def __init__(self, game_id: int, ply: int, position: str, shelf: str) -> None:
        self.game_id, self.ply, self.position, self.shelf = game_id, ply, position, shelf
        self.stand_in(f"pk:{_at(game_id, ply, position)}:{shelf}")  # options: see `of`

    @staticmethod
    def shelf_of(picker: Picker, shelf: str) -> tuple[PieceChoice, ...]:
        """The pieces a shelf offers, most likely first."""
        if shelf == "h":
            return picker.in_hand[:MAX_OPTIONS]
        start = 0 if shelf == "b" else MAX_OPTIONS
        return picker.on_board[start : start + MAX_OPTIONS]

    @classmethod
    def of(cls, picker: Picker, shelf: str, lang: str, chosen: PieceChoice | None) -> PieceSelect:
        select = cls(picker.game.id, picker.ply, picker.position_mark, shelf)
        select.item.placeholder = text.placeholder(lang, "hand" if shelf == "h" else "board")
        select.item.options = [
            discord.SelectOption(label=text.piece_option(lang, p), value=p.key, default=p is chosen)
            for p in cls.shelf_of(picker, shelf)
        ]
        return select

    async def press(self, interaction: Interaction) -> None:
        picker = await _current(interaction, self.game_id, self.ply, self.position)
        piece = picker.piece(_chosen(interaction))
        if piece is None or piece not in self.shelf_of(picker, self.shelf):
            raise OptionError(text.NOT_OFFERED_CHOICE)
        await _show(interaction, picker, piece, None, new_message=False)


class SquareSelect(GameSelect, template=rf"pd:{_AT}:(?P<piece>{_PIECE})"):
    """The square the chosen piece goes to."""

    STEP = "pd"

    def __init__(self, game_id: int, ply: int, position: str, piece: str) -> None:
        self.game_id, self.ply, self.position, self.piece = game_id, ply, position, piece
        self.stand_in(f"{self.STEP}:{_at(game_id, ply, position)}:{piece}")  # see `_steps`

    async def press(self, interaction: Interaction) -> None:
        picker = await _current(interaction, self.game_id, self.ply, self.position)
        piece = picker.piece(self.piece)
        value = _chosen(interaction)
        if piece is None:
            raise OptionError(text.NOT_OFFERED_CHOICE)
        if self.STEP == "pf":
            if not (value.isascii() and value.isdigit() and len(value) == 1):
                raise OptionError(text.NOT_OFFERED_CHOICE)
            file = int(value)
            if not squares_of_file(piece, file):
                raise OptionError(text.NOT_OFFERED_CHOICE)
            await _show(interaction, picker, piece, file, new_message=False)
            return
        destination = piece.destination(value)
        if destination is None:
            raise OptionError(text.NOT_OFFERED_CHOICE)
        await _choose(interaction, picker, piece, destination)


class FileSelect(SquareSelect, template=rf"pf:{_AT}:(?P<piece>{_PIECE})"):
    """The file a drop goes to, when it has more squares than a select holds."""

    STEP = "pf"


def _chosen(interaction: Interaction) -> str:
    value = GameSelect.chosen(interaction)
    if value is None:
        raise OptionError(text.NOT_OFFERED_CHOICE)
    return value


async def _current(interaction: Interaction, game_id: int, ply: int, position: str) -> Picker:
    """The picker of the game as it stands, refused if it is not the position the step
    was drawn for."""
    bot = host_of(interaction)
    picker = await bot.service.pointing.choices(
        game_id, interaction.user.id, guild_id=server_of(interaction)
    )
    if picker.ply != ply or picker.position_mark != position:
        raise OptionError(text.PICKER_MOVED_ON)
    return picker


def _marks(picker: Picker, piece: PieceChoice | None) -> Marks:
    if piece is None:
        return Marks(
            movable=frozenset(Square.from_usi(p.key) for p in picker.on_board),
            hand_movable=frozenset(p.role for p in picker.in_hand),
        )
    squares = frozenset(Square.from_usi(d.square) for d in piece.destinations)
    return Marks(
        selected=None if piece.square is None else Square.from_usi(piece.square),
        hand_selected=piece.role if piece.square is None else None,
        destinations=squares,
        captures=frozenset(Square.from_usi(d.square) for d in piece.destinations if d.capture),
    )


def _steps(
    picker: Picker, piece: PieceChoice | None, file: int | None, lang: str
) -> list[discord.ui.Item[Any]]:
    """The selects and buttons of a step: the piece selects, then the piece's squares
    (or files, then the chosen file's squares), then Back."""
    items: list[discord.ui.Item[Any]] = [
        PieceSelect.of(picker, shelf, lang, piece)
        for shelf in "bch"
        if PieceSelect.shelf_of(picker, shelf)
    ]
    if piece is None:
        return items
    game_id, ply, mark = picker.game.id, picker.ply, picker.position_mark
    squares: tuple[Destination, ...] = piece.destinations
    if len(squares) > MAX_OPTIONS:
        files = FileSelect(game_id, ply, mark, piece.key)
        files.item.placeholder = text.placeholder(lang, "file")
        files.item.options = [
            discord.SelectOption(
                label=text.file_option(lang, number, count),
                value=str(number),
                default=number == file,
            )
            for number, count in files_of(piece)
        ]
        items.append(files)
        squares = () if file is None else squares_of_file(piece, file)
    if squares:
        select = SquareSelect(game_id, ply, mark, piece.key)
        select.item.placeholder = text.placeholder(lang, "square")
        select.item.options = [
            discord.SelectOption(label=text.destination_option(lang, d), value=d.square)
            for d in squares[:MAX_OPTIONS]
        ]
        items.append(select)
    if len(items) < MAX_ROWS:  # else the piece selects stand in for Back
        items.append(BackButton(game_id, ply, mark, lang))
    return items


async def _show(
    interaction: Interaction,
    picker: Picker,
    piece: PieceChoice | None,
    file: int | None,
    *,
    new_message: bool,
) -> None:
    """One step of the picker, privately: a new message (Move, `/move`) or the picker's
    own message edited in place."""
    bot, lang = host_of(interaction), reader_language(interaction)
    reply = Reply(interaction)
    if piece is None:
        content = text.pick_piece_prompt(lang)
    elif file is None and len(piece.destinations) > MAX_OPTIONS:
        content = text.pick_file_prompt(lang, piece)
    else:
        content = text.pick_square_prompt(lang, piece)
    alt = text.picker_alt_text(lang, picker, piece)[:MAX_ALT]
    board = await reply.within(
        bot.boards.file(
            picker.game, lang, perspective=picker.color, marks=_marks(picker, piece), alt=alt
        ),
        ephemeral=True,
    )
    view = view_of(*_steps(picker, piece, file, lang))
    if new_message:
        await send_ephemeral(interaction, content, file=board, view=view)
    else:
        await reply.edit(content, attachments=[board], view=view)


async def _choose(
    interaction: Interaction, picker: Picker, piece: PieceChoice, destination: Destination
) -> None:
    """The square is chosen: ask Promote / Don't promote where both are legal, else play
    the move by the moves feature's path, in the position the picker was drawn for."""
    bot, lang = host_of(interaction), reader_language(interaction)
    at = (picker.ply, picker.position_mark)
    if destination.promote and destination.keep:
        buttons = [
            _answer(picker, piece.move_text(destination, promote=answer), lang, answer)
            for answer in (True, False)
        ]
        back = BackButton(picker.game.id, picker.ply, picker.position_mark, lang)
        content = text.promote_prompt(lang, piece, destination)
        await Reply(interaction).edit(content, attachments=[], view=view_of(*buttons, back))
        return
    usi = piece.move_text(destination, promote=destination.promote)
    await _play(bot, interaction, picker.game.id, usi, at)


def _answer(picker: Picker, usi: str, lang: str, promote: bool) -> discord.ui.Button[Any]:
    """Promote / Don't promote as `/move`'s own question makes them (its `pr:` ids, answered
    by the moves feature's button, which plays the move in the position asked)."""
    game = picker.game
    return discord.ui.Button(
        label=text.button_label(lang, "pr:promote" if promote else "pr:keep"),
        style=discord.ButtonStyle.primary if promote else discord.ButtonStyle.secondary,
        custom_id=f"pr:{game.id}:{picker.ply}:{usi}:{picker.position_mark}",
    )


async def _play(
    bot: GameBot, interaction: Interaction, game_id: int, usi: str, at: tuple[int, str]
) -> None:
    if bot.play_move is None:  # the moves feature is not loaded: nothing can be played
        raise OptionError(text.STALE_BUTTON)
    await bot.play_move(bot, interaction, game_id, usi, seen=at)


def _move_button(game: GameSnapshot, lang: str) -> discord.ui.Item[Any] | None:
    """Move under the board of a game going on, for its player to move (not the
    computer, which moves by itself)."""
    if not game.is_active or game.to_move is None or game.to_move.is_bot:
        return None
    return PointButton(game.id, game.ply, game.position_mark, lang)


class PickerFeature(Feature):
    """Moving by pointing."""

    BUTTONS = (PointButton, BackButton, PieceSelect, SquareSelect, FileSelect)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.turn_buttons.append(_move_button)
        self.bot.open_picker = self.open

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.turn_buttons.remove(_move_button)
        self.bot.open_picker = None

    async def open(self, interaction: Interaction, game: int | None) -> None:
        """`/move` without text: the picker of the game meant, privately."""
        reply = Reply(interaction)

        async def work() -> Picker:
            game_id = await game_meant(self.bot, interaction, game)
            return await self.bot.service.pointing.choices(
                game_id, interaction.user.id, guild_id=server_of(interaction)
            )

        picker = await reply.within(work(), ephemeral=True)
        await _show(interaction, picker, None, None, new_message=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PickerFeature(bot))
