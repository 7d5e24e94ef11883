"""Impasse (jishogi): point counts and the three ways of settling an entered-king game.

* The seeds' agreed count (24-point rule): both kings in the enemy camp, both
  players agree, each counts every own piece on the board and in hand (rook,
  bishop, dragon, horse 5; others 1; king 0); under 24 loses, else a draw.
* The 27-point declaration (CSA, lishogi, amateur tournaments): the player on
  move declares; it wins when the king is in the enemy camp, not in check, at
  least 10 other pieces are in the camp and camp + hand make 28 (sente) or 27
  (gote) points. A declaration that fails every condition loses under CSA
  rules; the bot refuses it instead, so `evaluate_27` only reports.
* The JSA professional declaration (2019): same entry conditions, 31+ points
  in camp and hand wins, 24-30 is a draw, less loses.

In handicap games the uwate (gote) is credited with the missing material
(`missing_points`): the JSA credits it in the 24-point count, and the
handicap-aware 27-point rule (lishogi, YaneuraOu's 27H) lowers gote's
threshold by the same amount. Missing is measured against the game's initial
SFEN with hands included, so a board whose absent pieces sit in a hand has
nothing missing.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from .errors import Plural, Sentence
from .position import Position
from .types import Color, Role, in_zone

FULL_SET_POINTS = 54
BIG_ROLES = frozenset({Role.BISHOP, Role.ROOK, Role.HORSE, Role.DRAGON})


def piece_points(role: Role) -> int:
    """5 for rook, bishop, dragon and horse; 0 for the king; 1 for everything else."""
    if role is Role.KING:
        return 0
    return 5 if role in BIG_ROLES else 1


def _hand_points(position: Position, color: Color) -> int:
    return sum(piece_points(role) * count for role, count in position.hand(color).items())


def total_points(position: Position, color: Color) -> int:
    """All of `color`'s pieces on the whole board plus the hand (the 24-point count)."""
    board_points = sum(
        piece_points(piece.role) for _, piece in position.pieces() if piece.color == color
    )
    return board_points + _hand_points(position, color)


def missing_points(initial: Position) -> int:
    """Points absent from a game's initial position: what a handicap removed."""
    return FULL_SET_POINTS - total_points(initial, Color.SENTE) - total_points(initial, Color.GOTE)


@dataclass(frozen=True, slots=True)
class CampCount:
    """What one player has towards an impasse, as `/jishogi` shows it."""

    color: Color
    king_in_camp: bool
    pieces_in_camp: int  # not counting the king
    camp_points: int  # pieces in the enemy camp plus the hand
    total_points: int  # the whole board plus the hand


def camp_count(position: Position, color: Color) -> CampCount:
    """Count `color`'s material for the declaration rules and the agreed count."""
    pieces = 0
    points = 0
    for square, piece in position.pieces():
        if piece.color == color and piece.role is not Role.KING and in_zone(color, square):
            pieces += 1
            points += piece_points(piece.role)
    return CampCount(
        color=color,
        king_in_camp=position.has_king(color) and in_zone(color, position.king_square(color)),
        pieces_in_camp=pieces,
        camp_points=points + _hand_points(position, color),
        total_points=total_points(position, color),
    )


class Verdict(Enum):
    WIN = "win"
    DRAW = "draw"
    INVALID = "invalid"  # conditions not met: a loss where a failed declaration loses


@dataclass(frozen=True, slots=True)
class Declaration:
    """The result of checking a declaration: the verdict, the count, and why it failed."""

    declarer: Color
    verdict: Verdict
    points: int
    required: int
    reason: Sentence | None = None  # why, when the verdict is INVALID


def required_27(color: Color, missing: int = 0) -> int:
    """28 for sente, 27 for gote, gote's lowered by the handicap's missing points."""
    return 28 if color is Color.SENTE else 27 - missing


def _entry_problem(position: Position, color: Color, count: CampCount) -> Sentence | None:
    if position.turn != color:
        return Sentence("Only the player to move can declare.")
    if not count.king_in_camp:
        return Sentence("The king has not entered the enemy camp.")
    if position.is_check():
        return Sentence("No declaration while the king is in check.")
    if count.pieces_in_camp < 10:
        return Plural(
            "It takes 10 pieces besides the king in the enemy camp; there is {count}.",
            "It takes 10 pieces besides the king in the enemy camp; there are {count}.",
            count=count.pieces_in_camp,
        )
    return None


def evaluate_27(position: Position, color: Color, *, missing: int = 0) -> Declaration:
    """Would `color` win by declaring under the 27-point rule now?

    `missing` is `missing_points(initial)` for the handicap-aware rule, 0 for plain CSA.
    """
    count = camp_count(position, color)
    required = required_27(color, missing if color is Color.GOTE else 0)
    problem = _entry_problem(position, color, count)
    if problem is None and count.camp_points < required:
        problem = Plural(
            "It takes {required} points in the camp and in hand; there is {points}.",
            "It takes {required} points in the camp and in hand; there are {points}.",
            by="points",
            required=required,
            points=count.camp_points,
        )
    verdict = Verdict.INVALID if problem is not None else Verdict.WIN
    return Declaration(color, verdict, count.camp_points, required, problem)


def evaluate_jsa24(position: Position, color: Color) -> Declaration:
    """The JSA professional declaration: 31 or more wins, 24 to 30 draws, else it fails."""
    count = camp_count(position, color)
    problem = _entry_problem(position, color, count)
    if problem is None and count.camp_points < 24:
        problem = Plural(
            "It takes at least 24 points in the camp and in hand; there is {points}.",
            "It takes at least 24 points in the camp and in hand; there are {points}.",
            by="points",
            points=count.camp_points,
        )
    if problem is not None:
        return Declaration(color, Verdict.INVALID, count.camp_points, 31, problem)
    verdict = Verdict.WIN if count.camp_points >= 31 else Verdict.DRAW
    return Declaration(color, verdict, count.camp_points, 31)


@dataclass(frozen=True, slots=True)
class AgreedCount:
    """The 24-point count both players agreed to: points and who, if anyone, falls short."""

    applicable: bool  # both kings are in the enemy camp
    sente_points: int
    gote_points: int  # includes the handicap's missing points credited to the uwate
    winner: Color | None  # None: a draw (jishogi)
    reason: Sentence | None = None  # why the count cannot be made now


def count_24(position: Position, *, missing: int = 0) -> AgreedCount:
    """Count for the agreed 24-point rule; `missing` credits a handicap's pieces to gote."""
    sente = total_points(position, Color.SENTE)
    gote = total_points(position, Color.GOTE) + missing
    applicable = all(
        position.has_king(color) and in_zone(color, position.king_square(color)) for color in Color
    )
    reason = (
        None if applicable else Sentence("Both kings must be in the enemy camp before counting.")
    )
    winner: Color | None = None
    if sente < 24 <= gote:
        winner = Color.GOTE
    elif gote < 24 <= sente:
        winner = Color.SENTE
    return AgreedCount(applicable, sente, gote, winner, reason)
