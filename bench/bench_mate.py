"""The mate solver's time per position against cshogi's DfPn, on the same positions.

    python bench/bench_mate.py                 # records + 300 playouts, mates up to 7 plies
    python bench/bench_mate.py --plies 11 --playouts 1000

The positions are those of the differential test (tests/support/mate_positions.py): every
position of the records in tests/data/records and positions reached from them by seeded
check-seeking playouts, the side to move attacking. Both sides answer the same question:
the verdict under the limit and, when proven, the shortest mate's length (ours also reads
the principal line and whether the first move is unique; cshogi's length comes from
searching again under 1, 3, 5... plies, as in the test). Printed: median, p95 and largest
time per position of each, the ratio of the medians and of the totals, how often the
verdicts agree, and how many positions our node budget left unknown. Where they differ, a
plain minimax search (tests/support/mate_positions.py) says who is right: cshogi's DfPn
sometimes proves a mate longer than its depth.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import report
from rules import Position
from rules.mate import Verdict, solve
from tests.support.mate_positions import (
    cshogi_mate_length,
    exact_mate_length,
    playout_positions,
    record_positions,
)

NODES = 50_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plies", type=int, default=7, help="length limit (default 7)")
    parser.add_argument("--playouts", type=int, default=300, help="playout positions added")
    arguments = parser.parse_args()
    starts = record_positions()
    sfens = starts + list(playout_positions(starts, arguments.playouts))
    ours: list[float] = []
    theirs: list[float] = []
    agree = proven = unknown = 0
    overran: list[str] = []
    disagreements: list[str] = []
    for sfen in sfens:
        position = Position.from_sfen_with_warnings(sfen)[0]
        started = time.perf_counter()
        result = solve(position, arguments.plies, nodes=NODES)
        ours.append(time.perf_counter() - started)
        started = time.perf_counter()
        length = cshogi_mate_length(sfen, arguments.plies)
        theirs.append(time.perf_counter() - started)
        if result.verdict is Verdict.UNKNOWN or (
            result.verdict is Verdict.PROVEN and result.plies is None
        ):
            unknown += 1  # no verdict, or no length: the budget ran out
        elif result.plies == length:
            agree += 1
            proven += length is not None
        else:
            exact = exact_mate_length(sfen, arguments.plies)
            where = f"{sfen}: ours {result.plies}, cshogi {length}, minimax {exact}"
            (overran if exact == result.plies else disagreements).append(where)
    print(
        f"{len(sfens)} positions ({len(starts)} from the records), "
        f"mates up to {arguments.plies} plies, our budget {NODES:,} nodes"
    )
    ours_median = report("ours (rules.mate.solve)", ours, tail=0.95)
    theirs_median = report("cshogi DfPn", theirs, tail=0.95)
    print(f"{'':<36} ours / cshogi: median {ours_median / theirs_median:.1f}x", end="")
    print(f", total {sum(ours) / sum(theirs):.1f}x")
    print(
        f"verdicts and lengths agree on {agree} of {len(sfens) - unknown} decided positions "
        f"({proven} mates); {unknown} left unknown by our budget"
    )
    for line in overran:
        print("cshogi past its depth (minimax agrees with ours):", line)
    for line in disagreements:
        print("DISAGREE", line)


if __name__ == "__main__":
    main()
