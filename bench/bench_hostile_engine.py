"""Benchmark of a hostile engine and of fair engine scheduling.

    python bench/bench_hostile_engine.py [--runs 5] [--queue 8] [--engine PATH]

* a hung engine to a free job: a fake engine that never answers (alone, and behind a
  wrapper script whose child holds the pipes open), searched through a pool of one job;
  the figure is the time from the search's deadline (its time and grace) to the moment
  the search has failed and its job is free; the reference, measured in the same run, is
  a search the same fake engine answers at once (the pool's own cost of a search);
* a computer's move with the real engine (level 1: 100 ms, skill -20) on a pool of one
  job, alone, and while another member has `--queue` analysis searches (300 ms each)
  waiting; the ratio is what the queue costs the member waiting for the computer; then the
  same move asked as another member's analysis (members in turn only), and first come,
  first served (as if it were the analysing member's own search: the old order). `--engine`
  is the real engine (`/usr/games/fairy-stockfish` by default).

It prints the median and 95th percentile of each, and the ratios.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import shutil
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import lap, ratio, report
from bot.engine import EngineError, EnginePool, SearchKind, usi
from bot.services import LEVELS
from bot.services.computer.analysis import ANALYSIS_MS, ANALYSIS_SKILL
from tests.support.engines import fake_engine, wrapper_engine

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: The grace a hung search gets here (the bot's is longer; what follows it is measured).
GRACE = 0.2
MOVETIME_MS = 10
MEMBER, OTHER = 1, 2


async def hung_to_free(program: str, plan: Path, runs: int) -> list[float]:
    """From each hung search's deadline to its failure, its job free again."""
    pool = EnginePool(program)
    samples: list[float] = []
    try:
        await pool.search(START, movetime_ms=MOVETIME_MS)  # started: a hang is a search's
        for _ in range(runs):
            plan.write_text("hang")
            began = time.perf_counter()
            with contextlib.suppress(EngineError):
                await pool.search(START, movetime_ms=MOVETIME_MS)
            samples.append(time.perf_counter() - began - MOVETIME_MS / 1000 - GRACE)
            assert pool.turns.waiting == 0
            await pool.search(START, movetime_ms=MOVETIME_MS)  # a fresh process, for the next
    finally:
        await pool.close()
    return samples


async def answered(program: str, runs: int) -> list[float]:
    pool = EnginePool(program)
    samples: list[float] = []
    try:
        await pool.search(START, movetime_ms=MOVETIME_MS)
        for _ in range(runs):
            with lap(samples):
                await pool.search(START, movetime_ms=MOVETIME_MS)
    finally:
        await pool.close()
    return samples


async def hostile(runs: int) -> None:
    usi.GRACE_SECONDS = GRACE
    with tempfile.TemporaryDirectory() as folder:
        program, plan = fake_engine(Path(folder))
        reference = report("fake engine answering", await answered(program, runs), tail=0.95)
        silent = report(
            "silent engine: deadline to free job", await hung_to_free(program, plan, runs),
            tail=0.95,
        )  # fmt: skip
        ratio("free job / answered search", silent, reference)
    with tempfile.TemporaryDirectory() as folder:
        program, plan = wrapper_engine(Path(folder))
        wrapped = report(
            "wrapper + child: deadline to free", await hung_to_free(program, plan, runs),
            tail=0.95,
        )  # fmt: skip
        ratio("free job / answered search", wrapped, reference)


async def computer_move(
    pool: EnginePool, queue: int, kind: SearchKind, asker: int = OTHER
) -> float:
    """One level-1 move asked as `kind` by `asker`, behind `queue` analysis searches of
    MEMBER (asked as MEMBER's own analysis, it is served first come, first served)."""
    level = LEVELS[1]
    waiting = [
        asyncio.create_task(
            pool.search(
                START, ["2g2f"] if n % 2 else [],
                movetime_ms=ANALYSIS_MS, skill=ANALYSIS_SKILL,
                kind=SearchKind.ANALYSIS, asker=MEMBER,
            )
        )
        for n in range(queue)
    ]  # fmt: skip
    while queue and pool.turns.waiting < queue - 1:
        await asyncio.sleep(0.001)
    began = time.perf_counter()
    await pool.search(
        START, ["7g7f"], movetime_ms=level.movetime_ms, skill=level.skill, kind=kind, asker=asker
    )
    took = time.perf_counter() - began
    await asyncio.gather(*waiting)
    return took


async def fairness(engine: str, runs: int, queue: int) -> None:
    pool = EnginePool(engine)
    try:
        await pool.search(START, movetime_ms=50)  # started
        alone = [await computer_move(pool, 0, SearchKind.MOVE) for _ in range(runs)]
        queued = [await computer_move(pool, queue, SearchKind.MOVE) for _ in range(runs)]
        as_analysis = [await computer_move(pool, queue, SearchKind.ANALYSIS) for _ in range(runs)]
        in_line = [
            await computer_move(pool, queue, SearchKind.ANALYSIS, MEMBER) for _ in range(runs)
        ]
    finally:
        await pool.close()
    reference = report("computer move (level 1), alone", alone, tail=0.95)
    behind = report(f"... with {queue} analyses queued", queued, tail=0.95)
    ratio("queued / alone", behind, reference)
    turns = report("... queued as another's analysis", as_analysis, tail=0.95)
    ratio("queued / alone", turns, reference)
    fifo = report("... first come, first served", in_line, tail=0.95)
    ratio("queued / alone", fifo, reference)
    print(f"{'':<36} one analysis search = {ANALYSIS_MS} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--queue", type=int, default=8)
    parser.add_argument(
        "--engine",
        default=shutil.which("fairy-stockfish") or "/usr/games/fairy-stockfish",
    )
    args = parser.parse_args()
    await hostile(args.runs)
    await fairness(args.engine, args.runs, args.queue)


if __name__ == "__main__":
    asyncio.run(main())
