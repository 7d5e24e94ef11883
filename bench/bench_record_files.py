"""Speed of writing record files: a Shift_JIS `.kif` against the same record in UTF-8.

Writes the longest record of tests/data/records as `.kif` (Shift_JIS) and `.kifu` (UTF-8),
plain and with the most a member can put into a private export: fifty notes of a thousand
emoji each (every character of them goes through `charsets` one by one, as a name with an
emoji does). Prints medians and the ratio against the UTF-8 file in the same run. The
Shift_JIS file is written on the event loop with the rest of `/export`: target, the hostile
one under 50 ms, a real record (an emoji in a name) under 5 ms.

    python bench/bench_record_files.py
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import ratio, report, run_times  # noqa: E402
from rules.notation import read_record, write_record_file  # noqa: E402

RECORDS = ROOT / "tests" / "data" / "records"
NOTES, NOTE_LENGTH = 50, 1000  # a member's most notes on one game, each at its longest


def main() -> None:
    paths = [p for p in RECORDS.iterdir() if p.suffix != ".txt"]
    record = max((read_record(p.read_bytes()) for p in paths), key=lambda r: len(r.game.moves))
    plies = len(record.game.moves)
    hostile = {ply * plies // NOTES: ["🌸\u200d" * (NOTE_LENGTH // 2)] for ply in range(NOTES)}
    print(f"longest record: {plies} moves; hostile: {NOTES} notes of {NOTE_LENGTH} characters")
    medians = {}
    for label, kind, comments in (
        ("kifu (UTF-8)", "kifu", None),
        ("kif (Shift_JIS)", "kif", None),
        ("kifu, hostile notes", "kifu", hostile),
        ("kif, hostile notes", "kif", hostile),
    ):
        write = partial(write_record_file, record, kind, sente="はなこ🌸", comments=comments)
        medians[label] = report(label, run_times(write, 15, 3))
    ratio("Shift_JIS / UTF-8", medians["kif (Shift_JIS)"], medians["kifu (UTF-8)"])
    ratio(
        "hostile Shift_JIS / UTF-8", medians["kif, hostile notes"], medians["kifu, hostile notes"]
    )


if __name__ == "__main__":
    main()
