"""What scanning a finished game for mate problems costs, per game and per position.

    python bench/bench_problems.py            # the real games of tests/data/records
    python bench/bench_problems.py --runs 3

Each game of tests/data/records that is a real game (a start and its moves, not a problem
composition) is scanned as the bot scans it (`find_problems`, with the per-position and
per-game budgets the bot uses), and once more with ten times the per-position budget, to
show what the budget gives up. Printed: the time per game and per position of each, the
problems found, and the ratio of a scan to replaying the game's moves (the reference, in
the same run): what one ending costs the worker process beyond what any game costs.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import median_time, ratio, report
from bot.services.problems.extract import GAME_NODES, SCAN_NODES, find_problems
from rules import Game
from rules.notation.files import read_record

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"
GAMES = ("kfjs_20091203.ki2u", "kfjs_ryuou4.kifu", "bioshogi_sample.ki2u", "kfjs_8mai.kifu")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=1, help="scans of each game (median)")
    arguments = parser.parse_args()
    scans: list[float] = []
    wide: list[float] = []
    replays: list[float] = []
    per_position: list[float] = []
    for name in GAMES:
        game = read_record((RECORDS / name).read_bytes()).game
        start = game.position_at(0).sfen()
        moves = [move.usi() for move in game.moves]
        found = find_problems(start, moves)
        scan = median_time(partial(find_problems, start, moves), runs=arguments.runs)
        started = time.perf_counter()
        wider = find_problems(start, moves, nodes=10 * SCAN_NODES, game_nodes=10 * GAME_NODES)
        wide.append(time.perf_counter() - started)
        replays.append(median_time(partial(Game, start, moves), runs=5))
        scans.append(scan)
        per_position.append(scan / (len(moves) + 1))
        print(
            f"{name:<24} {len(moves):4} plies  scan {scan:6.2f} s"
            f"  problems {[(p.ply, p.plies) for p in found]}"
            f"  with 10x budget {wide[-1]:6.2f} s {[(p.ply, p.plies) for p in wider]}"
        )
    print(f"budgets: {SCAN_NODES:,} nodes a position, {GAME_NODES:,} a game")
    scan_median = report("scan a game (bot's budgets)", scans, tail=1.0)
    report("scan a game (10x budgets)", wide, tail=1.0)
    report("scan, per position", per_position, tail=1.0)
    replay_median = report("replay a game (reference)", replays, tail=1.0)
    ratio("scan / replay", scan_median, replay_median)


if __name__ == "__main__":
    main()
