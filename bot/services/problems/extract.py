"""Finding mate problems in a finished game (実戦詰め): pure, run in a worker process.

A position of the game becomes a problem when the side to move has a forced mate of 3 to
13 plies whose first move is the only one that mates that soon (the rule of tsume: one
solution's first move), and its own king is not in check (a problem begins with the
attacker free to attack). Each position is searched under a node budget, so a game costs
bounded time however long it is; a position the budget left undecided is no problem.

One problem per mating sequence: once the side to move has a mate, the positions that
follow with the same side to move are usually the same mate, shorter (the game played
it out, or missed it and found it again). So a run of consecutive positions of one side
that all have a mate within the limit yields its first position that qualifies: the
earliest and longest. A position the game comes back to is stored once.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Move, Position
from rules.mate import MateResult, Verdict, solve

MIN_PLIES = 3
MAX_PLIES = 13
SCAN_NODES = 20_000
"""Positions the solver may enter for each position of a game: most positions are settled
in a few hundred (no check at all, or every check refuted at once); a mate in 9 of a real
game's end can need a hundred thousand, and is given up (see bench/bench_problems.py)."""
GAME_NODES = 400_000
"""Positions the solver may enter for a whole game: its positions are searched from the
last one back (mates are found near a game's end), and those left when this is spent are
not searched, so a game costs bounded time however long it is."""


@dataclass(frozen=True, slots=True)
class FoundProblem:
    """A position of a game (after `ply` moves) where the side to move mates in `plies`
    with a unique first move; `line` the solution (USI, as `solve` read it)."""

    ply: int
    sfen: str
    plies: int
    line: tuple[str, ...]


def _qualifies(result: MateResult) -> bool:
    """A proven mate of problem length whose first move is known to be the only one."""
    plies = result.plies
    return plies is not None and MIN_PLIES <= plies <= MAX_PLIES and result.unique is True


def find_problems(
    start_sfen: str, moves: list[str], *, nodes: int = SCAN_NODES, game_nodes: int = GAME_NODES
) -> list[FoundProblem]:
    """The problems of a game given by its start and its moves (USI).

    >>> find_problems("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1", [])
    []
    """
    position = Position.from_sfen_with_warnings(start_sfen)[0]
    positions = [position.copy()]
    for usi in moves:
        position.push(Move.from_usi(usi))
        positions.append(position.copy())
    results: list[MateResult | None] = [None] * len(positions)
    left = game_nodes
    for ply in reversed(range(len(positions))):
        if left <= 0:
            break
        if not positions[ply].is_check():  # a problem begins with the attacker not in check
            result = solve(positions[ply], MAX_PLIES, nodes=min(nodes, left))
            results[ply] = result
            left -= result.nodes
    found: list[FoundProblem] = []
    stored = [False, False]  # per side to move: a problem of its current run is stored
    seen: set[str] = set()  # the positions stored (a game may come back to one)
    for ply, searched in enumerate(results):
        side = positions[ply].turn_index
        if searched is None or searched.verdict is not Verdict.PROVEN:
            stored[side] = False  # the run of this side's mates (if any) is over
        elif not stored[side] and _qualifies(searched) and positions[ply].key() not in seen:
            assert searched.plies is not None
            seen.add(positions[ply].key())
            line = tuple(move.usi() for move in searched.line)
            found.append(FoundProblem(ply, positions[ply].sfen(), searched.plies, line))
            stored[side] = True
    return found
