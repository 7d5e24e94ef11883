"""Helpers shared by the notation tests."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from rules import Color, Position, Role, SfenError
from rules.sfen import parse_sfen

DATA = Path(__file__).resolve().parent.parent / "data"
RECORDS = DATA / "records"
MATSURI = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
POSITION_593 = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"


def load_vectors() -> list[dict[str, Any]]:
    with open(DATA / "notation-vectors.json", encoding="utf-8") as handle:
        vectors: list[dict[str, Any]] = json.load(handle)
    return vectors


def vector_position(sfen: str) -> Position:
    """The vector's position. A few vectors come from problems and bug reports whose
    positions our strict SFEN reader refuses (six silvers, a tsume without Black's king,
    White nifu); they are built here field by field, and a missing king is put on the
    first empty square (from 9a) that no enemy piece attacks, where it changes no move
    of the other pieces."""
    try:
        return Position.from_sfen(sfen)
    except SfenError:
        pass
    fields = parse_sfen(sfen)
    board = fields.board[:]
    missing = [color for color in Color if Role.KING + 16 * color not in board]
    position = Position()
    position.hands = fields.hands
    position.turn_index = fields.turn
    position.move_number = fields.move_number
    for color in missing:
        for square in range(81):
            if board[square]:
                continue
            board[square] = Role.KING + 16 * color
            position.board = board
            if not any(position.attackers(square, color.opponent)):
                break
            board[square] = 0
    position.board = board
    position.kings = [board.index(Role.KING), board.index(Role.KING + 16)]
    return position


def random_positions(
    seed: int, count: int, start: str | None = None, plies: int = 160
) -> list[Position]:
    """Positions met on seeded random playouts (several per playout, both colours)."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        position = Position.from_sfen(start) if start else Position.initial()
        length = rng.randrange(10, plies)
        for _ in range(length):
            moves = position.legal_moves()
            if not moves:
                break
            # Prefer captures and promotions a little, so hands and promoted pieces grow.
            board = position.board
            rich = [m for m in moves if m.promotion or (m.drop is None and board[m.to_square])]
            pool = rich if rich and rng.random() < 0.4 else moves
            position.push_unchecked(rng.choice(pool))
            if rng.random() < 0.08:
                found.append(position.copy())
        found.append(position.copy())
    return found[:count]
