"""The board in words: the alt text and the text diagram read back into the position they
describe, within Discord's limits in both languages."""

from __future__ import annotations

import pytest

from bot.services import GameSnapshot, PlayerRef
from bot.ui import text
from bot.ui.text.records.board import ALT_TEXT_LIMIT, fit_sentences
from rules import Color, Game, Handicap, Outcome, Position, Termination
from tests.support.boardwords import alt_text_position, board_part, diagram_position
from tests.support.snapshots import ALICE, BOB, game_view

LANGUAGES = ["en", "ja"]
OPENING = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d"]
#: Every piece that can promote promoted, on the board: the longest lists of squares.
CROWDED = (
    "+L+N+S1k1+S+N+L/1+R5+B1/+P+P+P+P+P+P+P+P+P/9/9/9/+p+p+p+p+p+p+p+p+p/1+b5+r1/+l+n+s1K1+s+n+l"
    " b 2G2g 1"
)
#: As many kinds as the hands can hold, with counts above nine.
FULL_HANDS = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
POSITIONS = [Position.initial().sfen(), CROWDED, FULL_HANDS]
LONG = PlayerRef(1, "W" * 32)  # Discord's longest display name


def view_of(
    sfen: str, outcome: Outcome | None = None, *, sente: PlayerRef = ALICE, gote: PlayerRef = BOB
) -> GameSnapshot:
    """A game that starts at `sfen`, with no move played yet."""
    return game_view(Game(sfen), outcome, sente=sente, gote=gote)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("sfen", POSITIONS)
def test_the_alt_text_reads_back_as_the_position(lang: str, sfen: str) -> None:
    view = view_of(sfen)
    alt = text.board_alt_text(lang, view)
    assert alt_text_position(lang, alt) == board_part(view.game.position)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_alt_text_of_a_game_says_the_turn_the_last_move_and_the_position(lang: str) -> None:
    view = game_view(Game(moves=OPENING))
    alt = text.board_alt_text(lang, view)
    assert alt_text_position(lang, alt) == board_part(view.game.position)
    assert ("Sente to move" if lang == "en" else "先手番") in alt
    assert "７六歩" in alt  # the last move as the game's record writes it
    if lang == "en":
        assert "Gote in hand: bishop." in alt and "golds 4i, 6i" in alt
    else:
        assert "後手の持駒：角。" in alt and "金４九・６九" in alt


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_worst_case_stays_within_discords_limit_in_whole_sentences(lang: str) -> None:
    for sfen in (CROWDED, FULL_HANDS):
        view = view_of(
            sfen, Outcome(Termination.PERPETUAL_CHECK, Color.GOTE), sente=LONG, gote=LONG
        )
        alt = text.board_alt_text(lang, view)
        assert len(alt) <= ALT_TEXT_LIMIT
        assert alt_text_position(lang, alt) == board_part(view.game.position)


def test_too_much_is_left_out_by_whole_sentences() -> None:
    sentences = ["First one.", "Second sentence here.", "Third."]
    whole = "First one. Second sentence here. Third."
    assert fit_sentences("en", sentences, limit=100) == whole
    assert fit_sentences("en", sentences, limit=30) == "First one. …"
    assert fit_sentences("ja", ["一つ目。", "二つ目の文。"], limit=8) == "一つ目。…"
    for limit in range(12, 40):
        cut = fit_sentences("en", sentences, limit=limit)
        assert len(cut) <= limit
        assert cut.removesuffix(" …") in {"First one.", "First one. Second sentence here.", whole}


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("sfen", POSITIONS)
def test_the_text_diagram_reads_back_as_the_position(lang: str, sfen: str) -> None:
    view = view_of(sfen)
    diagram = text.text_diagram(lang, view)
    assert diagram.startswith("```\n") and diagram.endswith("\n```")
    assert len(diagram) < 2000
    assert diagram_position(lang, diagram) == board_part(view.game.position)


def test_the_japanese_diagram_is_the_kif_one_with_the_turn_and_move_count() -> None:
    view = game_view(Game(moves=OPENING[:5]))
    diagram = text.text_diagram("ja", view)
    lines = diagram.split("\n")
    assert lines[1] == "後手の持駒：角"
    assert "|v香v桂v銀v金v玉v金 ・v桂v香|一" in lines
    assert lines[-3:] == ["後手番", "手数＝5", "```"]


def test_the_english_diagram_uses_the_letters_of_western_notation() -> None:
    view = game_view(Game(moves=OPENING))
    diagram = text.text_diagram("en", view)
    assert "| .  .  .  .  .  B  .  .  . |e" in diagram  # the bishop dropped on 4e
    assert "Gote in hand: bishop." in diagram
    assert diagram.split("\n")[-3:] == ["Sente to move", "Move 6", "```"]
    over = game_view(Game(moves=OPENING), Outcome(Termination.RESIGNATION, Color.GOTE))
    finished = text.text_diagram("en", over)
    assert "to move" not in finished
    assert finished.split("\n")[-2] == "Move 6 · Gote wins by resignation"


def test_a_handicap_diagram_names_the_upper_and_lower_hands() -> None:
    game = Game(Position.initial(Handicap.TWO_PIECE))
    diagram = text.text_diagram("ja", game_view(game, handicap=Handicap.TWO_PIECE))
    assert "上手の持駒：なし" in diagram and "下手の持駒：なし" in diagram
    assert "上手番" in diagram  # the giver moves first


@pytest.mark.parametrize(
    ("outcome", "english", "japanese"),
    [
        (
            Outcome(Termination.CHECKMATE, Color.SENTE),
            "Sente wins by checkmate",
            "先手の勝ち（詰み）",
        ),
        (
            Outcome(Termination.RESIGNATION, Color.GOTE),
            "Gote wins by resignation",
            "後手の勝ち（投了）",
        ),
        (Outcome(Termination.TIME, Color.GOTE), "Gote wins on time", "後手の勝ち（時間切れ）"),
        (Outcome(Termination.SENNICHITE, None), "sennichite, a draw", "まで6手で千日手"),
        (Outcome(Termination.IMPASSE_24, None), "jishogi, a draw", "まで6手で持将棋"),
        (Outcome(Termination.ABORT, None), "aborted", "まで6手で中止"),
    ],
)
def test_the_result_the_final_board_shows(outcome: Outcome, english: str, japanese: str) -> None:
    view = game_view(Game(moves=OPENING), outcome)
    assert text.image_result("en", view) == f"Move 6 · {english}"
    assert japanese in text.image_result("ja", view)
