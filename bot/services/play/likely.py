"""The legal moves in the order a player most likely wants them.

`/move` suggests moves before anything is typed, and Discord shows at most 25: in
generation order those were mostly king shuffles. A player usually wants to take
back what was just taken, to give check, to capture, to go on with the piece they
moved last, or to develop; king moves come last. Computed once per position (the
legal-move cache keeps the order), so typing costs nothing more.
"""

from __future__ import annotations

from collections.abc import Sequence

from rules import Move, Position, Role

#: Among ordinary moves, the pieces a player develops first.
_DEVELOPING = {
    role: rank
    for rank, role in enumerate(
        (Role.PAWN, Role.SILVER, Role.GOLD, Role.BISHOP, Role.ROOK, Role.KNIGHT, Role.LANCE)
    )
}
_OTHERS = len(_DEVELOPING)


def likely_order(
    position: Position, moves: Sequence[Move], last_move: Move | None, own_last: Move | None
) -> list[Move]:
    """`moves` (legal in `position`) reordered: recaptures on the square of the opponent's
    `last_move`, checks, other captures, moves of the piece the player moved last
    (`own_last`), ordinary moves by piece (pawns and silvers first), drops, king moves.
    Promotions come before the same move unpromoted; the order is otherwise kept."""

    def rank(move: Move) -> tuple[int, int, bool]:
        taken = position.piece_at(move.to_square) if move.drop is None else None
        piece = None if move.from_square is None else position.piece_at(move.from_square)
        role = move.drop if piece is None else piece.role
        if piece is not None and piece.role is Role.KING:
            group = 6
        elif taken is not None and last_move is not None and move.to_square == last_move.to_square:
            group = 0
        elif position.gives_check(move):
            group = 1
        elif taken is not None:
            group = 2
        elif own_last is not None and move.from_square == own_last.to_square:
            group = 3
        elif move.drop is not None:
            group = 5
        else:
            group = 4
        return (
            group,
            _DEVELOPING.get(role, _OTHERS) if role is not None else _OTHERS,
            not move.promotion,
        )

    return sorted(moves, key=rank)
