"""Moves as small immutable values, with their USI form.

A move is either a board move (`from_square`, `to_square`, `promotion`) or a
drop (`drop`, `to_square`). Both share one class so that a list of legal moves
is homogeneous and a move can be stored as one USI string.

Inside the move generator every move is an integer code,
`(source * 81 + to) * 2 + promotion`, where `source` is the origin square
(0..80) or `80 + role` for a drop (81..87). All 14,256 possible codes get
their `Move` object once at import, so turning generated codes into moves is a
list lookup rather than an allocation.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import InvalidMoveError, Sentence, quote
from .types import SQUARES, Role, Square

DROP_ROLES: tuple[Role, ...] = (
    Role.PAWN,
    Role.LANCE,
    Role.KNIGHT,
    Role.SILVER,
    Role.BISHOP,
    Role.ROOK,
    Role.GOLD,
)
_DROP_LETTERS = {role.sfen: role for role in DROP_ROLES}


def _not_usi(text: str) -> Sentence:
    return Sentence("'{text}' is not a USI move such as 7g7f, 8h2b+ or P*5e.", text=quote(text))


@dataclass(frozen=True, slots=True)
class Move:
    """A move. `Move.from_usi("7g7f")`, `Move.from_usi("P*5e")`; `move.usi()` gives it back."""

    to_square: Square
    from_square: Square | None = None
    promotion: bool = False
    drop: Role | None = None

    def __post_init__(self) -> None:
        if (self.from_square is None) == (self.drop is None):
            raise ValueError("a move has either an origin square or a dropped piece")
        if self.drop is not None and (self.promotion or self.drop not in DROP_ROLES):
            raise ValueError("only unpromoted non-king pieces are dropped, never promoted")
        # Accept plain ints for squares, but store `Square`s so usi() and repr work.
        for name in ("to_square", "from_square"):
            value = getattr(self, name)
            if value is not None and not isinstance(value, Square):
                if not 0 <= value < 81:
                    raise ValueError(f"no square {value}")
                object.__setattr__(self, name, SQUARES[value])
        if self.from_square == self.to_square:
            raise ValueError("a move must go somewhere")

    @classmethod
    def board(cls, from_square: int, to_square: int, promotion: bool = False) -> Move:
        """A board move between two squares (ints or `Square`s)."""
        if not (0 <= from_square < 81 and 0 <= to_square < 81):
            raise ValueError(f"no board move from {from_square} to {to_square}")
        if from_square == to_square:
            raise InvalidMoveError(
                Sentence("A move must leave its square; the origin and destination are the same.")
            )
        return MOVES[encode(from_square, to_square, promotion)]

    @classmethod
    def drop_at(cls, role: Role, to_square: int) -> Move:
        """A drop of `role` from the hand onto `to_square`."""
        if role not in DROP_ROLES or not 0 <= to_square < 81:
            raise ValueError(f"a {role.name.lower()} cannot be dropped")
        return MOVES[encode(80 + role, to_square, False)]

    @classmethod
    def from_usi(cls, text: str) -> Move:
        """Parse USI (`7g7f`, `8h2b+`, `P*5e`); `InvalidMoveError` if it is not USI."""
        if not isinstance(text, str):
            raise InvalidMoveError(Sentence("A USI move is text such as 7g7f, 8h2b+ or P*5e."))
        if len(text) == 5 and text[4] == "+" and text[1] != "*":
            promotion, body = True, text[:4]
        elif len(text) == 4:
            promotion, body = False, text
        else:
            raise InvalidMoveError(_not_usi(text))
        try:
            to_square = Square.from_usi(body[2:])
            if body[1] == "*":
                role = _DROP_LETTERS[body[0]]
                return MOVES[encode(80 + role, to_square, False)]
            move = MOVES[encode(Square.from_usi(body[:2]), to_square, promotion)]
            if move is None:
                raise ValueError("origin and destination are the same square")
            return move
        except (KeyError, ValueError):
            raise InvalidMoveError(_not_usi(text)) from None

    @property
    def is_drop(self) -> bool:
        return self.drop is not None

    @property
    def code(self) -> int:
        """The generator's integer for this move (see the module docstring)."""
        source = self.from_square if self.drop is None else 80 + self.drop
        return encode(source, self.to_square, self.promotion)  # type: ignore[arg-type]

    def usi(self) -> str:
        if self.drop is not None:
            return f"{self.drop.sfen}*{self.to_square.usi()}"
        assert self.from_square is not None
        suffix = "+" if self.promotion else ""
        return f"{self.from_square.usi()}{self.to_square.usi()}{suffix}"

    def __repr__(self) -> str:
        return f"Move.from_usi({self.usi()!r})"

    __str__ = usi


def encode(source: int, to_square: int, promotion: bool) -> int:
    return (source * 81 + to_square) * 2 + promotion


def decode(code: int) -> tuple[int, int, int]:
    """(source, to, promotion) of a move code; a source above 80 is `80 + dropped role`."""
    rest, promotion = divmod(code, 2)
    source, to_square = divmod(rest, 81)
    return source, to_square, promotion


def _build_table() -> list[Move]:
    table: list[Move] = []
    for code in range(88 * 81 * 2):
        source, to_square, promotion = decode(code)
        if source == to_square:  # not a move; keep the slot so indices line up
            table.append(None)  # type: ignore[arg-type]
        elif source < 81:
            table.append(Move(SQUARES[to_square], SQUARES[source], bool(promotion)))
        elif not promotion:
            table.append(Move(SQUARES[to_square], drop=Role(source - 80)))
        else:  # a promoted drop does not exist; keep the slot so indices line up
            table.append(None)  # type: ignore[arg-type]
    return table


MOVES: list[Move] = _build_table()
