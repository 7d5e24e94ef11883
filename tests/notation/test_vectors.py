"""Every vector of tests/data/notation-vectors.json (specification section 9)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from rules import IllegalMoveError, InvalidMoveError, Move
from rules.notation import AmbiguousMoveError, format_move, parse_move

from .support import load_vectors, vector_position

VECTORS = load_vectors()


def _id(vector: dict[str, Any]) -> str:
    return f"{vector['style']}:{vector['input']}"


def one_sentence(message: str) -> bool:
    """One sentence a player can act on: no line break, one final full stop."""
    return (
        bool(message)
        and "\n" not in message
        and message.endswith(".")
        and re.search(r"[.!?]\s+[A-Z]", message) is None
        and not message[0].islower()
    )


def outcome(vector: dict[str, Any], style: str | None) -> tuple[str, object]:
    position = vector_position(vector["sfen"])
    last_move = Move.from_usi(vector["last_move"]) if vector.get("last_move") else None
    try:
        move = parse_move(position, vector["input"], last_move=last_move, style=style)
    except AmbiguousMoveError as error:
        assert one_sentence(str(error)), str(error)
        return "ambiguous", sorted(candidate.usi() for candidate in error.candidates)
    except IllegalMoveError as error:
        assert one_sentence(str(error)), str(error)
        return "illegal", error.reason
    except InvalidMoveError as error:
        assert one_sentence(str(error)), str(error)
        return "unparseable", None
    assert position.is_legal(move)
    return "ok", move.usi()


def test_the_vectors_are_all_there() -> None:
    assert len(VECTORS) == 175


@pytest.mark.parametrize("vector", VECTORS, ids=_id)
def test_vector(vector: dict[str, Any]) -> None:
    style = None if vector["style"] == "lenient" else vector["style"]
    kind, value = outcome(vector, style)
    if vector["expect_usi"] is not None:
        assert (kind, value) == ("ok", vector["expect_usi"])
    else:
        assert kind == vector["expect_error"]
        if kind == "ambiguous":
            assert value == sorted(vector["candidates"])


LENIENT_TWINS = {(v["sfen"], v["input"]) for v in VECTORS if v["style"] == "lenient"}


@pytest.mark.parametrize(
    "vector",
    [
        v
        for v in VECTORS
        if v["style"] != "lenient" and (v["sfen"], v["input"]) not in LENIENT_TWINS
    ],
    ids=_id,
)
def test_auto_detection_agrees_with_the_named_style(vector: dict[str, Any]) -> None:
    """Read without naming the notation, every strict vector means the same."""
    assert outcome(vector, None) == outcome(vector, vector["style"])


# Vectors whose input is deliberately not what the JSA writer produces, and why.
NOT_CANONICAL = {
    "２二角不成(88)": "KIF origin",
    "２二角(88)": "KIF origin",
    "２二角成(88)": "KIF origin",
    "５五角打": "KIF writes 打 on every drop",
    "▲２二角生": "生 is the short form of 不成",
    "▲７六歩不成": "不成 where promotion is impossible",
    "▲２一歩": "成 omitted on a forced promotion",
    "▲８八竜左上": "over-specified",
    "☗８七龍直": "直 is never written for a dragon",
    "▲５三銀不成": "legal-set style; the writer counts the pinned silver (section 3.4)",
}


@pytest.mark.parametrize(
    "vector",
    [v for v in VECTORS if v["style"] == "japanese" and v["expect_usi"]],
    ids=_id,
)
def test_japanese_writer_reproduces_the_vector_text(vector: dict[str, Any]) -> None:
    position = vector_position(vector["sfen"])
    last_move = Move.from_usi(vector["last_move"]) if vector.get("last_move") else None
    move = Move.from_usi(vector["expect_usi"])
    written = format_move(position, move, "japanese", last_move=last_move)
    expected = vector["input"].lstrip("▲△☗☖▼▽").replace("龍", "竜")
    if vector["input"] in NOT_CANONICAL:
        assert written != expected
    else:
        assert written == expected
    assert parse_move(position, written, last_move=last_move) == move
