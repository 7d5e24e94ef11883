"""Every labelled rule case of tests/data/rules-cases.json holds.

The cases (copied from the project's shared data; each expectation was checked
against an independent rules library) cover legality with its reason, check,
mate, the no-move loss, repetition and perpetual check, and the impasse rules.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import Color, Game, InvalidMoveError, Move, Position, Termination, impasse

CASES: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "data" / "rules-cases.json").read_text(encoding="utf-8")
)["cases"]
RESULTS = {"sente_wins": Color.SENTE, "gote_wins": Color.GOTE, "draw": None}


def _key_position(case: dict[str, Any]) -> Position:
    position = Position.from_sfen(case["sfen"])
    for usi in case["moves_before"]:
        position.push(Move.from_usi(usi))
    return position


def _color(name: str) -> Color:
    return Color.SENTE if name == "sente" else Color.GOTE


def _by_kind(*kinds: str) -> list[Any]:
    return [pytest.param(c, id=c["id"]) for c in CASES if c["kind"] in kinds]


@pytest.mark.parametrize(
    "case", [pytest.param(c, id=c["id"]) for c in CASES if "legal" in c["expect"]]
)
def test_legality_and_reason(case: dict[str, Any]) -> None:
    position = _key_position(case)
    expect = case["expect"]
    try:
        move = Move.from_usi(case["move"])
    except InvalidMoveError:
        assert expect == {"legal": False, "reason": "malformed"}
        return
    assert position.is_legal(move) is expect["legal"]
    if not expect["legal"]:
        error = position.explain_illegal(move)
        assert error.reason.value == expect["reason"]
        before = position.sfen()
        with pytest.raises(type(error)):
            position.push(move)
        assert position.sfen() == before
        return
    after = expect.get("after")
    if after:
        position.push(move)
        moves = position.legal_moves()
        assert position.is_check() is after["check"]
        assert position.is_checkmate() is after["checkmate"]
        if "stalemate" in after:
            assert position.is_stalemate() is after["stalemate"]
        if "legal_move_count" in after:
            assert len(moves) == after["legal_move_count"]
        if "legal_moves" in after:
            assert sorted(m.usi() for m in moves) == sorted(after["legal_moves"])


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES if c["move"] is None])
def test_key_moment(case: dict[str, Any]) -> None:
    position = _key_position(case)
    expect = case["expect"]
    if "terminal" in expect:
        assert position.is_checkmate() is expect["terminal"]["checkmate"]
        assert position.is_stalemate() is expect["terminal"]["stalemate"]
    if "legal_moves" in expect:
        assert sorted(m.usi() for m in position.legal_moves()) == sorted(expect["legal_moves"])
        assert position.legal_move_count() == expect["legal_move_count"]


@pytest.mark.parametrize(
    "case",
    _by_kind("checkmate", "stalemate_loss", "sennichite_draw", "perpetual_check_loss"),
)
def test_game_result(case: dict[str, Any]) -> None:
    moves = case["moves_before"] + ([case["move"]] if case["move"] else [])
    game = Game(case["sfen"], moves)
    expect = case["expect"]
    if "occurrences" in expect:
        assert game.occurrences() == expect["occurrences"]
    if expect.get("result") is None:
        assert game.outcome is None
        return
    assert game.outcome is not None
    assert game.outcome.termination is Termination(expect["termination"])
    assert game.outcome.winner is RESULTS[expect["result"]]


def test_sennichite_game_refuses_further_moves() -> None:
    case = next(c for c in CASES if c["id"] == "sennichite_different_paths")
    game = Game(case["sfen"], case["moves_before"])
    with pytest.raises(ValueError):
        game.push(Move.from_usi("5i5h"))
    assert len(game.moves) == len(case["moves_before"])


@pytest.mark.parametrize("case", _by_kind("impasse27"))
def test_declaration_27(case: dict[str, Any]) -> None:
    position = _key_position(case)
    expect = case["expect"]
    declarer = _color(expect["declarer"])
    plain = impasse.evaluate_27(position, declarer)
    assert plain.verdict.value == expect["declaration"]
    assert (plain.reason is None) == (plain.verdict is impasse.Verdict.WIN)
    if "initial_sfen" in case:
        missing = impasse.missing_points(Position.from_sfen(case["initial_sfen"]))
        aware = impasse.evaluate_27(position, declarer, missing=missing)
        assert aware.verdict.value == expect["declaration_27H"]
        assert aware.points == expect["points"]
        assert aware.required == expect["required_27H"]
    if "result" in expect:
        game = Game(case["sfen"], case["moves_before"])
        outcome = game.declare(declarer, handicap_aware=False, failed_loses=True)
        assert outcome.termination is Termination.IMPASSE_27
        assert outcome.winner is RESULTS[expect["result"]]
    if expect.get("sente_would_qualify_on_its_turn"):
        fields = position.sfen().split()
        fields[1] = "b"
        flipped = Position.from_sfen(" ".join(fields))
        assert impasse.evaluate_27(flipped, Color.SENTE).verdict is impasse.Verdict.WIN


def test_failed_declaration_is_refused_without_ending_the_game() -> None:
    case = next(c for c in CASES if c["id"] == "impasse27_only_9_pieces")
    game = Game(case["sfen"])
    with pytest.raises(ValueError, match="10 pieces"):
        game.declare(Color.SENTE)
    assert game.outcome is None


@pytest.mark.parametrize("case", _by_kind("impasse_jsa24"))
def test_declaration_jsa24(case: dict[str, Any]) -> None:
    position = _key_position(case)
    expect = case["expect"]
    declaration = impasse.evaluate_jsa24(position, _color(expect["declarer"]))
    assert declaration.verdict.value == expect["declaration_jsa24"]
    assert declaration.points == expect["points"]


@pytest.mark.parametrize("case", _by_kind("impasse24"))
def test_agreed_count_24(case: dict[str, Any]) -> None:
    position = _key_position(case)
    expect = case["expect"]
    raw = impasse.count_24(position)
    assert raw.applicable is expect["applicable"]
    assert (raw.sente_points, raw.gote_points) == (
        expect["points"]["sente"],
        expect["points"]["gote"],
    )
    if "initial_sfen" in case:
        game = Game(case["initial_sfen"])
        missing = game.missing_points()
        adjusted = impasse.count_24(position, missing=missing)
        jsa = expect["points_jsa_handicap"]
        assert (adjusted.sente_points, adjusted.gote_points) == (jsa["sente"], jsa["gote"])
        assert adjusted.winner is RESULTS[expect["result"]]
        assert raw.winner is RESULTS[expect["result_without_handicap_adjustment"]]
    else:
        assert raw.winner is RESULTS[expect["result"]]
        game = Game(case["sfen"], case["moves_before"])
        outcome = game.settle_by_count()
        assert outcome.termination is Termination.IMPASSE_24
        assert outcome.winner is RESULTS[expect["result"]]


def test_count_refused_until_both_kings_entered() -> None:
    game = Game()
    with pytest.raises(ValueError, match="Both kings"):
        game.settle_by_count()
    assert game.outcome is None


def test_every_case_is_exercised() -> None:
    """Guards against a case kind that no test above looks at."""
    covered = {
        "uchifuzume",
        "nifu",
        "dead_drop",
        "checks",
        "forced_promotion",
        "pins",
        "illegal_move",
        "checkmate",
        "stalemate_loss",
        "sennichite_draw",
        "perpetual_check_loss",
        "impasse27",
        "impasse_jsa24",
        "impasse24",
    }
    assert {c["kind"] for c in CASES} <= covered
