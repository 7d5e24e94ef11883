"""Judging a member's answer to a problem, as tsume solvers judge: pure, run in a worker.

The answer is the first move. It is right when it gives check and the defender, whatever
it replies, is still mated within the problem's remaining length (so another first move
that mates as fast is accepted too, as solvers accept it). It is wrong when it gives no
check, or when the defender escapes the limit. A search the budget cuts short answers
"unknown": said honestly, never as wrong.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from rules import IllegalMoveError, InvalidMoveError, Position
from rules.mate import Verdict, mated_within
from rules.notation import AmbiguousMoveError, parse_move

from ..errors import MoveRejected

JUDGE_NODES = 50_000
"""Positions the solver may enter to judge one answer: a right answer to a problem the
scan proved is judged in far fewer (its proof was found under the scan's smaller budget)."""


class Judged(Enum):
    RIGHT = "right"
    NOT_CHECK = "not_check"
    ESCAPES = "escapes"
    UNKNOWN = "unknown"


@dataclass(frozen=True, slots=True)
class Judgement:
    """What an answer was (`usi`), and how it was judged."""

    usi: str
    judged: Judged


def judge(sfen: str, plies: int, text: str, nodes: int = JUDGE_NODES) -> Judgement:
    """Judge `text` (a move in any notation) as the first move of the problem at `sfen`,
    a mate in `plies`. An unreadable, ambiguous or illegal move is refused with the rules'
    sentence (`MoveRejected`), and counts for nothing.

    >>> judge("4k4/9/3S5/9/9/9/9/9/4K4 b RS 1", 3, "R*5b").judged
    <Judged.RIGHT: 'right'>
    """
    position = Position.from_sfen(sfen)
    try:
        move = parse_move(position, text)
    except (IllegalMoveError, AmbiguousMoveError, InvalidMoveError) as error:
        raise MoveRejected(error.sentence) from None
    if not position.gives_check(move):
        return Judgement(move.usi(), Judged.NOT_CHECK)
    position.push(move)
    verdict = mated_within(position, plies - 1, nodes=nodes)
    if verdict is Verdict.PROVEN:
        return Judgement(move.usi(), Judged.RIGHT)
    if verdict is Verdict.DISPROVEN:
        return Judgement(move.usi(), Judged.ESCAPES)
    return Judgement(move.usi(), Judged.UNKNOWN)
