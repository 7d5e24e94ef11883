"""A game as it stood at an earlier ply, for `/replay`: the board then and the moves around it.

Only what the game's thread has already shown is ever drawn: every ply up to the game's
current one (an active game's too, so that an onlooker can study how it came about), and
nothing past it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from rules import Game

from ..play.game import (
    GameSnapshot,
    MoveText,
)
from ..play.snapshots import moves_written


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """A game shown at one ply for `/replay`: `board` is the game as it stood after `ply`
    moves (its result only at the last ply), `last` the number of moves in the whole game,
    and `moves` the moves around `ply`, from ply `first` (1 for the game's first). All
    are plies; `board.numbering` turns them into the move numbers players read."""

    board: GameSnapshot
    ply: int
    last: int
    first: int
    moves: tuple[MoveText, ...]


#: How many moves before and after the current one the replay lists.
MOVES_AROUND = 3


def step_at(game: GameSnapshot, ply: int) -> ReplayStep:
    """`game` after its first `ply` moves (kept between the start and its last move).

    Example: `step_at(game, 0).board` is the start position, with no last move.
    """
    played = game.game.moves
    last = len(played)
    ply = max(0, min(ply, last))
    first = max(1, min(ply - MOVES_AROUND, last - 2 * MOVES_AROUND))
    end = min(last, max(ply + MOVES_AROUND, 2 * MOVES_AROUND + 1))
    return ReplayStep(
        board=_board_at(game, ply),
        ply=ply,
        last=last,
        first=first,
        moves=moves_written(game.game, first - 1, end),
    )


def _board_at(game: GameSnapshot, ply: int) -> GameSnapshot:
    """The snapshot drawn for `ply`: the position then, its last move, and the result only
    when it is the game's last ply."""
    if ply == len(game.game.moves):
        return game
    earlier = Game(game.game.start, game.game.moves[:ply])
    last_text = moves_written(game.game, ply - 1, ply)[0] if ply else None
    return replace(
        game,
        game=earlier,
        outcome=None,
        to_move=None,
        deadline=None,
        last_move=earlier.moves[-1] if ply else None,
        last_move_text=last_text,
        ply=ply,
        pending_count_proposal=None,
    )
