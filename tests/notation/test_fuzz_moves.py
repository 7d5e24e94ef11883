"""Arbitrary text fed to parse_move: only the documented errors ever come out."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules import IllegalMoveError, InvalidMoveError, Move, Position
from rules.notation import AmbiguousMoveError, parse_move

from .support import MATSURI

POSITIONS = [
    Position.initial(),
    Position.from_sfen(MATSURI),
    Position.from_sfen("lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"),
    Position.initial("two_piece"),
]
LAST_MOVES = [None, Move.from_usi("7g7f"), Move.from_usi("P*5e"), Move.from_usi("3c3d")]

# Characters every grammar is built from, so that the fuzzer reaches deep into them.
ALPHABET = (
    "0123456789abcdefghiABCDEFGHIKLNPRSTDHx*'+-=() 　"
    "１２３４５６７８９一二三四五六七八九同歩香桂銀金角飛玉王と成不生打右左直上引寄行馬竜龍全圭杏"
    "▲△☗☖▼▽ＰＸ－ー"
)
DOCUMENTED = (InvalidMoveError, IllegalMoveError, AmbiguousMoveError)


def _check(position: Position, text: str, last_move: Move | None) -> None:
    try:
        move = parse_move(position, text, last_move=last_move)
    except AmbiguousMoveError as error:
        assert error.candidates and all(position.is_legal(m) for m in error.candidates)
        assert str(error)
    except DOCUMENTED as error:
        assert str(error)
    else:
        assert position.is_legal(move)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.sampled_from(POSITIONS),
    st.text(alphabet=ALPHABET, max_size=14),
    st.sampled_from(LAST_MOVES),
)
def test_grammar_shaped_text(position: Position, text: str, last_move: Move | None) -> None:
    _check(position, text, last_move)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(POSITIONS), st.text(max_size=40), st.sampled_from(LAST_MOVES))
def test_any_text(position: Position, text: str, last_move: Move | None) -> None:
    _check(position, text, last_move)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(POSITIONS), st.sampled_from(["usi", "csa", "western", "japanese", "kif"]),
       st.text(alphabet=ALPHABET, max_size=12))  # fmt: skip
def test_strict_styles(position: Position, style: str, text: str) -> None:
    try:
        move = parse_move(position, text, style=style)
    except DOCUMENTED:
        return
    assert position.is_legal(move)


def test_non_text_is_invalid() -> None:
    for value in (None, 76, b"7g7f"):
        try:
            parse_move(POSITIONS[0], value)  # type: ignore[arg-type]
        except InvalidMoveError:
            continue
        raise AssertionError(f"{value!r} was accepted")
