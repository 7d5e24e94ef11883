"""A shown record's result in words, for every ending a record can state, in both languages."""

from __future__ import annotations

import pytest

from bot.services import read_position
from bot.ui import text
from rules import Color, Game, Outcome, Termination
from rules.notation import write_kif


def _ended(outcome: Outcome) -> Game:
    game = Game(moves=["7g7f", "3c3d"])
    game.set_outcome(outcome)
    return game


MATE = Game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", ["G*5b"])
CASES = [
    (
        Termination.RESIGNATION,
        Color.GOTE,
        "Gote won by resignation at move 2.",
        "まで2手で後手の勝ち。",
    ),
    (
        Termination.TIME,
        Color.SENTE,
        "Sente won on time at move 2.",
        "まで2手で時間切れにより先手の勝ち。",
    ),
    (Termination.SENNICHITE, None, "Sennichite at move 2: a draw.", "まで2手で千日手。"),
    (
        Termination.IMPASSE_27,
        Color.SENTE,
        "Sente won by an impasse declaration at move 2.",
        "まで2手で先手の入玉勝ち。",
    ),
    (Termination.IMPASSE_24, None, "Jishogi at move 2: a draw.", "まで2手で持将棋。"),
    (
        Termination.FOUL,
        Color.SENTE,
        "Sente won by an illegal move at move 2.",
        "まで2手で先手の反則勝ち。",
    ),
]


@pytest.mark.parametrize(("ending", "winner", "english", "japanese"), CASES)
def test_each_ending_is_said_in_both_languages(
    ending: Termination, winner: Color | None, english: str, japanese: str
) -> None:
    _said_in_both(_ended(Outcome(ending, winner)), english, japanese)


def test_a_mate_is_said_so() -> None:
    _said_in_both(MATE, "Sente won by checkmate at move 1.", "まで1手で先手の勝ち（詰み）。")


def _said_in_both(game: Game, english: str, japanese: str) -> None:
    shown = read_position(write_kif(game))
    assert text.record_result("en", shown) == english
    assert text.record_result("ja", shown) == japanese
    assert english in text.position_caption("en", shown)
    assert japanese in text.position_caption("ja", shown)


def test_an_aborted_record_says_so_and_a_game_going_on_says_nothing() -> None:
    aborted = Game(moves=["7g7f"])
    aborted.abort()
    shown = read_position(write_kif(aborted))
    assert text.record_result("en", shown) == "Aborted at move 1, without a result."
    assert text.record_result("ja", shown) == "まで1手で中断。"
    assert text.record_result("en", read_position(write_kif(Game(moves=["7g7f"])))) is None
