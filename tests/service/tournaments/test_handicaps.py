"""Handicaps by rating difference: the documented default table, a club's own table read
from its text, and every way a table can be written wrong refused in one sentence."""

from __future__ import annotations

import pytest

from bot.services.tournaments.handicaps import (
    DEFAULT_PATH,
    MAX_STEPS,
    BadHandicapTable,
    HandicapTable,
)
from rules import Handicap


@pytest.mark.parametrize(
    ("difference", "expected"),
    [
        (0, Handicap.EVEN),
        (99, Handicap.EVEN),
        (100, Handicap.EVEN),
        (200, Handicap.LANCE),
        (-250, Handicap.LANCE),
        (300, Handicap.BISHOP),
        (400, Handicap.ROOK),
        (500, Handicap.ROOK_LANCE),
        (600, Handicap.TWO_PIECE),
        (799.5, Handicap.TWO_PIECE),
        (800, Handicap.FOUR_PIECE),
        (1000, Handicap.SIX_PIECE),
        (1200, Handicap.EIGHT_PIECE),
        (5000, Handicap.EIGHT_PIECE),
    ],
)
def test_the_default_table(difference: float, expected: Handicap) -> None:
    assert HandicapTable.default().handicap_for(difference) is expected


def test_the_default_is_the_documented_file() -> None:
    lines = [
        line for line in DEFAULT_PATH.read_text(encoding="utf-8").splitlines() if line[:1].isdigit()
    ]
    assert len(lines) == len(HandicapTable.default().steps) == 10
    assert HandicapTable.default().text() == "\n".join(lines) + "\n"


def test_the_stronger_player_gives_the_handicap() -> None:
    table = HandicapTable.default()
    lance = table.terms(7, 1500, 8, 1760)
    assert (lance.handicap, lance.giver, lance.receiver, lance.sente) == (
        Handicap.LANCE,
        8,
        7,
        None,
    )
    even = table.terms(7, 1500, 8, 1550)
    assert (even.handicap, even.sente) == (Handicap.EVEN, None)  # by lot
    sente = table.terms(7, 1690, 8, 1550)
    assert (sente.handicap, sente.giver, sente.sente) == (Handicap.EVEN, 7, 8)


def test_a_clubs_own_table_round_trips() -> None:
    text = "# our club\n0 平手\n\n150 Lance\n300 rook\n450 two_piece\n"
    table = HandicapTable.parse(text)
    assert [(s.difference, s.handicap) for s in table.steps] == [
        (0, Handicap.EVEN),
        (150, Handicap.LANCE),
        (300, Handicap.ROOK),
        (450, Handicap.TWO_PIECE),
    ]
    assert HandicapTable.parse(table.text()) == table


@pytest.mark.parametrize(
    ("text", "template"),
    [
        ("", "A handicap table's first line starts at 0."),
        ("100 香落ち", "A handicap table's first line starts at 0."),
        ("0 平手\n200 香落ち\n200 角落ち", "In a handicap table each difference is larger"),
        ("0 平手\n300 香落ち\n200 角落ち", "In a handicap table each difference is larger"),
        ("0", "write a rating difference and a handicap"),
        ("0 平手 先 先", "write a rating difference and a handicap"),
        ("-5 平手", "write a rating difference and a handicap"),
        ("１００ 平手", "write a rating difference and a handicap"),
        ("0 平手\n99999 香落ち", "a difference is at most"),
        ("0 平手\n100 九枚落ち", "is not a handicap"),
        ("0 平手\n100 香落ち 先", "only 平手 may be followed by 先"),
        ("0 平手 後", "only 平手 may be followed by 先"),
        ("\n".join(f"{i} 平手" for i in range(MAX_STEPS + 1)), "at most {count} lines"),
        ("#" * 3000, "at most {count} characters"),
    ],
)
def test_a_table_written_wrong_is_refused_in_one_sentence(text: str, template: str) -> None:
    with pytest.raises(BadHandicapTable) as refused:
        HandicapTable.parse(text)
    assert template in refused.value.sentence.template
    assert "\n" not in refused.value.message


def test_a_long_unknown_name_is_cut_in_the_sentence() -> None:
    with pytest.raises(BadHandicapTable) as refused:
        HandicapTable.parse("0 " + "x" * 1000)
    assert len(refused.value.message) < 200
