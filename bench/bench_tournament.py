"""Benchmark of the tournament core: pairing a 30-player double round robin (870 games)
and recomputing its standings after one result, with its crosstable.

    python bench/bench_tournament.py [--players 30] [--runs 50] [--seed 1]

* pairing: `round_robin(players, double=True)`, against the reference of listing every
  ordered pair of players as a tuple (the least any schedule of those games costs);
* standings: one more result recorded in a tournament half played, then the whole table
  recomputed (`standings`, the withdrawal rule, Sonneborn-Berger, head to head), against
  the reference of summing each player's half points over the same games in one plain
  loop;
* crosstable: the table's crosstable built, described as text and drawn as a PNG, against
  a random midgame's board image drawn by the same Pillow (what the bot posts with every
  move).

It prints the median and 95th percentile of each, and the ratios.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import ratio, report, run_times
from bot.services.tournaments.pairings import Entrant, round_robin
from bot.services.tournaments.ranking import Game, Result, standings
from bot.services.tournaments.tables import crosstable
from render import render_board
from render.crosstable import describe_crosstable, render_crosstable
from rules import Position


def pairing(players: list[int], runs: int) -> None:
    reference = run_times(lambda: list(itertools.permutations(players, 2)), runs, number=20)
    schedule = run_times(lambda: round_robin(players, double=True), runs, number=20)
    games = sum(len(r.games) for r in round_robin(players, double=True))
    print(f"{len(players)} players, double round robin: {games} games")
    floor = report("ordered pairs listed (reference)", reference, tail=0.95)
    paired = report("round_robin(double=True)", schedule, tail=0.95)
    ratio("pairing / reference", paired, floor)


def half_played(players: list[int], rng: random.Random) -> list[Game]:
    schedule = [g for r in round_robin(players, double=True) for g in r.games]
    results = list(Result)
    return [
        Game(g.sente, g.gote, rng.choice(results) if index < len(schedule) // 2 else None)
        for index, g in enumerate(schedule)
    ]


def plain_points(games: list[Game]) -> dict[int, int]:
    """Each player's half points, in one plain pass over the games: the least a table
    recomputed from its games costs."""
    halves = {Result.SENTE_WINS: (2, 0), Result.GOTE_WINS: (0, 2), Result.DRAW: (1, 1)}
    points: dict[int, int] = defaultdict(int)
    for game in games:
        if game.result is not None:
            sente, gote = halves[game.result]
            points[game.sente] += sente
            points[game.gote] += gote
    return points


def recompute(players: list[int], runs: int, rng: random.Random) -> None:
    entrants = [Entrant(p, rng.uniform(1200, 2200)) for p in players]
    games = half_played(players, rng)
    pending = [i for i, g in enumerate(games) if g.result is None]

    def one_result() -> object:
        index = pending[rng.randrange(len(pending))]
        game = games[index]
        games[index] = Game(game.sente, game.gote, rng.choice(list(Result)))
        table = standings(entrants, games, withdrawn=[players[-1]])
        games[index] = game
        return table

    reference = run_times(lambda: plain_points(games), runs)
    timed = run_times(one_result, runs)
    floor = report("points summed (reference)", reference, tail=0.95)
    table = report("standings after one result", timed, tail=0.95)
    ratio("standings / reference", table, floor)

    names = {p: f"Player {p}" for p in players}
    ranked = standings(entrants, games)

    def drawn() -> object:
        shown = crosstable(ranked, games, names, games_per_pair=2, title="Club league")
        describe_crosstable(shown)
        return render_crosstable(shown)

    positions = iter([midgame(rng) for _ in range(max(runs // 5, 3))])
    board = run_times(lambda: render_board(next(positions)), max(runs // 5, 3))
    image = run_times(drawn, max(runs // 5, 3))
    reference_board = report("board image (reference)", board, tail=0.95)
    crosstable_image = report("crosstable, text and image", image, tail=0.95)
    ratio("crosstable / board", crosstable_image, reference_board)
    print(f"crosstable PNG: {len(drawn_bytes(ranked, games, names)):,} bytes")


def midgame(rng: random.Random, plies: int = 60) -> Position:
    """A position after random legal moves (a new one each sample: no cached board)."""
    position = Position.initial()
    for _ in range(plies):
        moves = list(position.legal_moves())
        if not moves:
            break
        position.push(rng.choice(moves))
    return position


def drawn_bytes(ranked: object, games: list[Game], names: dict[int, str]) -> bytes:
    assert isinstance(ranked, tuple)
    return render_crosstable(crosstable(ranked, games, names, games_per_pair=2))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    players = list(range(1, args.players + 1))
    pairing(players, args.runs)
    recompute(players, args.runs, rng)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
