"""Why a move is illegal: the reason code and a sentence a player can act on.

Kept apart from the generator: the generator only ever produces legal moves,
and this module runs only when someone asked for a move that is not among them,
so it can afford to be plain and thorough rather than fast.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .errors import IllegalMoveError, IllegalReason
from .tables import BETWEEN, MUST_PROMOTE, SLIDE_RAYS, STEP_TARGETS, is_dead_square
from .types import PIECES, Role, in_zone

if TYPE_CHECKING:
    from .moves import Move
    from .position import Position


def _error(reason: IllegalReason, message: str) -> IllegalMoveError:
    return IllegalMoveError(reason, message)


def explain_illegal(position: Position, move: Move) -> IllegalMoveError:
    """The error for a move that `position.is_legal(move)` rejected."""
    if move.drop is not None:
        return _explain_drop(position, move)
    return _explain_board_move(position, move)


def _explain_drop(position: Position, move: Move) -> IllegalMoveError:
    us = position.turn_index
    role = move.drop
    assert role is not None
    name = role.english
    target = move.to_square
    if not position.hands[us][role]:
        return _error(IllegalReason.NOT_IN_HAND, f"You have no {name} in hand.")
    if position.board[target]:
        return _error(
            IllegalReason.OCCUPIED, f"You can only drop on an empty square; {target} is taken."
        )
    if is_dead_square(us, role, target):
        return _error(
            IllegalReason.DEAD_DROP,
            f"A {name} dropped on {target} could never move, so it may not be dropped there.",
        )
    if role is Role.PAWN:
        own_pawn = Role.PAWN + 16 * us
        file_squares = range(target % 9, 81, 9)
        if any(position.board[sq] == own_pawn for sq in file_squares):
            return _error(
                IllegalReason.NIFU,
                f"You already have an unpromoted pawn on file {target.file} (nifu).",
            )
    checkers = position.checkers()
    if len(checkers) > 1:
        return _error(
            IllegalReason.DOUBLE_CHECK, "Your king is in double check: only a king move helps."
        )
    blocks = not checkers or target in BETWEEN[position.kings[us]][checkers[0]]
    if role is Role.PAWN and blocks:
        return _error(IllegalReason.UCHIFUZUME, "A pawn drop may not give checkmate (uchifuzume).")
    return _error(
        IllegalReason.LEAVES_KING_IN_CHECK,
        f"Your king is in check and a drop on {target} does not block it.",
    )


def _explain_board_move(position: Position, move: Move) -> IllegalMoveError:
    us = position.turn_index
    source = move.from_square
    assert source is not None
    target = move.to_square
    piece = PIECES[position.board[source]]
    if piece is None:
        return _error(IllegalReason.NO_PIECE, f"There is no piece on {source}.")
    if piece.color != us:
        return _error(
            IllegalReason.NOT_OWN_PIECE, f"The {piece.role.english} on {source} is not yours."
        )
    name = piece.role.english
    occupant = PIECES[position.board[target]]
    if occupant is not None and occupant.color == us:
        return _error(
            IllegalReason.CAPTURES_OWN_PIECE,
            f"{target} holds your own {occupant.role.english}.",
        )
    code = position.board[source]
    if target not in STEP_TARGETS[code][source]:
        ray = next((r for r in SLIDE_RAYS[code][source] if target in r), None)
        if ray is None:
            return _error(
                IllegalReason.CANNOT_MOVE_THERE, f"A {name} on {source} cannot move to {target}."
            )
        if any(position.board[sq] for sq in BETWEEN[source][target]):
            return _error(
                IllegalReason.BLOCKED, f"The {name} on {source} is blocked on its way to {target}."
            )
    if move.promotion:
        if not piece.role.can_promote:
            kind = "is already promoted" if piece.role.is_promoted else "never promotes"
            return _error(IllegalReason.CANNOT_PROMOTE, f"A {name} {kind}.")
        if not (in_zone(us, source) or in_zone(us, target)):
            return _error(
                IllegalReason.CANNOT_PROMOTE,
                "A piece promotes only on a move into, within or out of the promotion zone.",
            )
    elif MUST_PROMOTE[code][target]:
        return _error(
            IllegalReason.MUST_PROMOTE,
            f"A {name} on {target} could never move again, so it must promote.",
        )
    if piece.role is Role.KING:
        return _error(
            IllegalReason.LEAVES_KING_IN_CHECK, f"Your king would be in check on {target}."
        )
    if position.is_check():
        return _error(
            IllegalReason.LEAVES_KING_IN_CHECK,
            f"Your king is in check, and {source}-{target} does not answer it.",
        )
    return _error(
        IllegalReason.LEAVES_KING_IN_CHECK,
        f"The {name} on {source} is pinned: moving it would expose your king.",
    )
