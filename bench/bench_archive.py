"""Benchmark of a tournament's archive and of a team match's scoreboard.

    python bench/bench_archive.py [--games 870] [--plies 120] [--runs 5] [--seed 1]

* archive: every game of a 30-player double round robin (870 games of `--plies` random
  legal moves, then a resignation) as one ZIP of KIF, KI2 (Shift_JIS and UTF-8) and CSA
  files within discord.py's default upload limit (`tournament_archive`), against the
  reference of writing the same record files without the archive (what five `/export`s
  of every game cost); its size and parts, and then its parts at a 2 MB limit;
* team match: a 64-board match half played, scored (`score`) and its scoreboard built,
  described and drawn, against a random midgame's board image drawn by the same Pillow.

It prints the median and 95th percentile of each, and the ratios.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_tournament import midgame
from bench.timing import ratio, report, run_times
from bot.services.records.archive import ARCHIVE_KINDS, ArchivedGame, tournament_archive
from bot.services.tournaments.pairings import Entrant
from bot.services.tournaments.ranking import Game as TeamGame
from bot.services.tournaments.ranking import Result
from bot.services.tournaments.teams import lineup, score, scoreboard
from render import render_board
from render.team_match import describe_scoreboard, render_scoreboard
from rules import Game
from rules.notation import Record, write_record_file

LIMIT = 10 * 1024 * 1024


def played(plies: int, rng: random.Random) -> Game:
    game = Game()
    for _ in range(plies):
        moves = list(game.position.legal_moves())
        if not moves:
            break
        game.push(rng.choice(moves))
    if game.outcome is None:
        game.resign(game.position.turn)
    return game


def archive(count: int, plies: int, runs: int, rng: random.Random) -> None:
    entries = [
        ArchivedGame(
            1 + index // 15,
            1 + index % 15,
            Record(played(plies, rng), sente=f"Player {index % 30}", gote="はなこ🌸"),
        )
        for index in range(count)
    ]

    def files_alone() -> object:
        return [write_record_file(e.record, kind) for e in entries for kind in ARCHIVE_KINDS]

    reference = run_times(files_alone, runs)
    timed = run_times(lambda: tournament_archive("Club league", entries, limit=LIMIT), runs)
    print(f"{count} games of up to {plies} plies, {len(ARCHIVE_KINDS)} files each")
    floor = report("record files written (reference)", reference, tail=0.95)
    zipped = report("tournament_archive", timed, tail=0.95)
    ratio("archive / files alone", zipped, floor)
    parts = tournament_archive("Club league", entries, limit=LIMIT)
    sizes = ", ".join(f"{len(part.data):,}" for part in parts)
    print(f"archive at the 10 MiB limit: {len(parts)} part(s), {sizes} bytes")
    small = tournament_archive("Club league", entries, limit=2_000_000)
    print(
        f"archive at a 2 MB limit: {len(small)} parts, largest {max(len(p.data) for p in small):,}"
    )


def team_match(runs: int, rng: random.Random) -> None:
    first = [Entrant(p, rng.uniform(1200, 2200)) for p in range(1, 65)]
    second = [Entrant(p, rng.uniform(1200, 2200)) for p in range(101, 165)]
    match = lineup(first, second)
    games = match.games()
    results = [TeamGame(g.sente, g.gote, rng.choice(list(Result))) for g in games[::2]]
    names = {e.player: f"Player {e.player}" for e in first + second}

    def drawn() -> object:
        board = scoreboard(score(match, results), names, ("Red", "Blue"))
        describe_scoreboard(board)
        return render_scoreboard(board)

    positions = iter([midgame(rng) for _ in range(runs)])
    reference = run_times(lambda: render_board(next(positions)), runs)
    timed = run_times(drawn, runs)
    floor = report("board image (reference)", reference, tail=0.95)
    image = report("64-board scoreboard, text and image", timed, tail=0.95)
    ratio("scoreboard / board", image, floor)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=870)
    parser.add_argument("--plies", type=int, default=120)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    archive(args.games, args.plies, args.runs, rng)
    team_match(max(args.runs, 10), rng)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
