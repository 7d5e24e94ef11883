"""Shared vocabulary of the notations: styles, names of pieces and squares, the new error.

Everything here is a table or a tiny helper used by both the reader and the writer,
so that the two can never disagree about how a piece or a square is spelt.
"""

from __future__ import annotations

from enum import Enum, StrEnum

from ..errors import FormatError, Sentence, quote
from ..moves import Move
from ..types import KING_GLYPHS, ROLE_NAMES, Color, Role, Square


class Style(StrEnum):
    """The ways `format_move` can write a move (the value is the name accepted as a str)."""

    USI = "usi"
    WESTERN = "western"
    HODGES = "hodges"
    JAPANESE = "japanese"
    CSA = "csa"
    KIF = "kif"


class AmbiguousMoveError(ValueError):
    """Text that fits several legal moves (or leaves the promotion open).

    `candidates` lists every legal move the text could mean, sorted by USI; `sentence`
    says so for a player, and `str(error)` is its English text.

    >>> moves = [Move.from_usi("8h2b+"), Move.from_usi("8h2b")]
    >>> error = AmbiguousMoveError(Sentence("Say which."), moves)
    >>> [move.usi() for move in error.candidates]
    ['8h2b', '8h2b+']
    """

    def __init__(self, sentence: Sentence, candidates: list[Move]) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence
        self.candidates = sorted(candidates, key=Move.usi)


def style_name(style: object) -> str:
    """The lower-case name of a style given as a str or as any Enum member."""
    value = style.value if isinstance(style, Enum) else style
    if not isinstance(value, str):
        raise ValueError(f"unknown notation style {style!r}")
    return value.strip().lower()


# --------------------------------------------------------------------- numbers

#: The most digits a move number (a KIF line's, `手数＝N`) may have. A real game is a few
#: hundred moves; a number of thousands of digits is refused with a sentence, before
#: `int()` spends time on it (or refuses it with Python's own limit on digits).
DIGITS_LIMIT = 6


def read_number(text: str) -> int:
    """A move number written in digits (ASCII or full-width): `FormatError` for one longer
    than `DIGITS_LIMIT` digits, which no record needs.

    >>> read_number("30"), read_number("３０")
    (30, 30)
    """
    if len(text) > DIGITS_LIMIT:
        raise FormatError(
            Sentence(
                "'{text}' is not a move number (a record's move numbers have at most "
                "{digits} digits).",
                text=quote(text),
                digits=DIGITS_LIMIT,
            )
        )
    return int(text)


# --------------------------------------------------------------------- squares

KANJI_DIGITS = "一二三四五六七八九"
WIDE_DIGITS = "１２３４５６７８９"
RANK_LETTERS = "abcdefghi"


def digit_value(char: str) -> int:
    """1..9 for an ASCII digit, a full-width digit or a kanji numeral; 0 otherwise."""
    if "1" <= char <= "9":
        return ord(char) - 48
    if char in WIDE_DIGITS:
        return WIDE_DIGITS.index(char) + 1
    return KANJI_DIGITS.index(char) + 1 if char in KANJI_DIGITS else 0


def japanese_square(square: Square) -> str:
    """`７六` for 7g: full-width file, kanji rank."""
    return WIDE_DIGITS[square.file - 1] + KANJI_DIGITS[square.rank - 1]


def numeric_square(square: Square) -> str:
    """`76` for 7g, as in lishogi's western notation, CSA and KIF origins."""
    return f"{square.file}{square.rank}"


# --------------------------------------------------------------------- pieces

# The names of the pieces, from the one table in `rules.types` (see `RoleNames`).
JAPANESE_NAMES: dict[Role, str] = {role: names.kanji for role, names in ROLE_NAMES.items()}
KIF_NAMES: dict[Role, str] = {role: names.kif for role, names in ROLE_NAMES.items()}
BOD_GLYPHS: dict[Role, str] = {role: names.glyph for role, names in ROLE_NAMES.items()}

# Every spelling a reader accepts: the table's (JSA, KIF, glyph), the king's 王, and the
# long forms of the pieces' full names. Longest first, so that 成銀 wins over 銀.
_READ_NAMES: dict[str, Role] = {
    **{name: role for role, names in ROLE_NAMES.items() for name in (names.kanji, names.kif)},
    **{names.glyph: role for role, names in ROLE_NAMES.items()},
    KING_GLYPHS[1]: Role.KING, "玉将": Role.KING, "王将": Role.KING, "飛車": Role.ROOK,
    "龍王": Role.DRAGON, "竜王": Role.DRAGON, "角行": Role.BISHOP, "龍馬": Role.HORSE,
    "竜馬": Role.HORSE, "金将": Role.GOLD, "銀将": Role.SILVER, "桂馬": Role.KNIGHT,
    "香車": Role.LANCE, "歩兵": Role.PAWN, "と金": Role.TOKIN,
}  # fmt: skip
READ_NAMES: dict[str, Role] = dict(sorted(_READ_NAMES.items(), key=lambda item: -len(item[0])))
JAPANESE_PIECE_PATTERN = "|".join(READ_NAMES)

# Western letters: the piece as it stands before the move (the table's SFEN letters),
# and Hodges' single letters for the promoted pieces that have one.
WESTERN_LETTERS: dict[str, Role] = {
    **{names.letter: role for role, names in ROLE_NAMES.items()},
    "T": Role.TOKIN, "H": Role.HORSE, "D": Role.DRAGON,
}  # fmt: skip

CSA_CODES: dict[Role, str] = {role: names.csa for role, names in ROLE_NAMES.items()}
CSA_ROLES: dict[str, Role] = {code: role for role, code in CSA_CODES.items()}

# Which side a turn mark stands for (▲ ☗ ▼ Black, △ ☖ ▽ White).
TURN_MARKS: dict[str, Color] = {
    "▲": Color.SENTE, "☗": Color.SENTE, "▼": Color.SENTE,
    "△": Color.GOTE, "☖": Color.GOTE, "▽": Color.GOTE,
}  # fmt: skip

# Pieces whose 右/左 is judged against the destination file (and which use 直).
GOLD_LIKE: frozenset[Role] = frozenset(
    {
        Role.GOLD,
        Role.SILVER,
        Role.TOKIN,
        Role.PROMOTED_LANCE,
        Role.PROMOTED_KNIGHT,
        Role.PROMOTED_SILVER,
    }
)


def can_promote_on(role: Role, color: Color | int, source: int, target: int) -> bool:
    """Whether a `role` moving from `source` to `target` has the choice (or duty) to promote."""
    if not role.can_promote:
        return False
    if color == Color.SENTE:
        return source < 27 or target < 27
    return source >= 54 or target >= 54
