"""Speed of reading a position for `/board` and `/challenge` from a pasted record or a file.

Prints the median time of `read_position` on the longest record of tests/data/records, as
a file's bytes (Shift_JIS), as text at its middle ply, and as a one-line paste (the form
Discord's text box sends), against cshogi's KIF reader on the same text measured in the
same run (a C++ reader: the floor for reading a record in Python); then the same for the
longest CSA record, whose one-line paste is split by `unfold` first, against reading its
text as it is (cshogi's C++ CSA reader shown alongside). Also what a 1,000-move KIF
would weigh at that record's bytes per move, against the file limit.

    python bench/bench_positions.py
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import cshogi.CSA  # noqa: E402
import cshogi.KIF  # noqa: E402

from bench.timing import median_time  # noqa: E402
from bot.services import MAX_RECORD_BYTES, read_position  # noqa: E402
from rules.notation import read_record, unfold  # noqa: E402

RECORDS = ROOT / "tests" / "data" / "records"


def median_ms(action: Callable[[], object]) -> float:
    """The median of 15 runs, in milliseconds."""
    return median_time(action, runs=15) * 1e3


def main() -> None:
    path = max((p for p in RECORDS.glob("*.kifu")), key=lambda p: p.stat().st_size)
    text = path.read_text(encoding="utf-8")
    data = text.encode("cp932")
    plies = len(read_record(text).game.moves)
    one_line = text.replace("\n", " ")
    reference = median_ms(lambda: cshogi.KIF.Parser.parse_str(text))
    print(f"{path.name}: {plies} moves, {len(data) / 1024:.1f} KiB in Shift_JIS")
    print(f"{'reading':<34} {'median':>10} {'vs cshogi':>10}")
    for name, action in (
        ("cshogi KIF reader (reference)", lambda: cshogi.KIF.Parser.parse_str(text)),
        ("read_position, file bytes", lambda: read_position(data)),
        ("read_position, text at mid ply", lambda: read_position(text, plies // 2)),
        ("read_position, one-line paste", lambda: read_position(one_line)),
    ):
        took = median_ms(action)
        print(f"{name:<34} {took:>7.2f} ms {took / reference:>9.1f}x")
    csa_path = max((p for p in RECORDS.glob("*.csa")), key=lambda p: p.stat().st_size)
    csa = csa_path.read_text(encoding="utf-8")
    csa_line = csa.replace("\n", " ")
    csa_reference = median_ms(lambda: read_position(csa))
    print(f"{csa_path.name}: {len(read_record(csa).game.moves)} moves")
    print(f"{'reading':<34} {'median':>10} {'vs text':>10}")
    for name, action in (
        ("read_position, text (reference)", lambda: read_position(csa)),
        ("unfold alone, one-line paste", lambda: unfold(csa_line)),
        ("read_position, one-line paste", lambda: read_position(csa_line)),
        ("cshogi CSA reader", lambda: cshogi.CSA.Parser.parse_str(csa)),
    ):
        took = median_ms(action)
        print(f"{name:<34} {took:>7.2f} ms {took / csa_reference:>9.2f}x")
    thousand = len(data) / plies * 1000 / 1024
    limit = MAX_RECORD_BYTES // 1024
    print(f"1,000 moves at this rate: {thousand:.0f} KiB; file limit {limit} KiB")


if __name__ == "__main__":
    main()
