"""Every reason a record reader gives reaches the player as a `Sentence`, in their language.

A malformed record or board diagram is read through `read_record`, the entry point
`/board` and `/challenge` use; what is wrong in it must read in Japanese with no English
left but the player's own quoted text (and moves, codes and format names, as
`tests.support.japanese` allows), and in English must name the problem. A reader
that raises a plain `ValueError` would reach a player in English, so none may.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.ui.text import say
from rules import FormatError, Role, Sentence
from rules.notation import RecordError, read_record
from rules.notation.bod import kanji_number, read_hand, read_kanji_number
from rules.notation.records import because
from tests.support.japanese import english_in

NOTATION = Path(__file__).resolve().parents[2] / "rules" / "notation"

#: One malformed record per way a reader can find its text unreadable: the text, and
#: what its English reason must say.
MALFORMED: dict[str, tuple[str, str]] = {
    "csa-pi-removes-a-missing-piece": ("V2.2\nPI55KA\n+\n", "PI removes '55KA'"),
    "csa-pi-square": ("V2.2\nPI0XHI\n+\n", "'0X' is not a square"),
    "csa-p-row-too-long": (
        "V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY-FU\n+\n",
        "nine squares of three characters",
    ),
    "csa-p-row-too-short": ("V2.2\nP1-KY-KE\n+\n", "nine squares of three characters"),
    "csa-p-row-piece": ("V2.2\nP1-KY-KE-GI-KI-XX-KI-GI-KE-KY\n+\n", "'-XX' is not a piece"),
    "csa-pieces-length": ("V2.2\nP+00FU0\n+\n", "a square and a code, four characters"),
    "csa-piece-code": ("V2.2\nP+00XX\n+\n", "'XX' is not a piece code"),
    "csa-pieces-square": ("V2.2\nP-0AKA\n+\n", "'0A' is not a square"),
    "csa-king-in-hand": ("V2.2\nP+00OU\n+\n", "a king cannot be held in hand"),
    "csa-move-after-end": (
        "V2.2\nPI\n+\n+7776FU\n%TORYO\n-3334FU\n",
        "a move follows the end of the game",
    ),
    "csa-not-a-move": ("V2.2\nPI\n+\n+7776FU,Qx\n", "not a move, a time or an end code"),
    "csa-not-a-header": ("V2.2\nQx\n+\n", "not a CSA header line"),
    "bod-hand-piece": ("先手の持駒：象\n", "'象' is not a piece in hand"),
    "bod-hand-count": ("先手の持駒：歩xy\n", "'xy' is not a number of pieces"),
    "bod-hand-tens": ("後手の持駒：歩百十\n", "'百十' is not a number of pieces"),
    "bod-row-unclosed": ("|v香v桂v銀\n", "between two '|'"),
    "bod-row-short": ("|v香v桂|一\n", "nine squares of two characters"),
    "bod-row-piece": ("|v香v桂v銀v金v象v金v銀v桂v香|一\n", "'v象' is not a piece of a diagram"),
    "bod-moves-played": ("手数＝　まで\n", "does not say how many moves were played"),
    "bod-moves-played-digits": ("手数＝" + "9" * 5000 + "\n", "at most 6 digits"),
    "kif-move-number-digits": ("   " + "1" * 5000 + " ７六歩(77)\n", "at most 6 digits"),
    "bod-hand-items": ("先手の持駒：" + "歩 " * 39 + "\n", "at most 38 pieces"),
    "csa-pieces-count": ("V2.2\nP+" + "00AL" * 41 + "\n+\n", "at most 40 pieces"),
    # Reasons the readers had in the reader's language already: a move, an SFEN, a line.
    "kif-move": ("   1 ７六歩(77)\n   2 ５五飛(82)\n", "could not play '５五飛(82)'"),
    "usi-start": ("position sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1", "more than one sente king"),
    "ki2-not-a-line": ("これは何\n", "is not a header, diagram row or move"),
}


def reading_error(text: str) -> RecordError:
    with pytest.raises(RecordError) as raised:
        read_record(text)
    return raised.value


@pytest.mark.parametrize("name", list(MALFORMED))
def test_the_reason_names_the_problem_in_english(name: str) -> None:
    text, says = MALFORMED[name]
    error = reading_error(text)
    english = str(error)
    assert says in english and english.startswith("Line "), english


@pytest.mark.parametrize("name", list(MALFORMED))
def test_the_reason_reads_in_japanese(name: str) -> None:
    error = reading_error(MALFORMED[name][0])
    japanese = say("ja", error.sentence)
    assert japanese.startswith(f"{error.line}行目"), japanese
    assert english_in(japanese) == [], japanese


def test_a_diagram_hand_reads_every_count_it_writes() -> None:
    """The stricter reading of counts refuses none that a diagram writes."""
    assert [read_kanji_number(kanji_number(n)) for n in range(1, 19)] == list(range(1, 19))
    hand = read_hand("歩十八　香二　桂")
    assert hand == {Role.PAWN: 18, Role.LANCE: 2, Role.KNIGHT: 1}


def test_an_error_without_a_sentence_is_a_readers_bug() -> None:
    """Shown to a player it would be English; `because` refuses it instead."""
    with pytest.raises(TypeError, match="no sentence"):
        because(ValueError("an English detail"))
    reason = Sentence("a move follows the end of the game.")
    assert because(FormatError(reason)) is reason


def _bare_value_errors(path: Path) -> list[str]:
    """Where `path` raises a plain `ValueError`, by function."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for function in ast.walk(tree):
        if not isinstance(function, ast.FunctionDef):
            continue
        for node in ast.walk(function):
            if (
                isinstance(node, ast.Raise)
                and isinstance(node.exc, ast.Call)
                and isinstance(node.exc.func, ast.Name)
                and node.exc.func.id == "ValueError"
            ):
                found.append(f"{path.name}:{function.name}")
    return found


#: Plain `ValueError`s of the notation package that are a caller's mistake (a style or
#: format name, a comment's ply), never a record's text, so no player reads them.
CALLERS_MISTAKES = {
    "charsets.py:encode_record",
    "common.py:style_name",
    "files.py:read_record",
    "files.py:write_record_file",
    "files.py:write_record",
    "parse.py:parse_move",
    "records.py:place_comments",
    "write.py:format_move",
}


def test_the_readers_raise_no_plain_value_error() -> None:
    """A reader's text problem is a `FormatError` with a sentence, not a `ValueError`."""
    found = {where for path in sorted(NOTATION.glob("*.py")) for where in _bare_value_errors(path)}
    assert found - CALLERS_MISTAKES == set(), "raise FormatError(Sentence(...)) instead"
    assert found >= CALLERS_MISTAKES, "a caller's mistake listed here is gone: drop it"
