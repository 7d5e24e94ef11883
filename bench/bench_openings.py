"""The opening classifier's agreement per family with labelled records, and its time.

    python bench/bench_openings.py

Agreement: every label in tests/data/openings (the records' own 戦型 and 囲い
headers, see its SOURCES.txt) and in tests/data/records/bioshogi_sample.ki2u that the table
has a name for, counted per family: agreed / labels. The known disagreements the test lists
are shown apart. Time: naming a whole game (every ply up to the table's last window) against
replaying the same game's moves with every move checked (`Game.replay`), same run, as a
ratio of the medians; and what a move costs the bot: naming its game after the move with
the namer kept since the previous move, against pushing the move (`Game.push`).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import ratio, report
from bot.services.records.openings import MoveNamer
from rules import Game
from rules.notation.files import read_record
from rules.openings import classify_game
from rules.openings.agreement import agreement_of
from tests.rules.test_openings import KNOWN_DISAGREEMENTS

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"
LABELLED = RECORDS.parent / "openings"
ROUNDS = 20


def main() -> None:
    games = []
    for path in [*sorted(LABELLED.glob("*.kif")), RECORDS / "bioshogi_sample.ki2u"]:
        record = read_record(path.read_bytes())
        games.append((path.name, record.game, dict(record.headers)))
    agreement = agreement_of(games, known=KNOWN_DISAGREEMENTS)
    print(f"{len(games)} labelled records; per family: agreed / labels")
    for family, agreed, total in agreement.rows():
        print(f"  {family:<12} {agreed:>3} / {total:<3} {100 * agreed / total:5.1f} %")
    agreed = sum(row[1] for row in agreement.rows())
    total = sum(row[2] for row in agreement.rows())
    print(f"  all          {agreed:>3} / {total:<3} {100 * agreed / total:5.1f} %")
    print(
        f"  the game's 戦型 (the name or its line): {agreement.games_agreed} / {agreement.games}"
        f" {100 * agreement.games_agreed / agreement.games:5.1f} %"
    )
    for miss in agreement.game_misses:
        print(f"  game named otherwise: {miss}")
    for miss in agreement.misses:
        known = " (known, not counted)" if miss in KNOWN_DISAGREEMENTS else ""
        print(f"  miss: {miss}{known}")
    unnamed = ", ".join(f"{name} {count}" for name, count in sorted(agreement.unnamed.items()))
    print(f"  labels the table has no name for: {unnamed}")

    classify_times: list[float] = []
    replay_times: list[float] = []
    for _ in range(ROUNDS):
        for _, game, _ in games:
            started = time.perf_counter()
            classify_game(game)
            classify_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            Game.replay(game.start, game.moves)
            replay_times.append(time.perf_counter() - started)
    named = report("name one game (classify_game)", classify_times)
    replayed = report("replay its moves (Game.replay)", replay_times)
    ratio("naming / replaying", named, replayed)

    # What a move costs the bot: its game named as it stands after the move, by the namer
    # kept since the previous move (one step), against pushing the move itself.
    step_times: list[float] = []
    push_times: list[float] = []
    for number, (_, game, _) in enumerate(games):
        namer = MoveNamer()
        prefix = Game(game.start)
        for move in game.moves:
            started = time.perf_counter()
            prefix.push(move)
            push_times.append(time.perf_counter() - started)
            started = time.perf_counter()
            namer.names(number, prefix)
            step_times.append(time.perf_counter() - started)
    stepped = report("name a game after one move (kept)", step_times)
    pushed = report("push that move (Game.push)", push_times)
    ratio("naming / pushing", stepped, pushed)


if __name__ == "__main__":
    main()
