"""Speed of move notation and records.

Prints the median time of `parse_move` and of `format_move` in every style, over every
legal move of the matsuri position, and the time to read and write the longest record
of tests/data/records in each format. Target: parse or format under 300 microseconds.

    python bench/bench_notation.py
"""

from __future__ import annotations

import statistics
import sys
from collections.abc import Callable
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import run_times  # noqa: E402
from rules import Position  # noqa: E402
from rules.notation import (  # noqa: E402
    Style,
    format_move,
    parse_move,
    read_record,
    write_record,
)

MATSURI = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
RECORDS = ROOT / "tests" / "data" / "records"


def per_call(action: Callable[[], object], repeat: int = 5, number: int = 20) -> float:
    """The best of `repeat` runs of `number` calls, per call, in microseconds."""
    return min(run_times(action, repeat, number)) * 1e6


def moves_bench() -> None:
    position = Position.from_sfen(MATSURI)
    moves = position.legal_moves()
    print(f"matsuri position: {len(moves)} legal moves, medians over all of them")
    print(f"{'style':<10} {'format_move':>14} {'parse_move':>14}")
    for style in Style:
        texts = [format_move(position, move, style) for move in moves]
        writes = [per_call(partial(format_move, position, move, style)) for move in moves]
        reads = [per_call(partial(parse_move, position, text)) for text in texts]
        write, read = statistics.median(writes), statistics.median(reads)
        print(f"{style.value:<10} {write:>11.1f} us {read:>11.1f} us")


def records_bench() -> None:
    paths = [p for p in RECORDS.iterdir() if p.suffix != ".txt"]
    longest = max(paths, key=lambda p: len(read_record(p.read_bytes()).game.moves))
    data = longest.read_bytes()
    record = read_record(data)
    print(f"\nlongest record: {longest.name}, {len(record.game.moves)} moves")
    print(f"{'format':<10} {'read':>12} {'write':>12}")
    for name in ("kif", "ki2", "csa", "usi"):
        text = write_record(record, name)
        read = per_call(partial(read_record, text), repeat=5, number=3)
        write = per_call(partial(write_record, record, name), repeat=5, number=3)
        print(f"{name:<10} {read / 1000:>9.2f} ms {write / 1000:>9.2f} ms")
    original = per_call(partial(read_record, data), repeat=5, number=3)
    print(f"{'(file)':<10} {original / 1000:>9.2f} ms   (the file as stored, bytes)")


if __name__ == "__main__":
    moves_bench()
    records_bench()
