"""Benchmark of a knockout's bracket image: a 64-player bracket drawn as a PNG, against
the 30-player double round robin's crosstable drawn in the same run (the largest image a
round robin posts, on every result, as a bracket is).

    python bench/bench_bracket.py [--runs 20] [--seed 1]

* bracket: a 64-player knockout in its semifinals (some first-round pairings replayed after
  a sennichite, a game being played), drawn by `render_bracket` with no name fitted before,
  and redrawn (its names' fitting remembered, as after each result);
* bracket with its text: the same, with `describe_bracket` (what a post carries);
* hostile names: the same bracket with every name 6,000 characters long (Latin, kanji and
  emoji), which `clipped` and `fit_text` cut to their box;
* crosstable (reference): the 30-player double round robin half played (870 games), drawn
  by `render_crosstable`.

It prints the median and 95th percentile of each, the ratios against the crosstable and
of the hostile names against the plain ones, and the images' sizes.
"""

from __future__ import annotations

import argparse
import io
import random
import sys
from pathlib import Path

from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_tournament import half_played
from bench.timing import ratio, report, run_times
from bot.services.tournaments.pairings import Entrant, knockout_bracket, next_round
from bot.services.tournaments.ranking import standings
from bot.services.tournaments.tables import crosstable
from render.bracket import (
    Bracket,
    Game,
    Outcome,
    Pairing,
    Player,
    Side,
    describe_bracket,
    forget_fitted_names,
    render_bracket,
)
from render.crosstable import render_crosstable

NAMES = ["佐藤 花子 (四段)", "Suzuki Ichiro", "はなこ🌸", "Łukasz Nowak", "田中 美咲"]
HOSTILE = ["W" * 6000, "山" * 6000, "🌸" * 6000]


def bracket(players: int, names: list[str], rng: random.Random) -> Bracket:
    """A knockout of `players` seeded by rating, played to its semifinals: the better
    seed wins three pairings in four, every fifth first-round pairing after a replayed
    sennichite, and one semifinal still being played."""
    field = {
        seed: Player(f"{names[seed % len(names)]}{seed}", seed, 2200 - 7 * seed)
        for seed in range(1, players + 1)
    }
    matches = knockout_bracket([Entrant(seed, -seed) for seed in field])
    rounds: list[tuple[Pairing, ...]] = []
    while len(matches) >= 2:
        pairings = []
        for board, match in enumerate(matches):
            upper = field[match.upper]
            if match.lower is None:
                pairings.append(Pairing(upper))
                continue
            sente = rng.random() < 0.5
            if len(matches) == 2 and board == 1:
                games = (Game(sente, Outcome.PLAYING),)
                pairings.append(Pairing(upper, field[match.lower], games))
                continue
            upset = rng.random() < 0.25
            won = [Game(sente, Outcome.LOWER_WON if upset else Outcome.UPPER_WON)]
            if not rounds and board % 5 == 0:
                won.insert(0, Game(not sente, Outcome.REPLAYED))
            winner = Side.LOWER if upset else Side.UPPER
            pairings.append(Pairing(upper, field[match.lower], tuple(won), winner))
        rounds.append(tuple(pairings))
        through = [pairing.winning() for pairing in pairings]
        if any(player is None for player in through):
            break
        matches = next_round([player.seed for player in through if player is not None])
    return Bracket(tuple(rounds), title="第1回 クラブ選手権")


def cold(drawn: Bracket) -> bytes:
    """The bracket drawn with no name fitted before (the first post of a new knockout)."""
    forget_fitted_names()
    return render_bracket(drawn)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    plain = bracket(64, NAMES, random.Random(args.seed))
    hostile = bracket(64, HOSTILE, random.Random(args.seed))
    players = list(range(1, 31))
    entrants = [Entrant(p, 2000 - 10 * p) for p in players]
    games = half_played(players, rng)
    table = crosstable(
        standings(entrants, games),
        games,
        {p: f"{NAMES[p % len(NAMES)]}{p}" for p in players},
        games_per_pair=2,
        title="Club league",
    )
    render_crosstable(table)  # the fonts loaded and the marks' masks cached, as in a bot
    render_bracket(plain)

    reference = run_times(lambda: render_crosstable(table), args.runs)
    drawn = run_times(lambda: cold(plain), args.runs)
    again = run_times(lambda: render_bracket(plain), args.runs)
    described = run_times(lambda: (cold(plain), describe_bracket(plain)), args.runs)
    attacked = run_times(lambda: cold(hostile), args.runs)
    crosstable_median = report("crosstable, 30 players (reference)", reference, tail=0.95)
    bracket_median = report("bracket, 64 players", drawn, tail=0.95)
    ratio("bracket / crosstable", bracket_median, crosstable_median)
    redrawn = report("bracket, its names fitted before", again, tail=0.95)
    ratio("bracket redrawn / crosstable", redrawn, crosstable_median)
    with_text = report("bracket and its text", described, tail=0.95)
    ratio("bracket and text / crosstable", with_text, crosstable_median)
    hostile_median = report("bracket, 6,000-character names", attacked, tail=0.95)
    ratio("hostile names / plain names", hostile_median, bracket_median)
    for label, png in (
        ("crosstable", render_crosstable(table)),
        ("bracket", render_bracket(plain)),
        ("bracket, hostile names", render_bracket(hostile)),
    ):
        with Image.open(io.BytesIO(png)) as image:
            print(f"{label} PNG: {image.width} x {image.height} px, {len(png):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
