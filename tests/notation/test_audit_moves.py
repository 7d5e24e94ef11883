"""Move readings an audit found wrong: each test failed on the reader before the fix.

The rules are those of the notation specification: a drop has no origin and no modifier,
`-` and `x` claim a board move, a base letter (`R`) is never silently a promoted piece
(`+R`), a modifier that contradicts the only candidate is refused, and an origin that is
the destination names no piece that could move there.
"""

from __future__ import annotations

import pytest

from rules import IllegalMoveError, IllegalReason, Move, Position
from rules.notation import AmbiguousMoveError, parse_move, read_kif

GOLD_IN_HAND = "lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1"
DRAGON_AND_ROOK = "4k4/9/9/9/9/9/9/9/1+R2K4 b R 1"  # the dragon on 8i reaches 8g; a rook in hand
START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"


def illegal(sfen: str, text: str, last_move: str | None = None) -> IllegalMoveError:
    last = Move.from_usi(last_move) if last_move else None
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(Position.from_sfen(sfen), text, last_move=last)
    return caught.value


@pytest.mark.parametrize("text", ["G69*58", "金(69)*58", "５八金打(69)", "G6i*5h"])
def test_a_drop_with_an_origin_is_refused(text: str) -> None:
    error = illegal(GOLD_IN_HAND, text)
    assert error.reason is IllegalReason.MALFORMED
    assert "has no origin" in str(error) and "6i" in str(error)
    assert parse_move(Position.from_sfen(GOLD_IN_HAND), "G*58").usi() == "G*5h"


@pytest.mark.parametrize("text", ["R-87", "Rx87", "R8g", "R-8g"])
def test_a_base_letter_with_a_board_mark_never_drops(text: str) -> None:
    if "-" not in text and "x" not in text:
        with pytest.raises(AmbiguousMoveError) as caught:
            parse_move(Position.from_sfen(DRAGON_AND_ROOK), text)
        assert [m.usi() for m in caught.value.candidates] == ["8i8g", "R*8g"]
        return
    error = illegal(DRAGON_AND_ROOK, text)
    assert error.reason is IllegalReason.NO_PIECE
    assert "+R-87" in str(error) and "R*87" in str(error)


def test_the_dragon_and_the_drop_are_read_when_written_as_such() -> None:
    position = Position.from_sfen(DRAGON_AND_ROOK)
    assert parse_move(position, "+R-87").usi() == "8i8g"
    assert parse_move(position, "D87").usi() == "8i8g"
    assert parse_move(position, "R*87").usi() == "R*8g"
    # With no promoted rook able to get there, the lenient reader still takes B-55 as a drop.
    assert parse_move(Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b B 1"), "B-55").usi() == "B*5e"


@pytest.mark.parametrize("text", ["５六歩右", "５六歩左"])
def test_a_modifier_contradicting_the_only_candidate_is_refused(text: str) -> None:
    error = illegal(START, text)
    assert error.reason is IllegalReason.NO_PIECE
    # Consistent superfluous modifiers stay harmless.
    assert parse_move(Position.from_sfen(START), "５六歩直").usi() == "5g5f"
    assert parse_move(Position.from_sfen(START), "５六歩上").usi() == "5g5f"


@pytest.mark.parametrize("text", ["５八金引打", "４八金右打", "５八金直打"])
def test_a_drop_with_a_modifier_is_refused(text: str) -> None:
    error = illegal(GOLD_IN_HAND, text)
    assert error.reason is IllegalReason.MALFORMED
    assert "marks a drop" in str(error)


def test_same_square_origin_names_the_missing_piece() -> None:
    after_bishop_trade = "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 4"
    error = illegal(after_bishop_trade, "同　銀(22)", last_move="8h2b+")
    assert error.reason is IllegalReason.NO_PIECE
    assert str(error) == "There is no silver on 2b: the piece there is a horse."
    record = "手合割：平手\n1 ７六歩(77)\n2 ３四歩(33)\n3 ２二角成(88)\n4 同　銀(22)\n"
    with pytest.raises(ValueError, match=r"Line 5, column 3: .*no silver on 2b"):
        read_kif(record)
