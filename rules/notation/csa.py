"""CSA records (Computer Shogi Association, version 2.2), read and written.

```
V2.2
N+Ann
N-Bo
$START_TIME:2024/01/02 10:00:00
PI
+
+7776FU
-3334FU
%TORYO
```
A handicap start is `PI` followed by the removed pieces (`PI82HI22KA`); any other start
is nine `P1`..`P9` rows plus `P+`/`P-` lines for the hands. CSA numbers nothing: a start
reached after some moves is written as its position alone and reads back as move 1
(KIF, KI2 and SFEN keep the move number).
"""

from __future__ import annotations

import re
from typing import Unpack

from ..errors import FormatError, Sentence, quote
from ..game import Game
from ..moves import Move
from ..position import Position
from ..sfen import StartWarning
from ..types import HAND_ROLES, Color, Role
from .common import CSA_CODES, CSA_ROLES
from .endings import END_CODES, WRITTEN_CODES, End, apply_ending, ending_of
from .parse import parse_move
from .records import Details, Record, RecordError, as_record, because, decode, place_comments
from .write import csa_move

# CSA header keys and the KIF header names a Record keeps them under.
HEADER_NAMES = {
    "EVENT": "棋戦", "SITE": "場所", "START_TIME": "開始日時", "END_TIME": "終了日時",
    "TIME_LIMIT": "持ち時間", "OPENING": "戦型",
}  # fmt: skip
_CSA_KEYS = {name: key for key, name in HEADER_NAMES.items()}
_CSA_TIME_LIMIT = re.compile(r"[0-9]{1,4}:[0-9]{2}\+[0-9]{1,4}")
# The side whose illegal action ended the game, by its code: the other side won.
_ACTION_BY = {"%+ILLEGAL_ACTION": Color.SENTE, "%-ILLEGAL_ACTION": Color.GOTE}
# floodgate's summary reasons that name an ending the end code may not say by itself.
_SUMMARY_REASONS = {"toryo": End.RESIGN, "jishogi": End.IMPASSE}
_EVEN = Position.initial()
#: The pieces of a set: a `P+`/`P-` line listing more cannot be a position, and refusing it
#: from its length keeps a long run of `00AL` (each a count over the whole board) cheap.
PIECES_IN_SET = 40


def _sign(color: Color) -> str:
    return "+" if color == Color.SENTE else "-"


def _start_lines(position: Position) -> list[str]:
    """`PI` with removed pieces when the start is the even one minus some pieces, else rows."""
    board, even = position.board, _EVEN.board
    removed = [square for square in range(81) if board[square] != even[square]]
    if all(not board[square] for square in removed) and not any(map(any, position.hands)):
        pieces = "".join(
            f"{9 - square % 9}{square // 9 + 1}{CSA_CODES[Role(even[square] & 15)]}"
            for square in removed
        )
        return [f"PI{pieces}", _sign(position.turn)]
    lines = []
    for row in range(9):
        cells = []
        for square in range(row * 9, row * 9 + 9):
            piece = position.piece_at(square)
            cells.append(" * " if piece is None else _sign(piece.color) + CSA_CODES[piece.role])
        lines.append(f"P{row + 1}" + "".join(cells))
    for color in Color:
        hand = position.hand(color)
        if hand:
            items = "".join(f"00{CSA_CODES[role]}" * count for role, count in hand.items())
            lines.append(f"P{_sign(color)}{items}")
    lines.append(_sign(position.turn))
    return lines


def write_csa(
    game: Game | Record, *, encoding: str | None = None, **details: Unpack[Details]
) -> str:
    """The game as a CSA V2.2 record (text). `encoding` (`UTF-8` or `SHIFT_JIS`), when
    given, is declared on a first line `'CSA encoding=UTF-8`: the CSA standard (V3.0) reads
    a file without that line as Shift_JIS, and to a V2.2 reader, whose encoding is its
    system's, the line is a comment. `comments` by ply are written as `'*` lines after the
    move of their ply (ply 0: before the first move): `'` starts a comment in CSA, and the
    `*` keeps a comment from reading as floodgate's `'summary:` line. A time control is
    written (`$TIME_LIMIT`) only in CSA's own form (`00:25+00`, hours:minutes+seconds),
    which a correspondence game's days cannot take.

    >>> print(write_csa(Game(moves=["7g7f", "3c3d"]), sente="Ann", gote="Bo"))
    V2.2
    N+Ann
    N-Bo
    PI
    +
    +7776FU
    -3334FU
    <BLANKLINE>
    """
    record = as_record(game, details)
    game = record.game
    lines = [] if encoding is None else [f"'CSA encoding={encoding}"]
    lines.append("V2.2")
    for sign, name in (("+", record.sente), ("-", record.gote)):
        if name is not None:
            lines.append(f"N{sign}{' '.join(name.split())}")
    if record.started:
        lines.append(f"$START_TIME:{' '.join(record.started.split())}")
    for name, value in record.headers.items():
        key = _CSA_KEYS.get(name)
        if key == "TIME_LIMIT" and not _CSA_TIME_LIMIT.fullmatch(value.strip()):
            continue
        if key is not None and key != "START_TIME":
            lines.append(f"${key}:{' '.join(value.split())}")
    lines += _start_lines(game.start)
    notes = place_comments(details.get("comments"), len(game.moves))
    lines += [f"'*{line}" for line in notes.get(0, ())]
    position = game.start.copy()
    for number, move in enumerate(game.moves, 1):
        lines.append(csa_move(position, move))
        lines += [f"'*{line}" for line in notes.get(number, ())]
        position.push_unchecked(move)
    lines += _end_lines(record)
    return "\n".join(lines) + "\n"


def _end_lines(record: Record) -> list[str]:
    """The end code, and floodgate's summary line where the code alone misleads.

    CSA's `%TORYO` says the side to move resigned. A resignation on the opponent's turn is
    written as the resigner's `%±ILLEGAL_ACTION` (acting out of turn is one, in CSA terms),
    which other readers take as that side's loss, with `'summary:toryo:...` after it
    saying it was a resignation. A 24-point count is `%JISHOGI` (an impasse, not a foul
    nor a declaration), with the summary naming the winner of a count someone lost.
    """
    game = record.game
    key = ending_of(game)
    if key is None:
        return []
    outcome = game.outcome
    assert outcome is not None
    won = outcome.winner
    lines = []
    if key == End.RESIGN and won == game.position.turn:
        lines.append(f"%{_sign(game.position.turn.opponent)}ILLEGAL_ACTION")
    elif key in (End.FOUL_WIN, End.FOUL_LOSS):
        assert won is not None
        lines.append(f"%{_sign(won.opponent)}ILLEGAL_ACTION")
    else:
        lines.append(WRITTEN_CODES[key])
    if key in (End.RESIGN, End.TIME) or (key == End.IMPASSE and won is not None):
        reason = {End.RESIGN: "toryo", End.TIME: "time up", End.IMPASSE: "jishogi"}[key]
        names = [  # on one line, as the `N±` lines write them, and without the separator
            " ".join((n or side).split()).replace(":", "_")
            for n, side in ((record.sente, "sente"), (record.gote, "gote"))
        ]
        results = ["win" if won == color else "lose" for color in Color]
        lines.append(f"'summary:{reason}:{names[0]} {results[0]}:{names[1]} {results[1]}")
    if key == End.IMPASSE and won is not None:
        count = game.count_24()
        lines.append(f"'jishogi: sente {count.sente_points}, gote {count.gote_points}")
    return lines


class _Setup:
    """The start position as the P lines build it."""

    def __init__(self) -> None:
        self.board: list[tuple[Color, Role] | None] = [None] * 81
        self.hands = {
            Color.SENTE: dict.fromkeys(HAND_ROLES, 0),
            Color.GOTE: dict.fromkeys(HAND_ROLES, 0),
        }
        self.seen = False

    def even(self, removed: str) -> None:
        for square in range(81):
            piece = _EVEN.piece_at(square)
            self.board[square] = None if piece is None else (piece.color, piece.role)
        for i in range(0, len(removed), 4):
            square, code = self._square(removed[i : i + 2]), removed[i + 2 : i + 4]
            if self.board[square] is None or CSA_ROLES.get(code) != self.board[square][1]:  # type: ignore[index]
                raise FormatError(
                    Sentence(
                        "PI removes '{text}', which the usual start does not have.",
                        text=quote(removed[i : i + 4]),
                    )
                )
            self.board[square] = None

    @staticmethod
    def _square(text: str) -> int:
        if len(text) != 2 or not text.isdigit() or "0" in text:
            raise FormatError(
                Sentence("'{text}' is not a square (two digits, 11 to 99).", text=quote(text))
            )
        return (int(text[1]) - 1) * 9 + 9 - int(text[0])

    def row(self, text: str) -> None:
        rank = int(text[1])
        cells = text[2:].ljust(27)  # a last empty square's trailing spaces may be trimmed
        if len(cells) != 27 or not cells[24:].strip():
            raise FormatError(Sentence("a P row has nine squares of three characters each."))
        for i in range(9):
            cell = cells[3 * i : 3 * i + 3]
            if cell.strip() == "*":
                self.board[(rank - 1) * 9 + i] = None
                continue
            role = CSA_ROLES.get(cell[1:])
            if cell[0] not in "+-" or role is None:
                raise FormatError(
                    Sentence("'{text}' is not a piece such as +FU or -KA.", text=quote(cell))
                )
            self.board[(rank - 1) * 9 + i] = (Color.SENTE if cell[0] == "+" else Color.GOTE, role)

    def pieces(self, text: str) -> None:
        color = Color.SENTE if text[1] == "+" else Color.GOTE
        items = text[2:]
        if len(items) > 4 * PIECES_IN_SET:
            raise FormatError(
                Sentence("a P+ or P- line lists at most {count} pieces.", count=PIECES_IN_SET)
            )
        if len(items) % 4:
            raise FormatError(
                Sentence("each piece is a square and a code, four characters (77FU, 00FU in hand).")
            )
        for i in range(0, len(items), 4):
            place, code = items[i : i + 2], items[i + 2 : i + 4]
            if place == "00" and code == "AL":
                self._all_remaining(color)
                continue
            role = CSA_ROLES.get(code)
            if role is None:
                raise FormatError(
                    Sentence("'{text}' is not a piece code such as FU or KA.", text=quote(code))
                )
            if place == "00":
                if role not in self.hands[color]:
                    raise FormatError(Sentence("a {piece} cannot be held in hand.", piece=role))
                self.hands[color][role] += 1
            else:
                self.board[self._square(place)] = (color, role)

    def _all_remaining(self, color: Color) -> None:
        totals = {Role.ROOK: 2, Role.BISHOP: 2, Role.GOLD: 4, Role.SILVER: 4,
                  Role.KNIGHT: 4, Role.LANCE: 4, Role.PAWN: 18}  # fmt: skip
        for cell in self.board:
            if cell is not None and cell[1] != Role.KING:
                totals[cell[1].unpromoted] -= 1
        for hand in self.hands.values():
            for role, count in hand.items():
                totals[role] -= count
        for role, count in totals.items():
            self.hands[color][role] += max(count, 0)

    def position(self, turn: Color) -> tuple[Position, tuple[StartWarning, ...]]:
        """The start the P lines built, with what is irregular about it."""
        ranks = []
        for row in range(9):
            out, empty = "", 0
            for cell in self.board[row * 9 : row * 9 + 9]:
                if cell is None:
                    empty += 1
                    continue
                out, empty = out + (str(empty) if empty else ""), 0
                out += cell[1].sfen if cell[0] == Color.SENTE else cell[1].sfen.lower()
            ranks.append(out + (str(empty) if empty else ""))
        hand = ""
        for color in Color:
            for role in HAND_ROLES:
                count = self.hands[color][role]
                letter = role.sfen if color == Color.SENTE else role.sfen.lower()
                hand += (str(count) if count > 1 else "") + letter if count else ""
        side = "b" if turn == Color.SENTE else "w"
        return Position.from_sfen_with_warnings(f"{'/'.join(ranks)} {side} {hand or '-'} 1")


def read_csa(data: bytes | str) -> Record:
    """Read a CSA record (V2.2 or V3.0; UTF-8 or Shift_JIS; the first game of a file).

    >>> record = read_csa("V2.2\\nPI\\n+\\n+7776FU\\n-3334FU\\n%TORYO\\n")
    >>> [m.usi() for m in record.game.moves], record.game.outcome.winner.name
    (['7g7f', '3c3d'], 'GOTE')
    """
    setup = _Setup()
    record = Record(Game())
    game: Game | None = None
    last: Move | None = None
    winner: Color | None = None
    reason: str | None = None
    for number, raw in enumerate(decode(data).splitlines(), 1):
        line = raw.strip()
        if line.startswith("'summary:"):
            results = re.findall(r" (win|lose)(?=:|$)", line)
            if len(results) == 2 and results[0] != results[1]:
                winner = Color.SENTE if results[0] == "win" else Color.GOTE
                reason = line.split(":")[1]
        if not line or line.startswith("'"):
            continue
        if line == "/":
            break
        column = 0
        for part in _items(raw):
            item = part.strip()
            at = column + len(part) - len(part.lstrip())
            column += len(part) + 1
            if not item:
                continue
            try:
                if game is None and item in ("+", "-"):
                    start, record.warnings = setup.position(
                        Color.SENTE if item == "+" else Color.GOTE
                    )
                    game = Game(start)
                elif game is None:
                    _header(setup, record, item)
                elif item[0] in "+-":
                    if record.end is not None:
                        raise FormatError(Sentence("a move follows the end of the game."))
                    last = parse_move(game.position, item, last_move=last, style="csa")
                    game.push(last)
                elif item.startswith("%"):
                    record.keep_end(item)
                elif not item.startswith("T"):
                    raise FormatError(Sentence("it is not a move, a time or an end code."))
            except ValueError as error:
                why = Sentence(
                    "'{text}' could not be read: {reason}",
                    text=quote(item, 40),
                    reason=because(error),
                )
                raise RecordError(why, number, at + 1) from None
    if game is None:
        raise RecordError(Sentence("The record never says who moves first (a line with + or -)."))
    if record.end in END_CODES:
        key = _SUMMARY_REASONS.get(reason or "", END_CODES[record.end])
        if record.end in _ACTION_BY and winner is None:
            winner = _ACTION_BY[record.end].opponent
        apply_ending(game, key, winner)
    record.game = game
    return record


# What can follow a comma in a CSA line: a move, a time or another line written on the
# same line. Any other comma is part of a name or a header's value (`N+Habu, Yoshiharu`).
_NAMED = ("N+", "N-", "$")
_ITEM_START = re.compile(r"N[+-]|\$|P[I1-9+-]|V[23]|'|%|T[0-9]|[+-](?:[0-9]{4}[A-Z]{2})?$")


def _items(raw: str) -> list[str]:
    """A line's items between commas, a name or a header keeping the commas in its value.

    >>> _items("N+Habu, Yoshiharu,N-Sato"), _items("+7776FU,T1")
    (['N+Habu, Yoshiharu', 'N-Sato'], ['+7776FU', 'T1'])
    """
    parts = raw.split(",")
    if len(parts) == 1 or not any(part.lstrip().startswith(_NAMED) for part in parts):
        return parts  # most lines: one item, or moves and times
    items: list[list[str]] = []  # each item's parts, joined once (no quadratic +=)
    for part in parts:
        named = items and items[-1][0].lstrip().startswith(_NAMED)
        if named and not _ITEM_START.match(part.strip()):
            items[-1].append(part)
        else:
            items.append([part])
    return [",".join(parts) for parts in items]


def _header(setup: _Setup, record: Record, item: str) -> None:
    if item.startswith("V") or (item.startswith("$") and ":" not in item):
        return
    if item.startswith("N+"):
        record.keep_name(Color.SENTE, item[2:])
    elif item.startswith("N-"):
        record.keep_name(Color.GOTE, item[2:])
    elif item.startswith("$"):
        key, _, value = item[1:].partition(":")
        kept = record.keep_header(HEADER_NAMES.get(key, key), value)
        if key == "START_TIME":
            record.started = kept
    elif item.startswith("PI"):
        setup.even(item[2:])
    elif len(item) >= 2 and item[0] == "P" and item[1] in "123456789":
        setup.row(item)
    elif item.startswith(("P+", "P-")):
        setup.pieces(item)
    else:
        raise FormatError(Sentence("it is not a CSA header line."))
