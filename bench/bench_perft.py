"""Perft and move-generation speed of the rules core against python-shogi, in one run.

    python bench/bench_perft.py            # from the repository root

Both sides count the same way: the tree is walked with make/unmake and the last ply is
counted without being played (bulk counting; python-shogi: ``len(list(board.legal_moves))``).
Each figure is the median of 5 runs; the reference is measured in the same run, on the same
machine, so the ratio is what matters. Target (issue 2): at least 10x python-shogi.
"""

from __future__ import annotations

import sys
from functools import partial
from importlib.metadata import version
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import shogi  # python-shogi, from the test extra

from bench.timing import median_time
from rules import Move, Position, perft

RUNS = 5
PERFT_CASES = [
    ("startpos", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", 3, 25470),
    (
        "matsuri",
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
        2,
        28684,
    ),
]
MOVEGEN_CASES = [
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1", 207),
    ("593 moves", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1", 593),
]


def shogi_perft(board: shogi.Board, depth: int) -> int:
    """python-shogi perft with the same bulk counting at the last ply."""
    if depth == 1:
        return len(list(board.legal_moves))
    total = 0
    for move in list(board.legal_moves):
        board.push(move)
        total += shogi_perft(board, depth - 1)
        board.pop()
    return total


def _shogi_moves(board: shogi.Board) -> list[object]:
    return list(board.legal_moves)


def main() -> None:
    print(
        f"Python {sys.version.split()[0]}, python-shogi {version('python-shogi')}, median of {RUNS}"
    )
    print()
    print(f"{'perft':<20}{'nodes':>10}{'ours n/s':>14}{'python-shogi n/s':>20}{'ratio':>9}")
    ratios = []
    for name, sfen, depth, expected in PERFT_CASES:
        position = Position.from_sfen(sfen)
        board = shogi.Board(sfen)
        ours = perft(position, depth)
        theirs = shogi_perft(board, depth)
        if ours != expected or theirs != expected:
            raise SystemExit(
                f"{name}: perft({depth}) ours {ours}, python-shogi {theirs}, expected {expected}"
            )
        ours_time = median_time(partial(perft, position, depth), RUNS)
        theirs_time = median_time(partial(shogi_perft, board, depth), RUNS)
        ratio = theirs_time / ours_time
        ratios.append(ratio)
        label = f"{name} d{depth}"
        print(
            f"{label:<20}{expected:>10,}{expected / ours_time:>14,.0f}"
            f"{expected / theirs_time:>20,.0f}{ratio:>8.1f}x"
        )
    print()
    print(f"{'legal_moves()':<20}{'moves':>10}{'ours':>14}{'python-shogi':>20}{'ratio':>9}")
    for name, sfen, count in MOVEGEN_CASES:
        position = Position.from_sfen(sfen)
        board = shogi.Board(sfen)
        assert len(position.legal_moves()) == count == len(list(board.legal_moves))

        def generate(position: Position = position) -> list[Move]:
            position._legal = None  # a position keeps its moves; measure generating them
            return position.legal_moves()

        ours_time = median_time(generate, RUNS, number=200)
        theirs_time = median_time(partial(_shogi_moves, board), RUNS, number=5)
        ratio = theirs_time / ours_time
        print(
            f"{name:<20}{count:>10}{ours_time * 1e6:>11,.0f} us"
            f"{theirs_time * 1e6:>17,.0f} us{ratio:>8.1f}x"
        )
    print()
    worst = min(ratios)
    verdict = "meets" if worst >= 10 else "MISSES"
    print(f"perft speed-up over python-shogi: {worst:.1f}x at worst ({verdict} the 10x target)")


if __name__ == "__main__":
    main()
