"""Moving by pointing: taps per move, the picker's render time, and the interaction
responses per move: `python bench/bench_picker.py [--runs 3]`.

Taps: over every move of the records under tests/data/records, the taps the picker takes
to play it (the piece, then the square = 2; +1 for the file of a drop on more than 25
squares; +1 for Promote / Don't promote where both are legal). The Move press that opens
the picker is not counted, as the `/move` a typed move starts with is not. Printed: the
median and the 95th percentile (targets: median 2, p95 at most 3).

Render: the picker's two pictures of each position (its movable pieces marked; the piece
of the record's move chosen, its destinations dotted and its captures ringed) against the
plain board of the same position, rendered in the same run, in turn, each with the PNG
band cache empty (a picture never seen; median ratio; target at most 1.5).

Responses: each step is one interaction response editing the private picker in place and
none posts in the channel, so a pointed move is the Move press plus its taps, against
the one response of a typed `/move`; the board post of the move is the same for both.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.timing import lap, percentile, ratio, report
from bot.services.play.picker import PieceChoice, choices_of, piece_key
from bot.services.play.snapshots import LegalMoveCache
from render import Marks, render_board
from render.board import _ENCODER
from rules import Game, Move, Position, Square
from rules.notation import read_record

RECORDS = Path(__file__).resolve().parent.parent / "tests" / "data" / "records"
MAX_OPTIONS = 25  # a select holds 25 options: a drop on more takes a file first


def games() -> list[tuple[str, Game]]:
    return [
        (path.name, read_record(path.read_bytes()).game)
        for path in sorted(RECORDS.iterdir())
        if path.suffix != ".txt"
    ]


def taps_for(piece: PieceChoice, move: Move) -> int:
    """The taps that play `move` with `piece` chosen."""
    taps = 2
    if len(piece.destinations) > MAX_OPTIONS:
        taps += 1
    destination = piece.destination(move.to_square.usi())
    assert destination is not None
    if destination.promote and destination.keep:
        taps += 1
    return taps


def positions() -> list[tuple[Position, Move, list[PieceChoice]]]:
    cache = LegalMoveCache()
    found = []
    for _name, game in games():
        position = game.position_at(0)
        for ply, move in enumerate(game.moves):
            last = game.moves[ply - 1] if ply else None
            pieces = list(choices_of(position, cache.get(position, last)))
            found.append((position.copy(), move, pieces))
            position.push_unchecked(move)
    return found


def marks_of(pieces: list[PieceChoice], chosen: PieceChoice | None) -> Marks:
    if chosen is None:
        return Marks(
            movable=frozenset(Square.from_usi(p.key) for p in pieces if p.square is not None),
            hand_movable=frozenset(p.role for p in pieces if p.square is None),
        )
    return Marks(
        selected=None if chosen.square is None else Square.from_usi(chosen.square),
        hand_selected=chosen.role if chosen.square is None else None,
        destinations=frozenset(Square.from_usi(d.square) for d in chosen.destinations),
        captures=frozenset(Square.from_usi(d.square) for d in chosen.destinations if d.capture),
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="passes over the positions")
    args = parser.parse_args(argv)
    found = positions()
    taps = []
    for _position, move, pieces in found:
        [piece] = [p for p in pieces if p.key == piece_key(move)]
        taps.append(taps_for(piece, move))
    median, p95 = statistics.median(taps), percentile(taps, 0.95)
    extra = {n: taps.count(n) for n in sorted(set(taps))}
    print(
        f"{len(taps)} moves of {len(games())} records: taps per move median {median:g}, "
        f"p95 {p95:g}, max {max(taps)}; moves by taps {extra}"
    )
    responses = [1 + t for t in taps]
    print(
        f"interaction responses per move: pointing median {statistics.median(responses):g} "
        f"(p95 {percentile(responses, 0.95):g}) against 1 typed; channel posts: 1 either way"
    )

    plain: list[float] = []
    first: list[float] = []
    second: list[float] = []
    render_board(Position.initial())  # the caches of the process
    for _ in range(args.runs):
        for position, move, pieces in found:
            [piece] = [p for p in pieces if p.key == piece_key(move)]
            _ENCODER.clear()  # each picture drawn whole, as one never seen
            with lap(plain):
                render_board(position)
            _ENCODER.clear()
            with lap(first):
                render_board(position, marks=marks_of(pieces, None))
            _ENCODER.clear()
            with lap(second):
                render_board(position, marks=marks_of(pieces, piece))
    print()
    reference = report("plain board", plain)
    step_one = report("picker: movable pieces marked", first)
    ratio("movable marked / plain", step_one, reference)
    step_two = report("picker: piece and squares marked", second)
    ratio("piece and squares / plain", step_two, reference)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
