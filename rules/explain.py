"""Why a move is illegal: the reason code and a sentence a player can act on.

Kept apart from the generator: the generator only ever produces legal moves,
and this module runs only when someone asked for a move that is not among them,
so it can afford to be plain and thorough rather than fast.
"""

from __future__ import annotations

from typing import Protocol

from .errors import IllegalMoveError, IllegalReason, Sentence
from .moves import Move
from .tables import BETWEEN, MUST_PROMOTE, SLIDE_RAYS, STEP_TARGETS, is_dead_square
from .types import PIECES, Role, Square, in_zone


class ExplainedPosition(Protocol):
    """What explaining reads of a position (`rules.position.Position` is one)."""

    board: list[int]
    hands: list[list[int]]
    kings: list[int]
    turn_index: int

    def checkers(self) -> list[Square]: ...
    def is_check(self) -> bool: ...


def explain_illegal(position: ExplainedPosition, move: Move) -> IllegalMoveError:
    """The error for a move that `position.is_legal(move)` rejected."""
    if move.drop is not None:
        return _explain_drop(position, move)
    return _explain_board_move(position, move)


def _explain_drop(position: ExplainedPosition, move: Move) -> IllegalMoveError:
    us = position.turn_index
    role = move.drop
    assert role is not None
    target = move.to_square
    if not position.hands[us][role]:
        return IllegalMoveError(
            IllegalReason.NOT_IN_HAND, Sentence("You have no {piece} in hand.", piece=role)
        )
    if position.board[target]:
        return IllegalMoveError(
            IllegalReason.OCCUPIED,
            Sentence("You can only drop on an empty square; {square} is taken.", square=target),
        )
    if is_dead_square(us, role, target):
        return IllegalMoveError(
            IllegalReason.DEAD_DROP,
            Sentence(
                "A {piece} dropped on {square} could never move, so it may not be dropped there.",
                piece=role,
                square=target,
            ),
        )
    if role is Role.PAWN:
        own_pawn = Role.PAWN + 16 * us
        file_squares = range(target % 9, 81, 9)
        if any(position.board[sq] == own_pawn for sq in file_squares):
            return IllegalMoveError(
                IllegalReason.NIFU,
                Sentence(
                    "You already have an unpromoted pawn on file {file} (nifu).",
                    file=target.file,
                ),
            )
    checkers = position.checkers()
    if len(checkers) > 1:
        return IllegalMoveError(
            IllegalReason.DOUBLE_CHECK,
            Sentence("Your king is in double check: only a king move helps."),
        )
    blocks = not checkers or target in BETWEEN[position.kings[us]][checkers[0]]
    if role is Role.PAWN and blocks:
        return IllegalMoveError(
            IllegalReason.UCHIFUZUME, Sentence("A pawn drop may not give checkmate (uchifuzume).")
        )
    return IllegalMoveError(
        IllegalReason.LEAVES_KING_IN_CHECK,
        Sentence("Your king is in check and a drop on {square} does not block it.", square=target),
    )


def _explain_board_move(position: ExplainedPosition, move: Move) -> IllegalMoveError:
    us = position.turn_index
    source = move.from_square
    assert source is not None
    target = move.to_square
    piece = PIECES[position.board[source]]
    if piece is None:
        return IllegalMoveError(
            IllegalReason.NO_PIECE, Sentence("There is no piece on {square}.", square=source)
        )
    role = piece.role
    if piece.color != us:
        return IllegalMoveError(
            IllegalReason.NOT_OWN_PIECE,
            Sentence("The {piece} on {square} is not yours.", piece=role, square=source),
        )
    occupant = PIECES[position.board[target]]
    if occupant is not None and occupant.color == us:
        return IllegalMoveError(
            IllegalReason.CAPTURES_OWN_PIECE,
            Sentence("{square} holds your own {piece}.", square=target, piece=occupant.role),
        )
    code = position.board[source]
    if target not in STEP_TARGETS[code][source]:
        ray = next((r for r in SLIDE_RAYS[code][source] if target in r), None)
        if ray is None:
            return IllegalMoveError(
                IllegalReason.CANNOT_MOVE_THERE,
                Sentence(
                    "A {piece} on {origin} cannot move to {target}.",
                    piece=role,
                    origin=source,
                    target=target,
                ),
            )
        if any(position.board[sq] for sq in BETWEEN[source][target]):
            return IllegalMoveError(
                IllegalReason.BLOCKED,
                Sentence(
                    "The {piece} on {origin} is blocked on its way to {target}.",
                    piece=role,
                    origin=source,
                    target=target,
                ),
            )
    if move.promotion:
        if role.is_promoted:
            return IllegalMoveError(
                IllegalReason.CANNOT_PROMOTE, Sentence("A {piece} is already promoted.", piece=role)
            )
        if not role.can_promote:
            return IllegalMoveError(
                IllegalReason.CANNOT_PROMOTE, Sentence("A {piece} never promotes.", piece=role)
            )
        if not (in_zone(us, source) or in_zone(us, target)):
            return IllegalMoveError(
                IllegalReason.CANNOT_PROMOTE,
                Sentence(
                    "A piece promotes only on a move into, within or out of the promotion zone."
                ),
            )
    elif MUST_PROMOTE[code][target]:
        return IllegalMoveError(
            IllegalReason.MUST_PROMOTE,
            Sentence(
                "A {piece} on {square} could never move again, so it must promote.",
                piece=role,
                square=target,
            ),
        )
    if role is Role.KING:
        why = Sentence("Your king would be in check on {square}.", square=target)
    elif position.is_check():
        why = Sentence(
            "Your king is in check, and {origin}-{target} does not answer it.",
            origin=source,
            target=target,
        )
    else:
        why = Sentence(
            "The {piece} on {square} is pinned: moving it would expose your king.",
            piece=role,
            square=source,
        )
    return IllegalMoveError(IllegalReason.LEAVES_KING_IN_CHECK, why)
