"""Precomputed geometry for the move generator.

Everything the generator asks about the board's shape ("where can a gote silver
on 5e step?", "which squares lie north of 3c?") is answered here once, at
import, as tuples indexed by piece code and square. Pure Python pays for every
arithmetic step, so the hot loops only index these tables.

A piece code is `role + 16 * color` (see `rules.types.Piece.code`): sente's
pieces are 1..14, gote's 17..30, 0 is an empty square.
"""

from __future__ import annotations

from .types import Color, Role

Step = tuple[int, int]  # (row delta, column delta); row 0 is rank a, column 0 is file 9

_ORTHOGONAL: tuple[Step, ...] = ((-1, 0), (1, 0), (0, -1), (0, 1))
_DIAGONAL: tuple[Step, ...] = ((-1, -1), (-1, 1), (1, -1), (1, 1))
_GOLD: tuple[Step, ...] = ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, 0))

# Steps and slides of sente's pieces; gote's are the same with the row delta negated.
_STEPS: dict[Role, tuple[Step, ...]] = {
    Role.PAWN: ((-1, 0),),
    Role.LANCE: (),
    Role.KNIGHT: ((-2, -1), (-2, 1)),
    Role.SILVER: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 1)),
    Role.GOLD: _GOLD,
    Role.BISHOP: (),
    Role.ROOK: (),
    Role.KING: _ORTHOGONAL + _DIAGONAL,
    Role.TOKIN: _GOLD,
    Role.PROMOTED_LANCE: _GOLD,
    Role.PROMOTED_KNIGHT: _GOLD,
    Role.PROMOTED_SILVER: _GOLD,
    Role.HORSE: _ORTHOGONAL,
    Role.DRAGON: _DIAGONAL,
}
_SLIDES: dict[Role, tuple[Step, ...]] = {role: () for role in Role}
_SLIDES[Role.LANCE] = ((-1, 0),)
_SLIDES[Role.BISHOP] = _SLIDES[Role.HORSE] = _DIAGONAL
_SLIDES[Role.ROOK] = _SLIDES[Role.DRAGON] = _ORTHOGONAL

# The eight directions looked along from a square (king safety, attacks, pins).
DIRECTIONS: tuple[Step, ...] = _ORTHOGONAL + _DIAGONAL


def _oriented(step: Step, color: Color) -> Step:
    return step if color is Color.SENTE else (-step[0], step[1])


def _target(square: int, step: Step) -> int | None:
    row, col = divmod(square, 9)
    row, col = row + step[0], col + step[1]
    return row * 9 + col if 0 <= row < 9 and 0 <= col < 9 else None


def _ray(square: int, step: Step) -> tuple[int, ...]:
    squares = []
    current: int | None = square
    while (current := _target(current, step)) is not None:  # type: ignore[arg-type]
        squares.append(current)
    return tuple(squares)


def _empty_table() -> list[list[tuple[int, ...]]]:
    return [[() for _ in range(81)] for _ in range(32)]


# STEP_TARGETS[code][square]: squares a non-sliding step reaches.
STEP_TARGETS: list[list[tuple[int, ...]]] = _empty_table()
# SLIDE_RAYS[code][square]: the rays (nearest square first) a sliding piece looks along.
SLIDE_RAYS: list[list[tuple[tuple[int, ...], ...]]] = [[() for _ in range(81)] for _ in range(32)]
# RAYS8[square][i]: the ray from `square` in DIRECTIONS[i].
RAYS8: list[tuple[tuple[int, ...], ...]] = [
    tuple(_ray(square, step) for step in DIRECTIONS) for square in range(81)
]
# STEP_ATTACKS_FROM[color][i][code]: a piece of `color` adjacent to a square in direction i
# attacks that square. SLIDE_ATTACKS_FROM likewise for a slider anywhere along ray i.
STEP_ATTACKS_FROM: list[list[list[bool]]] = [[[False] * 32 for _ in DIRECTIONS] for _ in Color]
SLIDE_ATTACKS_FROM: list[list[list[bool]]] = [[[False] * 32 for _ in DIRECTIONS] for _ in Color]
# KNIGHT_SOURCES[color][square]: where a knight of `color` must stand to attack `square`.
KNIGHT_SOURCES: list[list[tuple[int, ...]]] = [[() for _ in range(81)] for _ in Color]

for _color in Color:
    for _role in Role:
        _code = _role + 16 * _color
        _steps = [_oriented(s, _color) for s in _STEPS[_role]]
        _slides = [_oriented(s, _color) for s in _SLIDES[_role]]
        for _square in range(81):
            STEP_TARGETS[_code][_square] = tuple(
                t for s in _steps if (t := _target(_square, s)) is not None
            )
            SLIDE_RAYS[_code][_square] = tuple(r for s in _slides if (r := _ray(_square, s)))
        for _i, (_dr, _dc) in enumerate(DIRECTIONS):
            # A piece standing in direction i from the target moves the opposite way.
            _back = (-_dr, -_dc)
            STEP_ATTACKS_FROM[_color][_i][_code] = _back in _steps or _back in _slides
            SLIDE_ATTACKS_FROM[_color][_i][_code] = _back in _slides
    for _square in range(81):
        _knight_steps = [_oriented(s, _color) for s in _STEPS[Role.KNIGHT]]
        KNIGHT_SOURCES[_color][_square] = tuple(
            t for s in _knight_steps if (t := _target(_square, (-s[0], -s[1]))) is not None
        )

# BETWEEN[a][b]: the squares strictly between a and b on a shared line, else ().
BETWEEN: list[list[tuple[int, ...]]] = [[() for _ in range(81)] for _ in range(81)]
for _a in range(81):
    for _ray8 in RAYS8[_a]:
        for _k, _b in enumerate(_ray8):
            BETWEEN[_a][_b] = _ray8[:_k]

# DEAD_ROWS[role]: how many far rows an unpromoted piece of that role could never leave,
# so it must promote on arriving there and may not be dropped there.
DEAD_ROWS: dict[Role, int] = {Role.PAWN: 1, Role.LANCE: 1, Role.KNIGHT: 2}


def is_dead_square(color: int, role: int, square: int) -> bool:
    """Whether an unpromoted `role` of `color` on `square` could never move again."""
    rows = DEAD_ROWS.get(Role(role), 0)
    row = square // 9
    return row < rows if color == Color.SENTE else row >= 9 - rows


# MUST_PROMOTE[code][square] / DEAD_DROP likewise, as flat lookups for the hot loops.
MUST_PROMOTE: list[list[bool]] = [[False] * 81 for _ in range(32)]
for _color in Color:
    for _role in (Role.PAWN, Role.LANCE, Role.KNIGHT):
        for _square in range(81):
            MUST_PROMOTE[_role + 16 * _color][_square] = is_dead_square(_color, _role, _square)
