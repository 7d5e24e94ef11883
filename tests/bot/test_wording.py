"""Wording a shogi club reads in both languages: counts in the form their number takes
("1 blunder", "2 blunders"; Japanese has one form), Japanese lists set with 、, time
controls that do not say 持ち時間 twice, `/jishogi` that speaks of the game's own rule,
moves echoed in the Western notation the help teaches, and `/help` in sections."""

from __future__ import annotations

import pytest

from bot.services import Analysis, Mark, MarkedMove, MoveText
from bot.ui import text
from rules import Color, Game, Outcome, Position, Termination
from rules.impasse import evaluate_27
from tests.support.snapshots import game_view

SEVEN_SIX = MoveText("7g7f", "７六歩", "P-7f")


def _analysis(mistakes: int, blunders: int) -> Analysis:
    """An analysis where sente made `mistakes` mistakes and `blunders` blunders."""
    marks = [MarkedMove(1, Color.SENTE, SEVEN_SIX, None, 150, Mark.MISTAKE)] * mistakes
    marks += [MarkedMove(1, Color.SENTE, SEVEN_SIX, None, 400, Mark.BLUNDER)] * blunders
    view = game_view(Game(moves=["7g7f"]), Outcome(Termination.RESIGNATION, Color.SENTE))
    return Analysis(game=view, scores=(0, -400), marks=tuple(marks), stored=True)


@pytest.mark.parametrize(
    ("lang", "counts", "line"),
    [
        ("en", (0, 1), "☗alice: 0 mistakes, 1 blunder"),
        ("en", (1, 0), "☗alice: 1 mistake, 0 blunders"),
        ("en", (2, 2), "☗alice: 2 mistakes, 2 blunders"),
        ("ja", (0, 1), "☗alice：悪手0、大悪手1"),
        ("ja", (1, 0), "☗alice：悪手1、大悪手0"),
        ("ja", (2, 2), "☗alice：悪手2、大悪手2"),
    ],
)
def test_an_analysis_counts_mistakes_and_blunders_in_their_form(
    lang: str, counts: tuple[int, int], line: str
) -> None:
    assert line in text.analysis_text(lang, _analysis(*counts)).splitlines()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["0 games", "1 game", "2 games", "0 rated games", "1 rated game", "2 rated games"]),
        (
            "ja",
            [
                "0局",
                "1局",
                "2局",
                "レーティング対局0局",
                "レーティング対局1局",
                "レーティング対局2局",
            ],
        ),
    ],
)
def test_a_number_of_games_takes_its_form(lang: str, said: list[str]) -> None:
    plain = [text.games_count(lang, n) for n in (0, 1, 2)]
    rated = [text.games_count(lang, n, rated=True) for n in (0, 1, 2)]
    assert plain + rated == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["Deleted 0 notes.", "Deleted 1 note.", "Deleted 2 notes."]),
        ("ja", ["メモを0件削除しました。", "メモを1件削除しました。", "メモを2件削除しました。"]),
    ],
)
def test_deleted_notes_are_counted_in_their_form(lang: str, said: list[str]) -> None:
    assert [text.notes_text(lang, 7, [], deleted=n).splitlines()[0] for n in (0, 1, 2)] == said


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", ["there are 0.", "there is 1.", "there are 2."]),
        ("ja", ["（今は0枚です）。", "（今は1枚です）。", "（今は2枚です）。"]),
    ],
)
def test_a_refusal_with_a_count_takes_its_form(lang: str, said: list[str]) -> None:
    """The rules' reason why an impasse cannot be declared yet, as the bot says it."""
    reasons = []
    for pieces in (0, 1, 2):
        camp = "+P" * pieces + str(9 - pieces) if pieces else "9"
        sfen = f"{camp}/9/4K4/9/9/9/9/9/8k b - 1"
        verdict = evaluate_27(Position.from_sfen(sfen), Color.SENTE)
        assert verdict.reason is not None
        reasons.append(text.say(lang, verdict.reason))
    assert [reason.endswith(end) for reason, end in zip(reasons, said, strict=True)] == [True] * 3
