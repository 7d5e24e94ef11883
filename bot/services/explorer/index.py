"""What the explorer indexes of a finished game: each move, keyed by the position it was
played from, with the result for the side that played it. Pure: no database, no Discord.

A position is keyed by its board, both hands and the side to move (`Position.key`, what
sennichite compares), not its move number, so two games that reach one position by
different orders meet there, and a handicap or set-up game is found from its own start.
The key is stored as a 64-bit hash: a lookup compares one integer, and two different
positions share a hash with odds of about one in 10^19 for each pair.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from bot.db import ExplorerMoveRow
from rules import Color, Move, Position

#: Endings that are no game: an abort has no result and (before both players moved)
#: nothing to learn from.
UNCOUNTED = frozenset({"abort"})


def position_hash(position: Position) -> int:
    """The explorer's key of `position`: a signed 64-bit integer (what both databases
    store in an INTEGER / BIGINT), the same for every move number.

    Example: `position_hash(Position.initial()) == position_hash(Position.from_sfen(
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 30"))`.
    """
    digest = hashlib.blake2b(position.key().encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)


def result_for(winner: str | None, mover: Color) -> int:
    """1 if the side that moved (`mover`) won the game, -1 if it lost, 0 for a draw."""
    if winner is None:
        return 0
    return 1 if winner == mover.name.lower() else -1


def indexed_moves(
    game_id: int,
    start_sfen: str,
    moves: Sequence[str],
    *,
    winner: str | None,
    termination: str | None,
) -> list[ExplorerMoveRow]:
    """The rows of a finished game: one per move, from the position before it. The moves
    were checked when they were played, so they are replayed without checking again.
    An aborted game gives none.

    Example: `indexed_moves(1, Position.initial().sfen(), ["7g7f"], winner="sente",
    termination="resign")[0].result == 1`.
    """
    if termination in UNCOUNTED:
        return []
    position = Position.from_sfen_with_warnings(start_sfen)[0]
    rows = []
    for ply, usi in enumerate(moves):
        rows.append(
            ExplorerMoveRow(
                position=position_hash(position),
                move=usi,
                game_id=game_id,
                ply=ply,
                result=result_for(winner, position.turn),
            )
        )
        position.push_unchecked(Move.from_usi(usi))
    return rows
