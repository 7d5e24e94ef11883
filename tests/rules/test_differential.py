"""Differential test against cshogi, an independent rules engine (test-only dependency).

Seeded random games are played from the even start, from handicap starts and from a few perft
positions. At every position the two engines must agree on

* the set of legal moves, as USI strings (and ours lists each move once),
* check, checkmate (in check and no legal move) and the no-move loss (no legal move, no check),
* the SFEN after the same moves (cshogi's SFEN is normalised through our parser first, so
  only the position matters, not how a hand happens to be ordered).

Repetition is not compared: cshogi's helpers follow an engine convention (rules.md (h)).

Move choice is biased so that games reach full hands, promoted pieces, drops, checks and
mates: each game draws a policy that prefers captures, drops, promotions or checks some of the
time. ``--cshogi-positions N`` sets the total number of positions (default in conftest.py);
the games are deterministic for a given N.
"""

from __future__ import annotations

import json
import random
import zlib
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cshogi
import pytest

from rules import Color, Move, Position, Role, Square

# (name, SFEN). Handicap starts have gote (the giver) to move.
STARTS: list[tuple[str, str]] = [
    ("even", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"),
    ("hc_lance", "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("hc_bishop", "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("hc_two_piece", "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("hc_six_piece", "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("hc_ten_piece", "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("matsuri", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"),
    ("max_moves_593", "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"),
    ("drops_black_all", "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1"),
    ("pins_multi", "b3r3b/9/2N1S1G2/9/4K1P1+r/9/9/9/k8 b G 1"),
    ("double_check", "4r3k/9/5n3/9/4K4/9/9/9/9 b RBGSNLP 1"),
    ("uchifuzume_basic", "7nk/9/7G1/9/9/9/9/9/4K4 b P 1"),
    ("entering_kings", "3+P1+P3/2+R1K1+B2/9/9/9/9/9/2+r1k1+b2/3+p1+p3 b 2G2g 1"),
    (
        "shogiops_perftStandard_1",
        "4gk3/2gs+P1pb1/1r2p1+Ppl/lp6p/1n3p1P1/2p2P2P/LPP1PSN1S/1S4GRL/1N4K2 w 3Pbgn 68",
    ),
]

# Each game draws one policy: (capture, drop, promotion, check) preferences, tried in that
# order; the remaining probability picks uniformly among all legal moves.
POLICIES: dict[str, tuple[float, float, float, float]] = {
    "uniform": (0.0, 0.0, 0.0, 0.0),
    "captures": (0.7, 0.1, 0.1, 0.0),
    "drops": (0.4, 0.5, 0.1, 0.1),
    "promotions": (0.3, 0.1, 0.6, 0.1),
    "checks": (0.3, 0.2, 0.1, 0.5),
}
MAX_PLIES = 300
MAX_REPORTED = 10


@dataclass
class Stats:
    positions: int = 0
    games: int = 0
    checks: int = 0
    mates: int = 0
    no_move_losses: int = 0
    drops_played: int = 0
    promotions_played: int = 0
    captures_played: int = 0
    most_in_hand: int = 0
    uchifuzume: int = 0  # positions where a pawn drop in front of the king is refused as mate
    failures: list[str] = field(default_factory=list)
    kinds: Counter[str] = field(default_factory=Counter)


def _captures(position: Position, moves: list[Move]) -> list[Move]:
    board = position.board
    return [m for m in moves if m.drop is None and board[m.to_square]]


def _choose(
    rng: random.Random, position: Position, moves: list[Move], policy: tuple[float, ...]
) -> Move:
    capture, drop, promotion, check = policy
    roll = rng.random()
    if roll < capture:
        pool = _captures(position, moves)
        if pool:
            return rng.choice(pool)
    elif roll < capture + drop:
        pool = [m for m in moves if m.drop is not None]
        if pool:
            return rng.choice(pool)
    elif roll < capture + drop + promotion:
        pool = [m for m in moves if m.promotion]
        if pool:
            return rng.choice(pool)
    elif roll < capture + drop + promotion + check:
        sample = rng.sample(moves, min(len(moves), 24))
        pool = [m for m in sample if position.gives_check(m)]
        if pool:
            return rng.choice(pool)
    return rng.choice(moves)


def _uchifuzume_refused(position: Position, their_moves: set[str]) -> bool:
    """Both engines leave out a pawn drop in front of the enemy king that is otherwise
    allowed (pawn in hand, empty square, no nifu, not the last rank): pawn-drop mate."""
    us = position.turn_index
    if not position.hands[us][Role.PAWN] or position.is_check():
        return False
    if not position.has_king(Color(1 - us)):
        return False
    enemy_king = position.king_square(Color(1 - us))
    rank = enemy_king.rank + (1 if us == 0 else -1)
    if not 1 <= rank <= 9 or rank == (1 if us == 0 else 9):
        return False
    target = Square.of(enemy_king.file, rank)
    own_pawn = Role.PAWN + 16 * us
    if position.board[target] or any(
        position.board[Square.of(target.file, r)] == own_pawn for r in range(1, 10)
    ):
        return False
    return f"P*{target.usi()}" not in their_moves


def _compare(position: Position, board: cshogi.Board, where: str, stats: Stats) -> list[Move]:
    """Compare one position; record disagreements in `stats`; return our legal moves."""
    ours = position.legal_moves()
    our_usi = [m.usi() for m in ours]
    our_set = set(our_usi)
    their_set = {cshogi.move_to_usi(m) for m in board.legal_moves}
    problems = []
    if our_set != their_set:
        missing = sorted(their_set - our_set)
        extra = sorted(our_set - their_set)
        problems.append(f"legal moves differ: missing {missing}, extra {extra}")
    if len(our_usi) != len(our_set):
        dupes = sorted(u for u, n in Counter(our_usi).items() if n > 1)
        problems.append(f"moves listed twice: {dupes}")
    their_check = board.is_check()
    if position.is_check() != their_check:
        problems.append(f"is_check: ours {position.is_check()}, cshogi {their_check}")
    their_mate = their_check and not their_set
    their_no_move = not their_check and not their_set
    if position.is_checkmate() != their_mate:
        problems.append(f"is_checkmate: ours {position.is_checkmate()}, expected {their_mate}")
    if position.is_stalemate() != their_no_move:
        problems.append(f"is_stalemate: ours {position.is_stalemate()}, expected {their_no_move}")
    if position.has_legal_move() != bool(their_set):
        problems.append(f"has_legal_move: ours {position.has_legal_move()}, cshogi {their_set!r}")
    their_sfen = Position.from_sfen_with_warnings(board.sfen())[0].sfen()
    if position.sfen() != their_sfen:
        problems.append(f"sfen: ours {position.sfen()!r}, cshogi {their_sfen!r}")
    if problems:
        stats.failures.append(
            f"{where}\n    sfen {position.sfen()}\n    " + "\n    ".join(problems)
        )
    stats.positions += 1
    stats.checks += their_check
    stats.mates += their_mate
    stats.no_move_losses += their_no_move
    stats.most_in_hand = max(stats.most_in_hand, sum(position.hands[position.turn_index]))
    stats.uchifuzume += _uchifuzume_refused(position, their_set)
    return ours


def play_games(name: str, sfen: str, budget: int) -> Stats:
    """Play seeded random games from `sfen` until `budget` positions have been compared."""
    stats = Stats()
    base_seed = zlib.crc32(name.encode())
    policy_names = sorted(POLICIES)
    while stats.positions < budget and len(stats.failures) < MAX_REPORTED:
        seed = base_seed + stats.games
        rng = random.Random(seed)
        policy_name = policy_names[stats.games % len(policy_names)]
        policy = POLICIES[policy_name]
        stats.games += 1
        position = Position.from_sfen_with_warnings(sfen)[0]
        board = cshogi.Board(sfen)
        played: list[str] = []
        for _ply in range(MAX_PLIES):
            where = f"{name} game seed {seed} ({policy_name}) after {' '.join(played) or '-'}"
            ours = _compare(position, board, where, stats)
            if not ours or stats.positions >= budget:
                break
            move = _choose(rng, position, ours, policy)
            stats.drops_played += move.drop is not None
            stats.promotions_played += move.promotion
            stats.captures_played += move.drop is None and bool(position.board[move.to_square])
            usi = move.usi()
            position.push(move)
            board.push_usi(usi)
            played.append(usi)
    return stats


@pytest.mark.slow
@pytest.mark.parametrize(("name", "sfen"), [pytest.param(n, s, id=n) for n, s in STARTS])
def test_agrees_with_cshogi(name: str, sfen: str, cshogi_positions: int) -> None:
    budget = max(1, cshogi_positions // len(STARTS))
    stats = play_games(name, sfen, budget)
    report = "\n".join(stats.failures)
    assert not stats.failures, f"{len(stats.failures)} disagreement(s) with cshogi:\n{report}"
    assert stats.positions >= budget


def test_games_reach_the_interesting_positions() -> None:
    """The biased games do reach checks, mates, drops, promotions and full hands.

    Guards the differential test against silently comparing only quiet positions.
    """
    total = Stats()
    for name, sfen in STARTS:
        if name in ("even", "drops_black_all", "uchifuzume_basic", "hc_ten_piece"):
            stats = play_games(name, sfen, 600)
            assert not stats.failures, "\n".join(stats.failures)
            for attribute in (
                "positions",
                "checks",
                "mates",
                "drops_played",
                "promotions_played",
                "captures_played",
                "uchifuzume",
            ):
                setattr(total, attribute, getattr(total, attribute) + getattr(stats, attribute))
            total.most_in_hand = max(total.most_in_hand, stats.most_in_hand)
    assert total.positions >= 2400
    assert total.checks >= 50
    assert total.mates >= 3
    assert total.drops_played >= 100
    assert total.promotions_played >= 50
    assert total.captures_played >= 100
    assert total.most_in_hand >= 15
    assert total.uchifuzume >= 1


DATA = Path(__file__).parent.parent / "data"
TREE_NODE_LIMIT = 800


def _tree_roots() -> list[Any]:
    """Every perft position and every labelled rule case (after its moves_before)."""
    roots = []
    perft_data = json.loads((DATA / "perft.json").read_text("utf-8"))["positions"]
    for entry in perft_data:
        roots.append(pytest.param(entry["sfen"], [], id=f"perft-{entry['name']}"))
    cases = json.loads((DATA / "rules-cases.json").read_text("utf-8"))["cases"]
    for case in cases:
        roots.append(pytest.param(case["sfen"], case["moves_before"], id=f"case-{case['id']}"))
    return roots


def _walk(
    position: Position, board: cshogi.Board, depth: int, path: list[str], stats: Stats
) -> None:
    moves = _compare(position, board, f"tree after {' '.join(path) or '-'}", stats)
    if depth == 0 or len(stats.failures) >= MAX_REPORTED:
        return
    for move in moves:
        usi = move.usi()
        position.push(move)
        board.push_usi(usi)
        path.append(usi)
        _walk(position, board, depth - 1, path, stats)
        path.pop()
        board.pop()
        position.pop()


@pytest.mark.parametrize(("sfen", "moves_before"), _tree_roots())
def test_move_tree_agrees_with_cshogi(sfen: str, moves_before: list[str]) -> None:
    """Every node of the move tree of the hand-picked positions (pins, uchifuzume, dead
    drops, nifu, ...): depth 2, or depth 1 where depth 2 has more than 800 nodes."""
    position = Position.from_sfen(sfen)
    board = cshogi.Board(sfen)
    for usi in moves_before:
        position.push(Move.from_usi(usi))
        board.push_usi(usi)
    children = position.legal_moves()
    grandchildren = 0
    for move in children:
        position.push(move)
        grandchildren += position.legal_move_count()
        position.pop()
    depth = 2 if len(children) + grandchildren <= TREE_NODE_LIMIT else 1
    stats = Stats()
    _walk(position, board, depth, [], stats)
    assert not stats.failures, "\n".join(stats.failures)
    assert stats.positions >= 1


def test_a_disagreement_is_reported() -> None:
    """The comparison itself can fail: a cshogi board one move ahead is caught."""
    position = Position.initial()
    board = cshogi.Board()
    board.push_usi("7g7f")
    stats = Stats()
    _compare(position, board, "deliberately different", stats)
    assert len(stats.failures) == 1
    assert "legal moves differ" in stats.failures[0]
    assert "sfen" in stats.failures[0]
