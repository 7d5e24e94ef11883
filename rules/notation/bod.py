"""Board diagrams (BOD) of KIF and KI2 files: a start position drawn in text.

```
後手の持駒：なし
  ９ ８ ７ ６ ５ ４ ３ ２ １
+---------------------------+
|v香v桂v銀v金v玉v金v銀v桂v香|一
...
+---------------------------+
先手の持駒：銀二　歩四
後手番
```
A leading `v` marks White's pieces; promoted pieces use single glyphs (全 圭 杏).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import FormatError, Sentence, quote
from ..position import Position
from ..types import HAND_ROLES, KING_GLYPHS, Color, Piece, Role
from .common import BOD_GLYPHS, KANJI_DIGITS, read_number

_GLYPH_ROLES: dict[str, Role] = {
    glyph: role for role, glyph in BOD_GLYPHS.items() if len(glyph) == 1
}
_GLYPH_ROLES.update({KING_GLYPHS[1]: Role.KING, Role.DRAGON.kanji: Role.DRAGON})
_HAND_GLYPHS: dict[str, Role] = {BOD_GLYPHS[role]: role for role in HAND_ROLES}
HAND_KEYS: dict[str, Color] = {
    "先手の持駒": Color.SENTE, "下手の持駒": Color.SENTE,
    "後手の持駒": Color.GOTE, "上手の持駒": Color.GOTE,
}  # fmt: skip
#: How a diagram says how many moves were played before it (`手数＝30`); the position's
#: move number, as an SFEN counts it, is one more.
MOVES_PLAYED = "手数＝"
#: The most pieces a hand can hold (every piece but the two kings): a hand written with
#: more items is refused from its length, before each is counted.
PIECES_IN_HAND = 38
TURN_LINES: dict[str, Color] = {
    "先手番": Color.SENTE, "下手番": Color.SENTE, "後手番": Color.GOTE, "上手番": Color.GOTE,
}  # fmt: skip


def kanji_number(count: int) -> str:
    """A count in a hand (1..18) in kanji.

    >>> kanji_number(18), kanji_number(2), kanji_number(10)
    ('十八', '二', '十')
    """
    tens, ones = divmod(count, 10)
    return ("十" if tens else "") + (KANJI_DIGITS[ones - 1] if ones else "")


def read_kanji_number(text: str) -> int:
    """The inverse of `kanji_number` (ASCII digits too); an empty text counts 1;
    `FormatError` otherwise.

    >>> read_kanji_number("十八"), read_kanji_number(""), read_kanji_number("12")
    (18, 1, 12)
    """
    if not text:
        return 1
    if text.isascii() and text.isdigit():
        return int(text)
    head, ten, ones = text.rpartition("十") if "十" in text else ("", "", text)
    if len(head) > 1 or len(ones) > 1 or not set(head + ones) <= set(KANJI_DIGITS):
        raise FormatError(Sentence("'{text}' is not a number of pieces.", text=quote(text)))
    tens = (KANJI_DIGITS.index(head) + 1 if head else 1) if ten else 0
    return 10 * tens + (KANJI_DIGITS.index(ones) + 1 if ones else 0)


def write_hand(position: Position, color: Color) -> str:
    """`銀二　歩四`, or `なし` for an empty hand."""
    hand = position.hand(color)
    if not hand:
        return "なし"
    parts = [BOD_GLYPHS[role] + (kanji_number(n) if n > 1 else "") for role, n in hand.items()]
    return "　".join(parts)


def write_bod(position: Position, *, handicap: bool = False, numbered: bool = False) -> list[str]:
    """The diagram lines of `position` (upper/lower-hand names when `handicap`).

    With `numbered`, a position reached after some moves says how many with a
    `手数＝N` line, as Japanese software writes it, so a record's moves numbered from
    N+1 follow it; the usual start (move 1) has no such line.
    """
    top, bottom = ("上手", "下手") if handicap else ("後手", "先手")
    lines = [f"{top}の持駒：{write_hand(position, Color.GOTE)}", "  ９ ８ ７ ６ ５ ４ ３ ２ １"]
    lines += write_grid(position, _bod_cell, KANJI_DIGITS)
    lines.append(f"{bottom}の持駒：{write_hand(position, Color.SENTE)}")
    if numbered and position.move_number > 1:
        lines.append(f"{MOVES_PLAYED}{position.move_number - 1}")
    if position.turn == Color.GOTE:
        lines.append(f"{top}番")
    return lines


def write_grid(position: Position, cell: Callable[[Piece | None], str], ranks: str) -> list[str]:
    """The board between two rules, a line a rank: `|`, each square as `cell` writes it
    (None for an empty one), `|` and the rank's label from `ranks`: a BOD's board, or any
    diagram of the same frame with other cells and labels (nine cells of three columns)."""
    lines = [_GRID_RULE]
    for row in range(9):
        cells = "".join(cell(position.piece_at(square)) for square in range(row * 9, row * 9 + 9))
        lines.append(f"|{cells}|{ranks[row]}")
    lines.append(_GRID_RULE)
    return lines


_GRID_RULE = "+" + "-" * 27 + "+"


def _bod_cell(piece: Piece | None) -> str:
    """` ・` for an empty square, else the glyph after a `v` for gote's pieces."""
    if piece is None:
        return " ・"
    return ("v" if piece.color == Color.GOTE else " ") + BOD_GLYPHS[piece.role]


def read_moves_played(text: str) -> int:
    """The count of a `手数＝30  ▲２四歩  まで` line (what follows the number is the last
    move, for the eye only); `FormatError` when no count follows the mark.

    >>> read_moves_played("手数＝30  ▲２四歩  まで"), read_moves_played("手数＝０")
    (30, 0)
    """
    rest = text.strip().removeprefix(MOVES_PLAYED).lstrip()
    digits = len(rest) - len(rest.lstrip(_DIGITS))
    if not digits:
        raise FormatError(
            Sentence("'{text}' does not say how many moves were played.", text=quote(text, 40))
        )
    return read_number(rest[:digits])


_DIGITS = "0123456789０１２３４５６７８９"


def read_hand(text: str) -> dict[Role, int]:
    """A hand as written in a diagram; `FormatError` for anything else.

    >>> read_hand("銀二　歩四") == {Role.SILVER: 2, Role.PAWN: 4}
    True
    """
    text = text.strip()
    counts: dict[Role, int] = {}
    if text in ("なし", ""):
        return counts
    items = text.replace("、", " ").replace(",", " ").split()
    if len(items) > PIECES_IN_HAND:
        raise FormatError(Sentence("a hand holds at most {count} pieces.", count=PIECES_IN_HAND))
    for item in items:
        role = _HAND_GLYPHS.get(item[0])
        if role is None:
            raise FormatError(
                Sentence("'{text}' is not a piece in hand such as 歩三.", text=quote(item))
            )
        counts[role] = counts.get(role, 0) + read_kanji_number(item[1:])
    return counts


def read_row(text: str) -> list[tuple[Color, Role] | None]:
    """One `|v香v桂 ・ ...|一` row as nine squares (file 9 to file 1); `FormatError` if
    malformed."""
    inner = text.strip()
    if not inner.startswith("|") or inner.count("|") < 2:
        raise FormatError(Sentence("a diagram row is written between two '|'."))
    cells = inner[1 : inner.index("|", 1)]
    if len(cells) != 18:
        raise FormatError(Sentence("a diagram row has nine squares of two characters each."))
    row: list[tuple[Color, Role] | None] = []
    for i in range(0, 18, 2):
        mark, glyph = cells[i], cells[i + 1]
        if glyph == "・":
            row.append(None)
            continue
        role = _GLYPH_ROLES.get(glyph)
        if role is None or mark not in " v^":
            raise FormatError(
                Sentence("'{text}' is not a piece of a diagram.", text=quote(mark + glyph))
            )
        row.append((Color.GOTE if mark == "v" else Color.SENTE, role))
    return row


def diagram_sfen(
    rows: list[list[tuple[Color, Role] | None]],
    hands: dict[Color, dict[Role, int]],
    turn: Color,
    move_number: int = 1,
) -> str:
    """The SFEN of a diagram read with `read_row` / `read_hand`."""
    ranks = []
    for row in rows:
        out, empty = "", 0
        for cell in row:
            if cell is None:
                empty += 1
                continue
            if empty:
                out, empty = out + str(empty), 0
            letter = cell[1].sfen
            out += letter if cell[0] == Color.SENTE else letter.lower()
        ranks.append(out + (str(empty) if empty else ""))
    hand_text = ""
    for color in Color:
        for role in HAND_ROLES:
            count = hands.get(color, {}).get(role, 0)
            if count:
                letter = role.sfen if color == Color.SENTE else role.sfen.lower()
                hand_text += (str(count) if count > 1 else "") + letter
    side = "b" if turn == Color.SENTE else "w"
    return f"{'/'.join(ranks)} {side} {hand_text or '-'} {move_number}"
