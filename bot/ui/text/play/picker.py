"""Moving by pointing: the picker's prompts, its select menus' options (pieces named as
players name them: ７七歩, ８八角 (5), 持ち駒 歩; in English P 7g, B 8h (5), Drop P) and the
alt text of its pictures, which names every marked square."""

from __future__ import annotations

from bot.services import Destination, Picker, PieceChoice
from rules import Sentence, Square
from rules.notation.common import japanese_square

from ...i18n import SOURCE_LANGUAGE
from ..base import translator

#: The picker of a position the game has left (a move, a takeback, a forecast reply).
PICKER_MOVED_ON = Sentence("The game has moved on: press Move again.")
#: A choice the picker never offered (a modified client's, or an option from an old menu).
NOT_OFFERED_CHOICE = Sentence("That choice is not on offer here: press Move again.")


def _square(lang: str, square: str) -> str:
    return square if lang == SOURCE_LANGUAGE else japanese_square(Square.from_usi(square))


def piece_name(lang: str, piece: PieceChoice) -> str:
    """A piece as a player names it: `P 7g` / ７七歩, a drop `Drop P` / 持ち駒 歩."""
    _ = translator(lang)
    if piece.square is None:
        return _("Drop {piece}").format(
            piece=piece.role.sfen if lang == SOURCE_LANGUAGE else piece.role.kanji
        )
    if lang == SOURCE_LANGUAGE:
        return f"{piece.role.sfen} {piece.square}"
    return f"{_square(lang, piece.square)}{piece.role.kanji}"


def piece_option(lang: str, piece: PieceChoice) -> str:
    """A piece's option: its name, and how many squares it can go to when more than one."""
    count = len(piece.destinations)
    name = piece_name(lang, piece)
    return name if count == 1 else f"{name} ({count})"


def destination_option(lang: str, destination: Destination) -> str:
    """A square to go to, and whether the move takes a piece or must promote there."""
    _ = translator(lang)
    where = _square(lang, destination.square)
    if destination.capture:
        where = _("{square} (takes)").format(square=where)
    if destination.promote and not destination.keep:
        where = _("{square}, promotes").format(square=where)
    return where


def file_option(lang: str, file: int, count: int) -> str:
    """A file to drop on, with how many of its squares are open."""
    _ = translator(lang)
    return _("File {file} ({count})").format(file=file, count=count)


def pick_piece_prompt(lang: str) -> str:
    _ = translator(lang)
    return _("Your move: choose a piece, then the square it goes to.")


def pick_square_prompt(lang: str, piece: PieceChoice) -> str:
    _ = translator(lang)
    return _("{piece}: choose the square it goes to (or another piece).").format(
        piece=piece_name(lang, piece)
    )


def pick_file_prompt(lang: str, piece: PieceChoice) -> str:
    _ = translator(lang)
    return _("{piece}: choose a file, then a square on it.").format(piece=piece_name(lang, piece))


def promote_prompt(lang: str, piece: PieceChoice, destination: Destination) -> str:
    _ = translator(lang)
    return _("{piece} to {square}: promote?").format(
        piece=piece_name(lang, piece), square=_square(lang, destination.square)
    )


def placeholder(lang: str, key: str) -> str:
    """The grey text of a select before anything is chosen."""
    _ = translator(lang)
    texts = {
        "board": _("A piece on the board"),
        "hand": _("A piece in hand"),
        "square": _("The square it goes to"),
        "file": _("The file"),
    }
    return texts[key]


def picker_alt_text(lang: str, picker: Picker, piece: PieceChoice | None = None) -> str:
    """The alt text of a picker's picture: the pieces that can move, or the piece chosen,
    the squares it can go to and those where it takes a piece."""
    _ = translator(lang)
    separator = "、" if lang != SOURCE_LANGUAGE else ", "
    if piece is None:
        names = separator.join(piece_name(lang, p) for p in picker.pieces)
        return _("Board: your pieces that can move are marked: {pieces}.").format(pieces=names)
    goes = separator.join(_square(lang, d.square) for d in piece.destinations)
    takes = [_square(lang, d.square) for d in piece.destinations if d.capture]
    line = _("Board: {piece} is marked, and the squares it can go to: {squares}.").format(
        piece=piece_name(lang, piece), squares=goes
    )
    if takes:
        line += " " + _("It takes a piece on {squares}.").format(squares=separator.join(takes))
    return line
