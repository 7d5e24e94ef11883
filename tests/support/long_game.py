"""A legal game of any length that has not ended, for the tests and benchmarks of long games.

Random legal moves end a game soon (a mate, or a repetition); so every move here is drawn
from the legal moves that capture nothing, give no check and reach no position seen
three times before, with a seeded generator: the same seed gives the same game, and the
game is checked to be still going at the end.
"""

from __future__ import annotations

import random
from collections import Counter

from rules import Game, Move, Position


def long_game(plies: int, seed: int = 1) -> list[Move]:
    """`plies` legal moves from the initial position, after which the game goes on.

    >>> len(long_game(10))
    10
    """
    rng = random.Random(seed)
    position = Position.initial()
    seen: Counter[str] = Counter({_key(position): 1})
    moves: list[Move] = []
    while len(moves) < plies:
        candidates = position.legal_moves()
        rng.shuffle(candidates)
        for move in candidates:
            if position.board[move.to_square]:
                continue  # a capture
            after = position.copy()
            after.push(move)
            if after.is_check() or seen[_key(after)] >= 3 or not after.legal_moves():
                continue
            break
        else:
            raise AssertionError(f"seed {seed}: no quiet move after {len(moves)} moves")
        position.push(move)
        seen[_key(position)] += 1
        moves.append(move)
    if Game.replay(None, moves).outcome is not None:
        raise AssertionError(f"seed {seed}: the game ended")
    return moves


def _key(position: Position) -> str:
    return position.sfen().rsplit(" ", 1)[0]  # the position without its move number
