"""Cost of hostile records against real ones, for every reader of a member's text.

For each size (16, 64 and 256 KiB) the yardstick is reading a real record of that size
(a game of up to 1,000 moves with a comment on every move, `tests/support/hostile_records`)
in the reader's own format (KIF for the readers of no format of their own: USI, SFEN,
the paste splitter and the move reader, which a member reaches with the same text).
Every hostile shape of that size is read once by every reader; the slowest three of
each are timed again (median of 5) and the worst is printed with its ratio to the
yardstick. Target: no hostile text costs more than 5x a real record of its size.

    python bench/bench_hostile_readers.py
"""

from __future__ import annotations

import contextlib
import functools
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import ratio, report, run_times  # noqa: E402
from rules import Position  # noqa: E402
from rules.notation import (  # noqa: E402
    parse_move,
    read_csa,
    read_ki2,
    read_kif,
    read_record,
    read_usi,
    unfold,
)
from tests.support.hostile_records import legitimate, shapes  # noqa: E402

SIZES = (16 * 1024, 64 * 1024, 256 * 1024)
TARGET = 5.0
START = Position.initial()
#: Each reader, and the format of the real record it is measured against.
READERS: dict[str, tuple[Callable[[str], object], str]] = {
    "read_record": (read_record, "kif"),
    "read_kif": (read_kif, "kif"),
    "read_ki2": (read_ki2, "ki2"),
    "read_csa": (read_csa, "csa"),
    "read_usi": (read_usi, "kif"),
    "sfen": (Position.from_sfen, "kif"),
    "unfold": (unfold, "kif"),
    "parse_move": (lambda text: parse_move(START, text), "kif"),
}
REFERENCE = {"kif": read_kif, "ki2": read_ki2, "csa": read_csa}


def attempt(reader: Callable[[str], object], text: str) -> None:
    """Read `text`, a refusal being as good an answer as a record."""
    with contextlib.suppress(ValueError):
        reader(text)


def timed(reader: Callable[[str], object], text: str, runs: int) -> list[float]:
    return run_times(lambda: attempt(reader, text), runs=runs)


def once(reader: Callable[[str], object], text: str) -> float:
    started = time.perf_counter()
    attempt(reader, text)
    return time.perf_counter() - started


def main() -> None:
    worst_ratio = 0.0
    for size in SIZES:
        hostile = shapes(size)
        print(f"--- {size // 1024} KiB: {len(hostile)} hostile shapes")
        references = {
            format: report(
                f"real {format} record (yardstick)",
                run_times(functools.partial(read, legitimate(size, format)), runs=5),
            )
            for format, read in REFERENCE.items()
        }
        for name, (reader, format) in READERS.items():
            first = {shape: once(reader, text) for shape, text in hostile.items()}
            slowest = sorted(first, key=first.__getitem__, reverse=True)[:3]
            samples = {shape: timed(reader, hostile[shape], runs=5) for shape in slowest}
            shape = max(samples, key=lambda s: sorted(samples[s])[2])
            reference = references[format]
            measured = report(f"{name}: {shape}"[:48], samples[shape])
            worst_ratio = max(worst_ratio, ratio(f"{name} / real {format}", measured, reference))
    verdict = "within" if worst_ratio <= TARGET else "OVER"
    print(f"worst ratio {worst_ratio:.2f}x: {verdict} the {TARGET:.0f}x target")


if __name__ == "__main__":
    main()
