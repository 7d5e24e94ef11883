"""What the longest hostile option costs to refuse, against an ordinary one.

Times `TimeControl.parse` on the longest texts Discord lets into the `time` option (6,000
characters: digits without a unit, points between digits, kanji, thousands of parts) and
on `7d+1d`, `stored_number` on a 5,000-digit button id against a short one, and
`read_position` (what `/board position` and `/challenge start` read, in a worker thread that
still holds the interpreter while a regular expression runs) on 6,000 characters that are
no record against the initial SFEN. Each line
is a median; the ratios say how many ordinary inputs one hostile input costs. Target: each
refused in a few milliseconds at most, growing linearly with its length, so that none holds
the event loop (a quadratic scan of the digits took seconds).

    python bench/bench_bad_input.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import ratio, report, run_times  # noqa: E402
from bot.services import BadTimeControl, ServiceError, TimeControl, read_position  # noqa: E402
from bot.ui.errors import stored_number  # noqa: E402

LONGEST_OPTION = 6_000
HOSTILE_TIMES = {
    "digits, no unit": "1" * LONGEST_OPTION,
    "digit and point": "1." * (LONGEST_OPTION // 2),
    "kanji tens": "十" * LONGEST_OPTION,
    "1,200 parts": "9999w" * (LONGEST_OPTION // 5),
    "20-digit number": "99999999999999999999d",
}


def parse(text: str) -> Callable[[], object]:
    def action() -> object:
        try:
            return TimeControl.parse(text)
        except BadTimeControl as refusal:
            return refusal

    return action


INITIAL_SFEN = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
HOSTILE_POSITIONS = {
    "6,000 digits": "9" * LONGEST_OPTION,
    "6,000 letters": "x" * LONGEST_OPTION,
    "3,000 zero-width pairs": "\u200b\ufeff" * (LONGEST_OPTION // 2),
}


def read(text: str) -> Callable[[], object]:
    def action() -> object:
        try:
            return read_position(text, None)
        except ServiceError as refusal:
            return refusal

    return action


def main() -> None:
    reference = report("parse 7d+1d", run_times(parse("7d+1d"), 21, 200))
    for name, text in HOSTILE_TIMES.items():
        measured = report(f"parse {name}", run_times(parse(text), 21, 20))
        ratio(f"{name} / 7d+1d", measured, reference)
    short = report("button id 12", run_times(lambda: stored_number("12"), 21, 2_000))
    huge = "1" + "0" * 5_000
    long = report("button id 10^5000", run_times(lambda: stored_number(huge), 21, 2_000))
    ratio("10^5000 / 12", long, short)
    sfen = report("read the initial SFEN", run_times(read(INITIAL_SFEN), 21, 20))
    for name, text in HOSTILE_POSITIONS.items():
        measured = report(f"read {name}", run_times(read(text), 11))
        ratio(f"{name} / SFEN", measured, sfen)


if __name__ == "__main__":
    main()
