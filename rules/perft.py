"""Perft: the number of leaf nodes of the legal-move tree, the standard move-generator check."""

from __future__ import annotations

from .position import Position


def perft(position: Position, depth: int) -> int:
    """Count the positions reached after exactly `depth` plies of legal moves.

    The last ply is counted without being played (bulk counting), as every
    perft implementation does; the position is left as it was.

    >>> perft(Position.initial(), 2)
    900
    """
    if depth <= 0:
        return 1
    codes = position._generate_codes()
    if depth == 1:
        return len(codes)
    total = 0
    make, unmake = position._make, position._unmake
    for code in codes:
        make(code)
        total += perft(position, depth - 1)
        unmake()
    return total
