"""Reading and writing SFEN strings, with strict validation.

Other libraries are permissive here (python-shogi adds up `pppp`, cshogi keeps
the last count, neither rejects nifu); a bot that accepts SFENs from users must
not be, so every way an SFEN can be wrong has its own stable error code.

Two degrees of wrong. Some positions cannot be shogi at all: more pieces than one set
holds, two kings of a side, a malformed text; they are errors everywhere. Others are
irregular but still positions whose moves can be read and checked: two unpromoted
pawns of a side on a file (nifu), a piece that could never move again, no king on the
board at all. A published record or problem sometimes starts from one (a composition
built around nine pawns on a file), so a record's own start reports them as
`StartWarning`s, while a game about to be played treats them as errors. A side
without a king is not irregular: it is how every tsume problem is set up.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import Sentence, SfenError
from .tables import is_dead_square
from .types import HAND_ROLES, PIECES, RANK_LETTERS, SQUARES, Color, Role

# How many pieces of each base kind a complete set holds (both colours together).
MAX_PIECES: dict[Role, int] = {
    Role.PAWN: 18,
    Role.LANCE: 4,
    Role.KNIGHT: 4,
    Role.SILVER: 4,
    Role.GOLD: 4,
    Role.BISHOP: 2,
    Role.ROOK: 2,
    Role.KING: 2,
}


@dataclass(frozen=True, slots=True)
class StartWarning:
    """Something irregular about a start position that does not stop reading its moves.

    `code` is stable (`nifu`, `dead_piece`, `king_missing`), the same code the strict reader
    raises as an `SfenError`; `sentence` says what is irregular, in any language.
    """

    code: str
    sentence: Sentence


_LETTERS = {role.sfen: role for role in Role if not role.is_promoted}
_PLUS_ALONE = Sentence("'+' must be followed by a piece letter.")


@dataclass(slots=True)
class SfenFields:
    """The parsed parts of an SFEN before the position-level checks."""

    board: list[int]
    hands: list[list[int]]
    turn: int
    move_number: int


def parse_sfen(text: str) -> SfenFields:
    """Split and read an SFEN; raises `SfenError` for anything malformed."""
    if not isinstance(text, str):
        raise SfenError("not_text", Sentence("An SFEN must be text."))
    fields = text.strip().split()
    if fields and fields[0] == "sfen":
        fields = fields[1:]
    if len(fields) not in (3, 4):
        raise SfenError(
            "fields",
            Sentence(
                "An SFEN has four parts separated by spaces: board, side to move, hands and"
                " move number (which may be left out)."
            ),
        )
    board = _parse_board(fields[0])
    if fields[1] not in ("b", "w"):
        raise SfenError("side", Sentence("The side to move must be 'b' (Sente) or 'w' (Gote)."))
    hands = _parse_hands(fields[2])
    move_number = 1
    if len(fields) == 4:
        number = fields[3]
        if not number.isascii() or not number.isdigit() or number.startswith("0"):
            raise SfenError(
                "move_number", Sentence("The move number must be a whole number from 1 up.")
            )
        if len(number) > 9:
            raise SfenError("move_number", Sentence("The move number is too large."))
        move_number = int(number)
    return SfenFields(board, hands, 0 if fields[1] == "b" else 1, move_number)


def _parse_board(text: str) -> list[int]:
    rows = text.split("/")
    if len(rows) != 9:
        raise SfenError(
            "board_ranks",
            Sentence("The board must have 9 ranks separated by '/', not {count}.", count=len(rows)),
        )
    board: list[int] = []
    for row_index, row in enumerate(rows):
        width = 0
        promoted = False
        after_digit = False
        for char in row:
            if char == "+":
                if promoted:
                    raise SfenError("piece_letter", Sentence("'++' is not a piece."))
                promoted = True
                continue
            if char in "123456789":
                if promoted:
                    raise SfenError("piece_letter", _PLUS_ALONE)
                if after_digit:
                    raise SfenError(
                        "rank_width",
                        Sentence("Write a run of empty squares as one digit: 4, not 22."),
                    )
                board.extend([0] * int(char))
                width += int(char)
                after_digit = True
                continue
            else:
                role = _LETTERS.get(char.upper()) if char.isascii() else None
                if role is None:
                    raise SfenError(
                        "piece_letter",
                        Sentence(
                            "{char} is not a piece letter (K R B G S N L P).", char=repr(char)
                        ),
                    )
                if promoted:
                    if not role.can_promote:
                        raise SfenError(
                            "promoted_piece", Sentence("A {piece} cannot be promoted.", piece=role)
                        )
                    role = role.promoted
                    promoted = False
                board.append(role + (0 if char.isupper() else 16))
                width += 1
                after_digit = False
            if width > 9:
                break
        if promoted:
            raise SfenError("piece_letter", _PLUS_ALONE)
        if width != 9:
            raise SfenError(
                "rank_width",
                Sentence(
                    "Rank {rank} must cover 9 squares, not {width}.",
                    rank=RANK_LETTERS[row_index],
                    width=width,
                ),
            )
    return board


def _parse_hands(text: str) -> list[list[int]]:
    hands = [[0] * 9, [0] * 9]
    if text == "-":
        return hands
    seen: set[str] = set()
    count_text = ""
    for char in text:
        if char.isascii() and char.isdigit():
            count_text += char
            if len(count_text) > 2:
                raise SfenError("hand_syntax", Sentence("A count in the hands is at most 18."))
            continue
        role = _LETTERS.get(char.upper()) if char.isascii() else None
        if role is None or role is Role.KING:
            raise SfenError(
                "hand_syntax",
                Sentence(
                    "{char} cannot be in a hand; write counts and letters like 2Pb.",
                    char=repr(char),
                ),
            )
        if char in seen:
            raise SfenError(
                "hand_repeated",
                Sentence("The hand lists {char} twice; write its count once.", char=repr(char)),
            )
        seen.add(char)
        count = int(count_text) if count_text else 1
        if count_text and (count < 2 or count_text.startswith("0")):
            raise SfenError(
                "hand_syntax",
                Sentence("A count in the hands is written only when it is 2 or more."),
            )
        hands[0 if char.isupper() else 1][role] = count
        count_text = ""
    if count_text:
        raise SfenError(
            "hand_syntax", Sentence("A count in the hands must be followed by a piece letter.")
        )
    return hands


def check_material(board: list[int], hands: list[list[int]]) -> list[StartWarning]:
    """Piece counts, kings, nifu and dead pieces: everything that needs no attack tables.

    Raises `SfenError` for what no shogi position can be (more than one set, two kings
    of a side); returns the irregularities a record's start may have, in board order.
    """
    totals = dict.fromkeys(MAX_PIECES, 0)
    kings = [0, 0]
    warnings: list[StartWarning] = []
    pawn_files: set[tuple[int, int]] = set()
    nifu_files: set[tuple[int, int]] = set()
    for square, code in enumerate(board):
        if not code:
            continue
        color, role = code >> 4, Role(code & 15)
        totals[role.unpromoted] += 1
        if role is Role.KING:
            kings[color] += 1
        if role is Role.PAWN:
            key = (color, square % 9)
            if key in pawn_files and key not in nifu_files:
                nifu_files.add(key)
                warnings.append(
                    StartWarning(
                        "nifu",
                        Sentence(
                            "There are two unpromoted {side} pawns on file {file} (nifu).",
                            side=Color(color),
                            file=SQUARES[square].file,
                        ),
                    )
                )
            pawn_files.add(key)
        if role in (Role.PAWN, Role.LANCE, Role.KNIGHT) and is_dead_square(color, role, square):
            warnings.append(
                StartWarning(
                    "dead_piece",
                    Sentence(
                        "The {piece} on {square} could never move again.",
                        piece=role,
                        square=SQUARES[square],
                    ),
                )
            )
    for hand in hands:
        for role in HAND_ROLES:
            totals[role] += hand[role]
    for color in Color:
        if kings[color] > 1:
            raise SfenError(
                "king_extra", Sentence("There is more than one {side} king.", side=color)
            )
    for role, most in MAX_PIECES.items():
        if totals[role] > most:
            raise SfenError(
                "piece_count",
                Sentence(
                    "There are {count} {piece}s; a set has {most}.",
                    count=totals[role],
                    piece=role,
                    most=most,
                ),
            )
    if kings == [0, 0]:
        warnings.append(StartWarning("king_missing", Sentence("There is no king on the board.")))
    return warnings


# What SFEN writes for each board code (0 is empty), and for each hand count. Writing a
# position is on every move's path (the repetition key, the stored SFEN), so it only
# indexes these lists: an enum lookup per square cost five times as much.
_CODE_TEXT: list[str] = [""] * 32
for _code, _piece in enumerate(PIECES):
    if _piece is not None:
        _CODE_TEXT[_code] = _piece.sfen()
_DIGITS = [str(count) for count in range(10)]
_ROW_STARTS = range(0, 81, 9)
# Per colour, (index of the kind, its letter with that colour's case) in R B G S N L P order.
_HAND_TEXT: list[tuple[tuple[int, str], ...]] = [
    tuple((int(role), role.sfen if color == 0 else role.sfen.lower()) for role in HAND_ROLES)
    for color in (0, 1)
]


def board_sfen(board: list[int]) -> str:
    texts, digits = _CODE_TEXT, _DIGITS
    rows = []
    for start in _ROW_STARTS:
        row = ""
        empty = 0
        for code in board[start : start + 9]:
            if code:
                if empty:
                    row += digits[empty]
                    empty = 0
                row += texts[code]
            else:
                empty += 1
        if empty:
            row += digits[empty]
        rows.append(row)
    return "/".join(rows)


def hands_sfen(hands: list[list[int]]) -> str:
    """Hands in the fixed R B G S N L P order, sente first, counts above 1 only; `-` if empty."""
    out = ""
    for hand, letters in zip(hands, _HAND_TEXT, strict=True):
        for role, letter in letters:
            count = hand[role]
            if count:
                out += f"{count}{letter}" if count > 1 else letter
    return out or "-"
