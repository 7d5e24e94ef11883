"""The JSA relative-position and movement characters (右 左 直 上 引 寄), both ways.

Everything is judged from the mover's seat: for White the board is turned round,
so "right" is the larger file number and "forward" the larger rank number.

The candidate set is the pseudo-legal one (pieces of the same name that attack the
destination, pins ignored), as the specification (section 3.4) asks of the writer:
it is what lishogi, tsshogi and cshogi use and it reproduces the printed records.
The reader applies the same characters as filters on the same set and only then
keeps legal moves, so it reads both the pseudo-legal and the legal style.
"""

from __future__ import annotations

from ..position import Position
from ..types import Color, Role, Square
from .common import GOLD_LIKE

UP, BACK, SIDEWAYS, STRAIGHT, RIGHT, LEFT = "上", "引", "寄", "直", "右", "左"
MODIFIER_CHARS = "右左直上引寄行"


def candidates(position: Position, role: Role, target: Square, color: Color) -> list[Square]:
    """Squares of `color`'s pieces of kind `role` that attack `target` (pins ignored).

    >>> candidates(Position.initial(), Role.GOLD, Square.from_usi("5h"), Color.SENTE)
    [Square.from_usi('6i'), Square.from_usi('4i')]
    """
    code = role + 16 * color
    board = position.board
    return [square for square in position.attackers(target, color) if board[square] == code]


def _file(square: int, color: Color) -> int:
    """File number as the mover sees it: smaller is further to the mover's right."""
    file = 9 - square % 9
    return file if color == Color.SENTE else 10 - file


def _rank(square: int, color: Color) -> int:
    """Rank number as the mover sees it: smaller is further forward."""
    rank = square // 9 + 1
    return rank if color == Color.SENTE else 10 - rank


def movement(source: int, target: int, color: Color) -> str:
    """上 (forward), 引 (back) or 寄 (same rank), from the mover's seat."""
    here, there = _rank(source, color), _rank(target, color)
    return UP if here > there else BACK if here < there else SIDEWAYS


def relative(source: int, target: int, role: Role, color: Color, group: list[Square]) -> str:
    """右, 左 or 直 for the piece on `source` among `group`, or "" when none applies."""
    file = _file(source, color)
    if role in GOLD_LIKE:
        there = _file(target, color)
        if file == there:
            return STRAIGHT if movement(source, target, color) == UP else ""
        return RIGHT if file < there else LEFT
    others = [_file(square, color) for square in group if square != source]
    if not others:
        return ""
    if all(file < other for other in others):
        return RIGHT
    if all(file > other for other in others):
        return LEFT
    return ""


def modifiers(position: Position, source: Square, target: Square) -> str:
    """The fewest characters that tell the piece on `source` apart (JSA section 3.2).

    >>> modifiers(Position.initial(), Square.from_usi("4i"), Square.from_usi("5h"))
    '右'
    """
    piece = position.piece_at(source)
    assert piece is not None
    role, color = piece.role, piece.color
    group = candidates(position, role, target, color)
    if len(group) <= 1:
        return ""
    others = [square for square in group if square != source]
    move_char = movement(source, target, color)
    if all(movement(square, target, color) != move_char for square in others):
        return move_char
    side = relative(source, target, role, color, group)
    if side and all(relative(square, target, role, color, group) != side for square in others):
        return side
    return side + move_char


def matches(
    source: int, target: int, role: Role, color: Color, group: list[Square], chars: str
) -> bool:
    """Whether the piece on `source` fits every character of `chars` (read as filters).

    >>> matches(77, 67, Role.GOLD, Color.SENTE, [], "右")
    True
    """
    for char in chars:
        if char in (UP, "行", BACK, SIDEWAYS):
            wanted = UP if char == "行" else char
            if movement(source, target, color) != wanted:
                return False
        elif char == STRAIGHT:
            if (
                _file(source, color) != _file(target, color)
                or movement(source, target, color) != UP
            ):
                return False
        elif role in GOLD_LIKE or len(group) < 2:
            # Alone, or gold-like: 右 and 左 say from which side of the destination it comes;
            # a piece on the destination's own file comes from neither (５六歩右).
            file, there = _file(source, color), _file(target, color)
            if (char == RIGHT and file > there) or (char == LEFT and file < there):
                return False
            if file == there:
                return False
        elif relative(source, target, role, color, group) != char:
            return False
    return True
