"""Positions for comparing the mate solver with cshogi's `DfPn`, and cshogi's answer.

The positions are every position of every record in tests/data/records, the side to move
attacking. cshogi's search needs both kings on the board (it crashes without one), so the
records' problems, which give the attacker no king, get a sente king on the first empty
corner where it is not in check: a legal position all the same, and one that still has the
problem's mates, which real games seldom reach within a few plies.

More positions come from seeded playouts from those positions that prefer checks and
captures, which is where short mates are.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import cshogi

from rules import Move, Position, Role, SfenError
from rules.notation.files import read_record

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"

_CORNERS = (80, 72, 8, 0)
"""1i, 9i, 1a, 9a (squares in SFEN order)."""


def _with_both_kings(position: Position) -> Position | None:
    """The position, or a copy with a sente king on an empty corner; None if neither works."""
    if position.has_king(position.turn) and position.has_king(position.turn.opponent):
        return position
    if position.kings[1] < 0:
        return None  # the records' problems all give gote a king
    for corner in _CORNERS:
        if position.board[corner]:
            continue
        board = position.board[:]
        board[corner] = int(Role.KING)
        trial = position.copy()
        trial.board = board
        trial.kings = [corner, trial.kings[1]]
        try:
            return Position.from_sfen_with_warnings(trial.sfen())[0]
        except SfenError:
            continue
    return None


def record_positions() -> list[str]:
    """The SFEN of every position of every record (both kings on the board), in order."""
    found: list[str] = []
    seen: set[str] = set()
    for path in sorted(RECORDS.iterdir()):
        if path.name.endswith(".txt"):
            continue
        game = read_record(path.read_bytes()).game
        position = game.position_at(0)
        for ply in range(len(game.moves) + 1):
            kept = _with_both_kings(position)
            if kept is not None and kept.key() not in seen:
                seen.add(kept.key())
                found.append(kept.sfen())
            if ply < len(game.moves):
                position.push_unchecked(game.moves[ply])
    return found


def playout_positions(starts: list[str], count: int, seed: int = 28) -> Iterator[str]:
    """`count` positions reached from `starts` by seeded playouts that prefer checks, then
    captures (a few plies each), so that many have a short mate for the side to move."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        position = Position.from_sfen_with_warnings(rng.choice(starts))[0]
        for _ in range(rng.randint(1, 8)):
            moves = position.legal_moves()
            if not moves:
                break
            sample = rng.sample(moves, min(len(moves), 30))
            checks = [m for m in sample if position.gives_check(m)]
            captures = [m for m in sample if m.drop is None and position.board[m.to_square]]
            roll = rng.random()
            pool = checks if roll < 0.5 and checks else captures if roll < 0.8 else []
            position.push_unchecked(rng.choice(pool or moves))
            if not position.has_legal_move():
                break
            yield position.sfen()
            made += 1
            if made >= count:
                return


def cshogi_mate_length(sfen: str, max_plies: int, nodes: int = 1_000_000) -> int | None:
    """The length of the shortest mate cshogi's `DfPn` proves within `max_plies` (None: none).

    cshogi's `depth` counts plies of both sides (a depth of 3 proves a mate in 3, not one in
    5), except that its root always looks for a mate in one first; the shortest length is the
    first odd depth that proves."""
    if not cshogi.DfPn(max_plies, nodes).search(cshogi.Board(sfen)):
        return None
    for depth in range(1, max_plies + 1, 2):
        if cshogi.DfPn(depth, nodes).search(cshogi.Board(sfen)):
            return depth
    raise AssertionError(f"cshogi proves {sfen} within {max_plies} but at no shorter odd depth")


def exact_mate_length(sfen: str, max_plies: int) -> int | None:
    """The shortest forced mate within `max_plies` by plain minimax (None: none): the
    referee when the two solvers disagree. It shares only the core's legal moves with our
    solver (tested against cshogi's on their own), asks the core whether each move checks by
    playing it, and keys what it remembers by position and plies left. Exponential: only
    for the few positions where the solvers differ."""
    position = Position.from_sfen_with_warnings(sfen)[0]
    known: dict[tuple[str, int], bool] = {}

    def mates(left: int) -> bool:
        if left < 1:
            return False
        key = (position.key(), left)
        if key in known:
            return known[key]
        found = False
        for move in position.legal_moves():
            position.push_unchecked(move)
            if position.is_check():
                replies = position.legal_moves()
                found = not replies or (
                    left >= 3 and all(mated_after(reply, left) for reply in replies)
                )
            position.pop()
            if found:
                break
        known[key] = found
        return found

    def mated_after(reply: Move, left: int) -> bool:
        position.push_unchecked(reply)
        try:
            return mates(left - 2)
        finally:
            position.pop()

    for length in range(1, max_plies + 1, 2):
        if mates(length):
            return length
    return None
