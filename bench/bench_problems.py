"""What scanning a finished game for mate problems costs, per game and per position.

    python bench/bench_problems.py            # the real games of tests/data/records
    python bench/bench_problems.py --runs 3

Each game of tests/data/records that is a real game (a start and its moves, not a problem
composition) is scanned as the bot scans it (`find_problems`, with the per-position and
per-game budgets the bot uses), and once more with ten times the per-position budget, to
show what the budget gives up. Printed: the time per game and per position of each, the
problems found, and the ratio of a scan to replaying the game's moves (the reference, in
the same run): what one ending costs the worker process beyond what any game costs. Then,
for each problem found (and a mate in 3), the time to judge a right and a wrong answer
(a member's answer, in the worker) against solving the position (the reference).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_time, ratio, report, run_times
from bot.services.problems.extract import (
    GAME_NODES,
    MAX_PLIES,
    SCAN_NODES,
    FoundProblem,
    find_problems,
)
from bot.services.problems.judging import JUDGE_NODES, judge
from rules import Game, Position
from rules.mate import solve
from rules.notation.files import read_record

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"
GAMES = ("kfjs_20091203.ki2u", "kfjs_ryuou4.kifu", "bioshogi_sample.ki2u", "kfjs_8mai.kifu")


#: A mate in 3 with a unique first move (the tests' problem): judged beside the games' own.
MATE_IN_3 = "4k4/9/3S5/9/9/9/9/9/4K4 b RS 1"


def judge_problems(problems: list[FoundProblem]) -> None:
    """Time judging a right and a wrong answer to each problem (the worker's work for one
    member's answer), against the scan's search of the same position (the reference)."""
    for problem in problems:
        position = Position.from_sfen(problem.sfen)
        right = problem.line[0]
        checks = [m.usi() for m in position.legal_moves() if position.gives_check(m)]
        wrong = next((usi for usi in checks if usi != right), None)
        rights = run_times(partial(judge, problem.sfen, problem.plies, right), 3)
        verdict = judge(problem.sfen, problem.plies, right).judged.value
        print(f"mate in {problem.plies} ({problem.sfen}): right answer {right} is {verdict}")
        report("  judge the right answer", rights, tail=1.0)
        if wrong is not None:
            wrongs = run_times(partial(judge, problem.sfen, problem.plies, wrong), 3)
            judged = judge(problem.sfen, problem.plies, wrong).judged.value
            print(f"  wrong answer {wrong} is {judged}")
            report("  judge a wrong answer (a check)", wrongs, tail=1.0)
        searched = run_times(partial(solve, position, MAX_PLIES, nodes=JUDGE_NODES), 3)
        reference = report("  solve the position (reference)", searched, tail=1.0)
        ratio("judge right / solve", statistics.median(rights), reference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="scans of each game (median)")
    arguments = parser.parse_args()
    scans: list[float] = []
    wide: list[float] = []
    replays: list[float] = []
    per_position: list[float] = []
    found_anywhere = [FoundProblem(0, MATE_IN_3, 3, ("R*5b", "5a6a", "5b6b+"))]
    for name in GAMES:
        game = read_record((RECORDS / name).read_bytes()).game
        start = game.position_at(0).sfen()
        moves = [move.usi() for move in game.moves]
        found = find_problems(start, moves)
        scan = median_time(partial(find_problems, start, moves), runs=arguments.runs)
        started = time.perf_counter()
        wider = find_problems(start, moves, nodes=10 * SCAN_NODES, game_nodes=10 * GAME_NODES)
        wide.append(time.perf_counter() - started)
        found_anywhere += wider
        replays.append(median_time(partial(Game, start, moves), runs=5))
        scans.append(scan)
        per_position.append(scan / (len(moves) + 1))
        print(
            f"{name:<24} {len(moves):4} plies  scan {scan:6.2f} s"
            f"  problems {[(p.ply, p.plies) for p in found]}"
            f"  with 10x budget {wide[-1]:6.2f} s {[(p.ply, p.plies) for p in wider]}"
        )
    print(f"budgets: {SCAN_NODES:,} nodes a position, {GAME_NODES:,} a game")
    judge_problems(found_anywhere)
    scan_median = report("scan a game (bot's budgets)", scans, tail=1.0)
    report("scan a game (10x budgets)", wide, tail=1.0)
    report("scan, per position", per_position, tail=1.0)
    replay_median = report("replay a game (reference)", replays, tail=1.0)
    ratio("scan / replay", scan_median, replay_median)


if __name__ == "__main__":
    main()
