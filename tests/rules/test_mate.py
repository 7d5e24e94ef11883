"""The mate solver: hand-made tsume with known answers, and cshogi's `DfPn` as an oracle.

The tsume are small compositions whose lines are checked by hand in the comments; the
differential test runs both solvers on every position of the records in tests/data/records
(see tests/support/mate_positions.py) under the same length limit and asks for the same
verdict and the same shortest length, and on positions reached from them by check-seeking
playouts (``--mate-positions N``, default in conftest.py). ``--mate-plies P`` changes the
limit (default 7; 11 for the long run, which takes many minutes).
"""

from __future__ import annotations

import pytest

from rules import Move, Position
from rules.mate import MAX_PLIES, MateResult, Verdict, _checks, solve
from tests.support.mate_positions import cshogi_mate_length, playout_positions, record_positions

NODES = 50_000
"""The node budget of the comparison: positions it does not settle are counted, not failed."""


def _usi(result: MateResult) -> list[str]:
    return [move.usi() for move in result.line]


def _ends_in_mate(sfen: str, result: MateResult) -> bool:
    position = Position.from_sfen(sfen)
    for move in result.line:
        position.push(move)  # every move legal
    return position.is_checkmate()


# (name, SFEN, limit, plies, line). Sente attacks; gote has nothing in hand unless given.
TSUME = [
    # Head gold (頭金): the pawn on 5c guards 5b; the king cannot take it or step aside.
    ("head gold, 1", "4k4/9/4P4/9/9/9/9/9/9 b G 1", 7, 1, ["G*5b"]),
    # S*3b checks the king on 2a; it must go to 2b (1b and 3a are covered by the silver, 1a
    # by nothing but it is the lance's own square), then G*2c, guarded by the pawn on 3c.
    ("silver then gold, 3", "7kl/9/6P2/9/9/9/9/9/9 b GS 1", 7, 3, ["S*3b", "2a2b", "G*2c"]),
    # R*2c: gote interposes its silver 3a-2b; G*3b (guarded by the pawn) drives the king to
    # 1b, and the gold takes the silver on 2b, guarded by the rook.
    (
        "interposed silver taken, 5",
        "6skl/9/6P2/9/9/9/9/9/9 b RG 1",
        7,
        5,
        ["R*2c", "3a2b", "G*3b", "2a1b", "3b2b"],
    ),
    # B*4c checks from afar; the king runs 2b, 1c, 1b and is caught by the promoted bishop
    # and the gold dropped and moved behind it.
    (
        "bishop and gold chase, 7",
        "7kl/9/6P2/9/9/9/9/9/9 b BG 1",
        9,
        7,
        ["B*4c", "2a2b", "4c3b+", "2b1c", "G*1d", "1c1b", "1d2c"],
    ),
]


@pytest.mark.parametrize(
    ("sfen", "limit", "plies", "line"),
    [pytest.param(s, n, p, line, id=name) for name, s, n, p, line in TSUME],
)
def test_tsume_is_solved_with_its_line(sfen: str, limit: int, plies: int, line: list[str]) -> None:
    result = solve(Position.from_sfen(sfen), limit)
    assert result.verdict is Verdict.PROVEN
    assert result.plies == plies
    assert _usi(result) == line
    assert result.unique is True
    assert _ends_in_mate(sfen, result)


@pytest.mark.parametrize(
    ("sfen", "plies"), [pytest.param(s, p, id=name) for name, s, _n, p, _line in TSUME if p > 1]
)
def test_a_limit_one_move_short_disproves(sfen: str, plies: int) -> None:
    """The verdict is exact under the limit: the same problem two plies shorter is no mate."""
    assert solve(Position.from_sfen(sfen), plies - 2).verdict is Verdict.DISPROVEN
    assert solve(Position.from_sfen(sfen), plies).plies == plies


def test_a_pawn_drop_mate_is_no_mate() -> None:
    """P*1b would mate (the gold guards it, the king's own pieces block 2a and 2b) and is
    illegal for that reason; nothing else mates, so there is no mate at all. With a gold in
    hand instead the same drop mates."""
    pawn = "7nk/7s1/7G1/9/9/9/9/9/9 b P 1"
    assert not Position.from_sfen(pawn).is_legal(Move.from_usi("P*1b"))
    assert solve(Position.from_sfen(pawn), 7).verdict is Verdict.DISPROVEN
    gold = solve(Position.from_sfen("7nk/7s1/7G1/9/9/9/9/9/9 b G 1"), 7)
    assert (gold.verdict, _usi(gold), gold.unique) == (Verdict.PROVEN, ["G*1b"], True)


def test_the_defenders_drop_interposes() -> None:
    """A rook dropped anywhere on file 1 mates a king boxed in by its own lance and pawn;
    a pawn in gote's hand drops between and there is no mate."""
    bare = solve(Position.from_sfen("7lk/7p1/9/9/9/9/9/9/9 b R 1"), 7)
    assert (bare.verdict, bare.plies, bare.unique) == (Verdict.PROVEN, 1, False)
    held = solve(Position.from_sfen("7lk/7p1/9/9/9/9/9/9/9 b Rp 1"), 7)
    assert held.verdict is Verdict.DISPROVEN


def test_an_interposing_drop_in_the_line() -> None:
    """The end of a composition in the records (nine gote pawns on file 2, read with its
    warnings): the defence that lasts longest drops gote's rook on 1f between the king and
    the rook that checks, which is then taken with promotion."""
    sfen = "7p1/7p1/7p1/7p1/7p1/7p1/7pk/7pl/7pL b R4S4N2Lr 55"
    position = Position.from_sfen_with_warnings(sfen)[0]
    result = solve(position, 9)
    assert result.plies == 7
    assert _usi(result)[:3] == ["R*1a", "R*1f", "1a1f+"]
    assert position.sfen() == sfen  # left as it was


def test_not_mate() -> None:
    """A bishop and a silver do not catch the king in the corner (gote's lance guards 1b)."""
    result = solve(Position.from_sfen("7kl/9/6P2/9/9/9/9/9/9 b BS 1"), 7)
    assert result == MateResult(Verdict.DISPROVEN, nodes=result.nodes)


def test_the_budget_bounds_the_work() -> None:
    sfen = "7kl/9/6P2/9/9/9/9/9/9 b BG 1"
    result = solve(Position.from_sfen(sfen), 9, nodes=20)
    assert result.verdict is Verdict.UNKNOWN
    assert result.nodes <= 21
    timed = solve(Position.from_sfen(sfen), 9, nodes=10**9, seconds=0.0)
    assert timed.verdict is Verdict.UNKNOWN
    assert timed.nodes < 1000


def test_a_long_limit_is_bounded_by_the_budget() -> None:
    """The longest limit a caller may give searches without running out of stack, within
    its budget: a lone rook checks a bare king for as long as it likes and never mates, so
    the search goes deep before it disproves. A longer limit is refused."""
    position = Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b R 1")
    result = solve(position, MAX_PLIES, nodes=3_000)
    assert result.verdict is Verdict.DISPROVEN
    assert result.nodes <= 3_000
    with pytest.raises(ValueError):
        solve(position, MAX_PLIES + 1)
    with pytest.raises(ValueError):
        solve(position, -1)


def test_no_king_to_mate() -> None:
    """The side to move cannot mate a side without a king (a tsume's attacker has none)."""
    result = solve(Position.from_sfen("4k4/9/9/9/9/9/9/9/9 w G 1"), 7)
    assert result.verdict is Verdict.DISPROVEN


def _compare(sfens: list[str], plies: int) -> tuple[list[str], int, int]:
    """Disagreements with cshogi, positions proven by both, positions left unknown."""
    problems: list[str] = []
    proven = unknown = 0
    for sfen in sfens:
        ours = solve(Position.from_sfen_with_warnings(sfen)[0], plies, nodes=NODES)
        if ours.verdict is Verdict.UNKNOWN:
            unknown += 1
            continue
        theirs = cshogi_mate_length(sfen, plies)
        if ours.plies != theirs:
            problems.append(f"{sfen}: ours {ours.plies} {_usi(ours)}, cshogi {theirs}")
        elif theirs is not None:
            proven += 1
    return problems, proven, unknown


@pytest.mark.slow
def test_agrees_with_cshogi_on_the_records(mate_plies: int) -> None:
    sfens = record_positions()
    problems, proven, unknown = _compare(sfens, mate_plies)
    assert not problems, "\n".join(problems)
    assert len(sfens) > 500
    assert proven >= 10  # the comparison reaches mates, not only their absence
    assert unknown <= len(sfens) // 50


@pytest.mark.slow
def test_agrees_with_cshogi_after_playouts(mate_positions: int, mate_plies: int) -> None:
    sfens = list(playout_positions(record_positions(), mate_positions))
    problems, proven, unknown = _compare(sfens, mate_plies)
    assert not problems, "\n".join(problems)
    assert proven >= len(sfens) // 20
    assert unknown <= len(sfens) // 20


def test_a_disagreement_is_reported() -> None:
    """The comparison can fail: a mate in 3 told to cshogi as a position one move later."""
    sfen = "7kl/9/6P2/9/9/9/9/9/9 b GS 1"
    assert cshogi_mate_length(sfen, 7) == 3
    later = "6Skl/9/6P2/9/9/9/9/9/9 w G 2"
    assert cshogi_mate_length(later, 7) is None
    problems, _proven, _unknown = _compare([sfen], 1)
    assert problems == []
    assert _compare([sfen], 3)[1] == 1


# Discovered checks, which real games seldom offer: a silver in front of a rook, a knight in
# front of a lance or a rook (a knight's jump leaves every line), a gold on a bishop's
# diagonal (some of their moves stay on the line), a dragon behind a pawn that promotes;
# and gote checking by drops, with sente's silver on the line to its own king.
DISCOVERED = [
    "4k4/9/9/9/4S4/9/9/9/4R4 b - 1",
    "4k4/9/9/4N4/9/9/9/9/4L4 b - 1",
    "8k/9/9/9/4G4/9/9/9/B8 b - 1",
    "4k4/9/9/4P4/9/9/4+R4/9/9 b - 1",
    "4k4/9/9/9/4N4/9/9/9/4R4 b - 1",
    "9/9/4k4/9/9/9/4S4/9/4K4 w r 1",
]


def test_checks_read_off_the_board_are_the_moves_that_check() -> None:
    """The solver finds checking moves without playing them; playing each legal move and
    asking the core whether it checks must give the same list, on many positions."""
    starts = record_positions()
    for sfen in DISCOVERED + starts + list(playout_positions(starts, 500, seed=5)):
        position = Position.from_sfen_with_warnings(sfen)[0]
        codes = position._legal_codes()
        played = []
        for code in codes:
            position._make(code)
            if position.is_check():
                played.append(code)
            position._unmake()
        assert _checks(position, codes) == played, sfen
