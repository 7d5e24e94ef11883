"""The wording of a game set up after move 30 numbers its moves as its record does: the
ending, the text diagram, the animation's caption, the analysis's marked moves, the
`game` option's suggestions and the chart's axis, in both languages; a game from the
usual start keeps its plies as its move numbers."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.services import (
    Analysis,
    GameSummary,
    Mark,
    MarkedMove,
    MoveText,
    Numbering,
    PlayerRef,
    Result,
    read_position,
)
from bot.services.records.replays import step_at
from bot.ui import text
from render import render_evaluation_chart
from render.chart import HEIGHT
from rules import Color, Game, Outcome, Termination
from tests.support.snapshots import BOB, game_view

from ..render.test_chart import decode

AT_31 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 31"
SEVEN_SIX = MoveText("7g7f", "７六歩", "P-76")


def test_the_ending_and_the_diagram_name_the_records_move_number() -> None:
    resigned = Outcome(Termination.RESIGNATION, Color.SENTE)
    view = game_view(Game(AT_31, ["7g7f"]), resigned)
    assert "resigned after move 31" in text.result_text("en", resigned, view)
    assert text.result_text("ja", resigned, view).startswith("まで31手で")
    assert "Move 31 · Sente wins by resignation" in text.text_diagram("en", view)
    assert "from the start to move 31" in text.animation_export_caption("en", view)
    usual = game_view(Game(moves=["7g7f"]), resigned)
    assert text.result_text("ja", resigned, usual).startswith("まで1手で")


@pytest.mark.parametrize(("lang", "line"), [("en", "31. ☗７六歩"), ("ja", "31手目 ☗７六歩")])
def test_the_analysis_marks_moves_by_their_number(lang: str, line: str) -> None:
    view = game_view(Game(AT_31, ["7g7f"]), Outcome(Termination.RESIGNATION, Color.SENTE))
    blunder = MarkedMove(1, Color.SENTE, SEVEN_SIX, None, 400, Mark.BLUNDER)
    analysis = Analysis(game=view, scores=(0, -400), marks=(blunder,), stored=True)
    assert line in text.analysis_text(lang, analysis)


def test_the_game_option_suggests_the_move_number() -> None:
    line = GameSummary(
        id=4, opponent=BOB, your_color=Color.SENTE, your_turn=False, ply=1, deadline=None,
        thread_id=None, guild_id=1, numbering=Numbering(30),
    )  # fmt: skip
    assert "move 31" in text.game_choice("en", line)
    done = GameSummary(
        id=4, opponent=PlayerRef(2, "bob"), your_color=Color.SENTE, your_turn=False, ply=1,
        deadline=None, thread_id=None, guild_id=1, result=Result.WON,
        finished_at=datetime(2026, 11, 24, tzinfo=UTC), numbering=Numbering(30),
    )  # fmt: skip
    assert "31手で" in text.game_choice("ja", done)
    assert "won after move 31" in text.game_choice("en", done)  # one move played, not 31


def test_the_charts_axis_starts_at_the_games_first_number() -> None:
    """The same curve, only the x axis's numbers differ."""
    scores = [0, 100, -100, 50]
    usual = decode(render_evaluation_chart(scores, cap=3000))
    shifted = decode(render_evaluation_chart(scores, cap=3000, moves_before=30))
    axis = (0, HEIGHT - 28, usual.width, HEIGHT)
    plot = (0, 0, usual.width, HEIGHT - 30)
    assert usual.crop(plot).tobytes() == shifted.crop(plot).tobytes()
    assert usual.crop(axis).tobytes() != shifted.crop(axis).tobytes()


def test_replay_and_board_name_the_last_number_not_a_count() -> None:
    """A game from move 30 that played one move has one move, not 31: the replay and a
    shown record say up to which number they go, never a total of that number."""
    view = game_view(Game(AT_31, ["7g7f"]))
    start, end = step_at(view, 0), step_at(view, 1)
    assert "start position (the game goes to move 31)" in text.replay_text("en", start)
    assert "開始局面（31手まで）" in text.replay_text("ja", start)
    assert "31手目（31手まで）" in text.replay_text("ja", end)
    shown = read_position(AT_31)
    assert text.position_caption("en", shown).startswith("Move 30 of 30")
    assert "全" not in text.position_caption("ja", shown)
    assert "30手目（30手まで）" in text.position_caption("ja", shown)
