"""Writing one move in every supported style: `format_move`."""

from __future__ import annotations

from ..moves import Move
from ..position import Position
from ..types import Color, Role, Square
from . import jsa
from .common import (
    CSA_CODES,
    JAPANESE_NAMES,
    KIF_NAMES,
    RANK_LETTERS,
    Style,
    can_promote_on,
    japanese_square,
    numeric_square,
    style_name,
)

_STYLES = {style.value for style in Style}


def format_move(
    position: Position, move: Move, style: Style | str, *, last_move: Move | None = None
) -> str:
    """Write a legal `move` of `position` in `style` (a `Style` or its name).

    `last_move` (the opponent's previous move) lets Japanese and KIF write 同.
    Raises `rules.IllegalMoveError` when the move is not legal here, and
    `ValueError` for an unknown style.

    >>> position = Position.initial()
    >>> [format_move(position, Move.from_usi("7g7f"), s) for s in ("western", "japanese", "csa")]
    ['P-76', '７六歩', '+7776FU']
    >>> format_move(position, Move.from_usi("4i5h"), "japanese")
    '５八金右'
    """
    name = style_name(style)
    if name not in _STYLES:
        choices = ", ".join(sorted(_STYLES))
        raise ValueError(f"unknown notation style {style!r}; use one of {choices}")
    if not position.is_legal(move):
        raise position.explain_illegal(move)
    if name == "usi":
        return move.usi()
    if name == "csa":
        return csa_move(position, move)
    same = last_move is not None and last_move.to_square == move.to_square
    if name == "kif":
        return kif_move(position, move, same=same)
    if name == "japanese":
        return japanese_move(position, move, same=same)
    return western_move(position, move, letters=name == "hodges")


def _mover(position: Position, move: Move) -> tuple[Role, Color]:
    if move.drop is not None:
        return move.drop, position.turn
    assert move.from_square is not None
    piece = position.piece_at(move.from_square)
    assert piece is not None
    return piece.role, piece.color


def csa_move(position: Position, move: Move) -> str:
    """`+7776FU`: side, origin (00 for a drop), destination, piece after the move."""
    role, color = _mover(position, move)
    after = role.promoted if move.promotion else role
    origin = "00" if move.from_square is None else numeric_square(move.from_square)
    sign = "+" if color == Color.SENTE else "-"
    return f"{sign}{origin}{numeric_square(move.to_square)}{CSA_CODES[after]}"


def kif_move(position: Position, move: Move, *, same: bool = False) -> str:
    """`７六歩(77)`, `同　歩(76)`, `２二角成(88)`, `５五角打`."""
    role, _ = _mover(position, move)
    square = "同　" if same else japanese_square(move.to_square)
    if move.from_square is None:
        return f"{square}{KIF_NAMES[role]}打"
    suffix = "成" if move.promotion else ""
    return f"{square}{KIF_NAMES[role]}{suffix}({numeric_square(move.from_square)})"


def japanese_move(
    position: Position, move: Move, legal: list[Move] | None = None, *, same: bool = False
) -> str:
    """JSA/KI2 notation, no turn mark: `７六歩`, `同　歩`, `５八金右`, `２二角成`, `５五角打`."""
    role, color = _mover(position, move)
    target = move.to_square
    if move.from_square is None:
        rivals = jsa.candidates(position, role, target, color)
        if rivals and legal is None:
            legal = position.legal_moves()
        rival = bool(rivals) and any(
            other.to_square == target and other.from_square in rivals for other in legal or ()
        )
        rest = JAPANESE_NAMES[role] + ("打" if rival else "")
    else:
        rest = JAPANESE_NAMES[role] + jsa.modifiers(position, move.from_square, target)
        if can_promote_on(role, color, move.from_square, target):
            rest += "成" if move.promotion else "不成"
    if same:
        return "同　" + rest if len(rest) == 1 else "同" + rest
    return japanese_square(target) + rest


def _square(square: Square, letters: bool) -> str:
    return f"{square.file}{RANK_LETTERS[square.rank - 1]}" if letters else numeric_square(square)


def western_move(position: Position, move: Move, *, letters: bool = False) -> str:
    """lishogi's western notation (`P-76`, `G69-58`, `Bx22+`, `S-53=`, `B*55`), or
    Hodges with letter ranks (`P-7f`, `G6i-5h`) when `letters` is true."""
    role, color = _mover(position, move)
    target = move.to_square
    letter = role.sfen
    if move.from_square is None:
        return f"{letter}*{_square(target, letters)}"
    source = move.from_square
    origin = ""
    if len(jsa.candidates(position, role, target, color)) > 1:
        origin = _square(source, letters)
    separator = "x" if position.board[target] else "-"
    suffix = ""
    if can_promote_on(role, color, source, target):
        suffix = "+" if move.promotion else "="
    return f"{letter}{origin}{separator}{_square(target, letters)}{suffix}"
