"""The vocabulary of shogi: colours, piece kinds (roles), pieces and squares.

Squares are numbered 0..80 in SFEN reading order: index 0 is 9a (top left as
sente sees the board), index 8 is 1a, index 80 is 1i. That order makes SFEN
reading and writing a straight walk over the board, and rows line up with
ranks, which is what the promotion-zone tests need.

`Square` subclasses `int` so that the move generator can index lists with it
directly while users still get `Square.from_usi("7g")` and `square.usi()`.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

RANK_LETTERS = "abcdefghi"


class Color(IntEnum):
    """The two sides. Sente moves first in an even game; gote gives handicaps."""

    SENTE = 0
    GOTE = 1

    def __bool__(self) -> bool:
        """A colour is never a truth value. As an `IntEnum`, `SENTE` is 0 and would read as
        false, so `color or fallback` would silently replace sente by the fallback: compare
        with `is None` instead, and this refuses the mistake wherever a test reaches it."""
        raise TypeError("a Color is not a truth value: compare it with `is None`")

    @property
    def opponent(self) -> Color:
        return Color.GOTE if self is Color.SENTE else Color.SENTE

    @property
    def symbol(self) -> str:
        """The traditional turn mark: ☗ for sente, ☖ for gote."""
        return "☗" if self is Color.SENTE else "☖"

    @property
    def sfen(self) -> str:
        return "b" if self is Color.SENTE else "w"


class Role(IntEnum):
    """The 14 piece kinds. A promoted kind is its base kind plus 8, which keeps
    promotion and demotion to one addition in the hot paths."""

    PAWN = 1
    LANCE = 2
    KNIGHT = 3
    SILVER = 4
    BISHOP = 5
    ROOK = 6
    GOLD = 7
    KING = 8
    TOKIN = 9
    PROMOTED_LANCE = 10
    PROMOTED_KNIGHT = 11
    PROMOTED_SILVER = 12
    HORSE = 13
    DRAGON = 14

    @property
    def can_promote(self) -> bool:
        return self <= Role.ROOK

    @property
    def is_promoted(self) -> bool:
        return self >= Role.TOKIN

    @property
    def promoted(self) -> Role:
        """The promoted form (`Role.PAWN.promoted is Role.TOKIN`)."""
        if not self.can_promote:
            raise ValueError(f"{self.name.lower()} cannot promote")
        return Role(self + 8)

    @property
    def unpromoted(self) -> Role:
        """The base form, which is what a captured piece becomes in hand."""
        return Role(self - 8) if self.is_promoted else self

    @property
    def sfen(self) -> str:
        """The SFEN/USI letter for sente (upper case), with `+` for promoted kinds; also the
        piece letter of Western notation."""
        return ROLE_SFEN[self]

    # Each kind's names in the vocabularies most used, given once from `ROLE_NAMES` below.
    #: `"pawn"`, `"promoted lance"`, `"dragon"`: the name in sentences.
    english: str
    #: The name as the JSA and KI2 records write it: 歩 ... 成香, 竜.
    kanji: str
    #: The one character printed on the piece and in board diagrams: 歩 ... 杏, 龍.
    glyph: str
    #: The two-letter CSA code: `FU`, `NY`, `RY`.
    csa: str

    @classmethod
    def from_sfen(cls, text: str) -> Role:
        """`Role.from_sfen("+P") is Role.TOKIN`; case-insensitive."""
        try:
            return SFEN_ROLE[text.upper()]
        except KeyError:
            raise ValueError(f"unknown piece letter {text!r}") from None


@dataclass(frozen=True, slots=True)
class RoleNames:
    """How one piece kind is named in each vocabulary the project reads or writes."""

    english: str  # in sentences: "promoted lance"
    letter: str  # SFEN, USI and Western notation, sente's case: "+L"
    csa: str  # CSA records: "NY"
    kanji: str  # JSA and KI2 notation: "成香"; the dragon is 竜
    kif: str  # KIF notation: as the JSA, but the dragon is 龍
    glyph: str  # one character, on the piece and in BOD diagrams: "杏"


# The one table of piece names: notation, explanations, alt text and board images all
# read it, so that no two places can spell a piece differently.
ROLE_NAMES: dict[Role, RoleNames] = {
    role: RoleNames(*names)
    for role, names in {
        #                      English            letter  CSA   JSA     KIF     glyph
        Role.PAWN:            ("pawn",            "P",   "FU", "歩",   "歩",   "歩"),
        Role.LANCE:           ("lance",           "L",   "KY", "香",   "香",   "香"),
        Role.KNIGHT:          ("knight",          "N",   "KE", "桂",   "桂",   "桂"),
        Role.SILVER:          ("silver",          "S",   "GI", "銀",   "銀",   "銀"),
        Role.BISHOP:          ("bishop",          "B",   "KA", "角",   "角",   "角"),
        Role.ROOK:            ("rook",            "R",   "HI", "飛",   "飛",   "飛"),
        Role.GOLD:            ("gold",            "G",   "KI", "金",   "金",   "金"),
        Role.KING:            ("king",            "K",   "OU", "玉",   "玉",   "玉"),
        Role.TOKIN:           ("tokin",           "+P",  "TO", "と",   "と",   "と"),
        Role.PROMOTED_LANCE:  ("promoted lance",  "+L",  "NY", "成香", "成香", "杏"),
        Role.PROMOTED_KNIGHT: ("promoted knight", "+N",  "NK", "成桂", "成桂", "圭"),
        Role.PROMOTED_SILVER: ("promoted silver", "+S",  "NG", "成銀", "成銀", "全"),
        Role.HORSE:           ("horse",           "+B",  "UM", "馬",   "馬",   "馬"),
        Role.DRAGON:          ("dragon",          "+R",  "RY", "竜",   "龍",   "龍"),
    }.items()
}  # fmt: skip
for _role, _names in ROLE_NAMES.items():
    _role.english, _role.kanji = _names.english, _names.kanji
    _role.glyph, _role.csa = _names.glyph, _names.csa
# The king's two kanji: 玉 (the table's) and 王, which by custom marks the senior player.
KING_GLYPHS: tuple[str, str] = ("玉", "王")
ROLE_SFEN: dict[Role, str] = {role: names.letter for role, names in ROLE_NAMES.items()}
SFEN_ROLE: dict[str, Role] = {letter: role for role, letter in ROLE_SFEN.items()}

# The kinds that can be held in hand, in the customary SFEN order (R B G S N L P).
HAND_ROLES: tuple[Role, ...] = (
    Role.ROOK,
    Role.BISHOP,
    Role.GOLD,
    Role.SILVER,
    Role.KNIGHT,
    Role.LANCE,
    Role.PAWN,
)


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece as it stands on the board: whose it is and what it is."""

    color: Color
    role: Role

    @property
    def code(self) -> int:
        """The integer the board list stores: role plus 16 for gote, 0 for empty."""
        return self.role + 16 * self.color

    @classmethod
    def from_code(cls, code: int) -> Piece:
        return PIECES[code]  # type: ignore[return-value]

    def sfen(self) -> str:
        """`Piece(Color.GOTE, Role.HORSE).sfen() == "+b"`."""
        letter = self.role.sfen
        return letter if self.color is Color.SENTE else letter.lower()


PIECES: list[Piece | None] = [None] * 32
for _color in Color:
    for _role in Role:
        PIECES[_role + 16 * _color] = Piece(_color, _role)


class Square(int):
    """A board square, 0..80 in SFEN order, named like USI (`Square.from_usi("7g")`)."""

    __slots__ = ()

    @classmethod
    def of(cls, file: int, rank: int) -> Square:
        """The square on `file` (1..9, right to left for sente) and `rank` (1..9, top down)."""
        if not (1 <= file <= 9 and 1 <= rank <= 9):
            raise ValueError(f"no square at file {file}, rank {rank}")
        return SQUARES[(rank - 1) * 9 + (9 - file)]

    @classmethod
    def from_usi(cls, text: str) -> Square:
        """`Square.from_usi("7g")` is file 7, rank 7 (g is the seventh letter)."""
        if len(text) != 2 or text[0] not in "123456789" or text[1] not in RANK_LETTERS:
            raise ValueError(f"not a square: {text!r}")
        return cls.of(int(text[0]), RANK_LETTERS.index(text[1]) + 1)

    @property
    def file(self) -> int:
        return 9 - self % 9

    @property
    def rank(self) -> int:
        return self // 9 + 1

    def usi(self) -> str:
        return f"{self.file}{RANK_LETTERS[self.rank - 1]}"

    def mirror(self) -> Square:
        """The square seen from the other side of the board (180-degree turn)."""
        return SQUARES[80 - self]

    def __repr__(self) -> str:
        return f"Square.from_usi({self.usi()!r})"

    __str__ = usi


SQUARES: list[Square] = [int.__new__(Square, i) for i in range(81)]


def in_zone(color: Color | int, square: int) -> bool:
    """Whether `square` lies in the promotion zone (enemy camp) of `color`."""
    return square < 27 if color == Color.SENTE else square >= 54
