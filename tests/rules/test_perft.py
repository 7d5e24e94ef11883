"""Perft against tests/data/perft.json (counts from an independent rules library).

Depths 1-3 run for every position. Depth 4 is marked ``slow`` but still runs by default,
except for the entries above ``DEPTH4_LIMIT`` nodes: our perft does roughly 1-10 million
nodes a second depending on the position, so the 8M-, 116M- and 517M-node entries would take
from seconds to many minutes. Those run only with ``--perft-full``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import Position, perft

DATA = json.loads((Path(__file__).parent.parent / "data" / "perft.json").read_text("utf-8"))
POSITIONS: list[dict[str, Any]] = DATA["positions"]
DEPTH4_LIMIT = 2_000_000


def _cases(depths: range) -> list[Any]:
    return [
        pytest.param(
            entry["sfen"],
            depth,
            entry["perft"][str(depth)],
            id=f"{entry['name']}-d{depth}",
            # Depth 3 of the 593-move position is 53M nodes (a few seconds): still run, but slow.
            marks=[pytest.mark.slow] if entry["perft"][str(depth)] > DEPTH4_LIMIT else [],
        )
        for entry in POSITIONS
        for depth in depths
        if str(depth) in entry["perft"]
    ]


def test_data_is_complete() -> None:
    """Every position carries depths 1-3, and the file covers the categories the spec names."""
    assert len(POSITIONS) >= 19
    for entry in POSITIONS:
        assert {"1", "2", "3"} <= set(entry["perft"]), entry["name"]
    categories = {entry["category"] for entry in POSITIONS}
    assert {"anchor", "handicap", "uchifuzume", "nifu", "pins", "checks", "promotion"} <= categories


@pytest.mark.parametrize(("sfen", "depth", "expected"), _cases(range(1, 4)))
def test_perft_depth_1_to_3(sfen: str, depth: int, expected: int) -> None:
    position = Position.from_sfen(sfen)
    assert perft(position, depth) == expected
    assert position.sfen() == Position.from_sfen(sfen).sfen(), (
        "perft must leave the position as it was"
    )


@pytest.mark.slow
@pytest.mark.parametrize(("sfen", "depth", "expected"), _cases(range(4, 5)))
def test_perft_depth_4_up_to_2m_nodes(
    sfen: str, depth: int, expected: int, perft_full: bool
) -> None:
    """Depth 4; entries above 2,000,000 nodes (minutes at our speed) only with --perft-full."""
    if expected > DEPTH4_LIMIT and not perft_full:
        pytest.skip(f"{expected:,} nodes is above {DEPTH4_LIMIT:,}; run with --perft-full")
    assert perft(Position.from_sfen(sfen), depth) == expected


def test_legal_move_count_matches_perft_1() -> None:
    """legal_moves() and perft(1) agree, and every listed move is legal and distinct."""
    for entry in POSITIONS:
        position = Position.from_sfen(entry["sfen"])
        moves = position.legal_moves()
        assert len(moves) == entry["perft"]["1"], entry["name"]
        assert len(set(moves)) == len(moves), entry["name"]
        assert all(position.is_legal(move) for move in moves), entry["name"]
