"""The rules' sentences: every error a player reads carries a `Sentence`, and every
template has a Japanese translation in `data/locale/ja/LC_MESSAGES/rules.po`.

Each call must give exactly the values its template names, and each error is raised for
real: its sentence must read as `str(error)` in English, format in
Japanese with the catalog, and carry values of the kinds the bot knows how to write
(pieces as `Role`, squares as `Square`, sides as `Color`).
"""

from __future__ import annotations

import ast
import functools
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog

from rules import (
    Color,
    Game,
    GameError,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Plural,
    Position,
    Role,
    Sentence,
    SfenError,
    Square,
)
from rules.notation import (
    AmbiguousMoveError,
    RecordError,
    parse_move,
    read_csa,
    read_kif,
    read_record,
    read_usi,
    unfold,
)
from rules.notation.common import japanese_square
from tests.support.catalogs import LOCALE, mark_calls, marked_texts, placeholders, read_catalog

from ..notation.support import load_vectors, vector_position
from .test_record_reasons import MALFORMED
from .test_sfen import BAD

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "rules"
CASES = ROOT / "tests" / "data" / "rules-cases.json"

SentenceError = (
    InvalidMoveError | IllegalMoveError | GameError | AmbiguousMoveError | SfenError | RecordError
)

# What each parameter name holds, so that the bot can write it in the reader's language.
# Any other name holds an int or a str (a player's text, already shortened by `quote`).
VALUE_KINDS: dict[str, type] = {
    "piece": Role,
    "actual": Role,
    "after": Role,
    "square": Square,
    "origin": Square,
    "target": Square,
    "previous": Square,
    "turn": Color,
    "mark": Color,
    "side": Color,
    "reason": Sentence,
}


# ----------------------------------------------------------------------- templates
# That every template is a literal with its Japanese, and no entry is stale, is checked for
# all catalogs at once in tests/bot/test_i18n.py.


def templates() -> dict[str, str]:
    return marked_texts("rules")


def sentence_calls() -> Iterator[tuple[str, ast.Call]]:
    return mark_calls("rules")


def test_the_extractor_finds_the_rules_sentences() -> None:
    found = templates()
    assert "You have no {piece} in hand." in found
    assert "You already have an unpromoted pawn on file {file} (nifu)." in found
    assert "Move {number} ({move}): {reason}" in found
    assert len(found) > 40


def test_every_call_gives_exactly_the_values_its_template_names() -> None:
    for where, call in sentence_calls():
        template = call.args[0]
        assert isinstance(template, ast.Constant) and isinstance(template.value, str)
        names = {keyword.arg for keyword in call.keywords} - {"by"}  # by: a Plural's number
        assert None not in names, f"{where}: pass the values by name, not with **"
        assert names == set(placeholders(template.value)), where


# ----------------------------------------------------------------------- the errors

START = Position.initial()
KINGS_AND_A_PAWN = "4k4/9/9/9/9/9/9/9/4K4 b P 1"
ROOK_CHECK = "k8/9/9/9/9/9/9/9/r3K3G b P 1"  # gote's rook on 9i checks along rank i
KING_IN_CAMP = "k8/9/4K4/9/9/9/9/9/9 b - 1"
KING_IN_CAMP_IN_CHECK = "k8/9/4K4/9/9/9/9/9/4r4 b - 1"
TEN_TOKINS = "+P+P+P+P+P+P+P+P1/+P+P7/4K4/9/9/9/9/9/8k b - 1"  # 10 pieces, 10 points


def _after(*moves: str) -> Position:
    position = Position.initial()
    for usi in moves:
        position.push(Move.from_usi(usi))
    return position


def _resigned() -> Game:
    game = Game()
    game.resign(Color.SENTE)
    return game


# Each error the data sets below do not already raise, by the action that raises it.
GOLD_IN_HAND = Position.from_sfen("lnsgk1snl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b G 1")
DRAGON_AND_ROOK = Position.from_sfen("4k4/9/9/9/9/9/9/9/1+R2K4 b R 1")

# Two sente kings on the first rank: a diagram no reader takes.
TWO_KINGS_KIF = "\n".join(
    ["| ・ ・ ・ ・v玉 ・ ・ ・ ・|一"]
    + ["| ・ ・ ・ ・ ・ ・ ・ ・ ・|" + rank for rank in "二三四五六七八"]
    + ["| ・ ・ ・ 玉 玉 ・ ・ ・ ・|九", ""]
)

ACTIONS: dict[str, Callable[[], object]] = {
    "usi-not-text": lambda: Move.from_usi(5),  # type: ignore[arg-type]
    "usi-same-square": lambda: Move.board(10, 10),
    "move-not-text": lambda: parse_move(START, 7),  # type: ignore[arg-type]
    "drop-promotes": lambda: parse_move(Position.from_sfen(KINGS_AND_A_PAWN), "P*55+"),
    "drop-tokin": lambda: parse_move(START, "+P*55"),
    "drop-occupied": lambda: Position.from_sfen(KINGS_AND_A_PAWN).push(Move.from_usi("P*5i")),
    "drop-no-block": lambda: Position.from_sfen(ROOK_CHECK).push(Move.from_usi("P*1e")),
    "gold-promotes": lambda: START.push(Move.from_usi("6i5h+")),
    "pawn-two-steps": lambda: START.push(Move.from_usi("7g7e")),
    "own-piece": lambda: START.push(Move.from_usi("7i6i")),
    "check-unanswered": lambda: Position.from_sfen(ROOK_CHECK).push(Move.from_usi("1i1h")),
    "wrong-modifier": lambda: parse_move(START, "５八金左(49)"),
    "no-such-piece-there": lambda: parse_move(START, "G79-68"),
    "cannot-become": lambda: parse_move(START, "+7776KA"),
    "wrong-turn": lambda: parse_move(START, "△７六歩"),
    "same-and-square": lambda: parse_move(
        _after("7g7f", "3c3d"), "７六同歩", last_move=Move.from_usi("3c3d")
    ),
    "replay": lambda: Game.replay(None, ["7g7f", "7g7f"]),
    "move-after-end": lambda: _resigned().push(Move.from_usi("7g7f")),
    "end-after-end": lambda: _resigned().resign(Color.GOTE),
    "late-abort": lambda: Game(moves=["7g7f", "3c3d"]).abort(),
    "declare-off-turn": lambda: Game().declare(Color.GOTE),
    "declare-king-home": lambda: Game().declare(Color.SENTE),
    "declare-in-check": lambda: Game(KING_IN_CAMP_IN_CHECK).declare(Color.SENTE),
    "declare-few-pieces": lambda: Game(KING_IN_CAMP).declare(Color.SENTE),
    "declare-27-points": lambda: Game(TEN_TOKINS).declare(Color.SENTE),
    "declare-24-points": lambda: Game(TEN_TOKINS).declare_jsa24(Color.SENTE, failed_loses=False),
    "count-kings-home": lambda: Game().settle_by_count(),
    "drop-with-origin": lambda: parse_move(GOLD_IN_HAND, "G69*58"),
    "drop-with-modifier": lambda: parse_move(GOLD_IN_HAND, "５八金引打"),
    "base-letter-for-dragon": lambda: parse_move(DRAGON_AND_ROOK, "R-87"),
    "record-not-text": lambda: read_record(5),  # type: ignore[arg-type]
    "record-not-decodable": lambda: read_record(b"\x82"),  # half a Shift_JIS character
    "usi-two-lines": lambda: read_usi("7g7f\n3c3d"),
    "usi-move": lambda: read_usi("position startpos moves 7g7f 7g7f"),
    "usi-start": lambda: read_usi("position sfen 4k4/9/9/9/9/9/9/9/3KK4 b - 1"),
    "kif-diagram-row": lambda: read_kif("|v香v桂|一\n"),
    "kif-start-after-move": lambda: read_kif("   1 ７六歩(77)\n手合割：平手\n"),
    "kif-short-diagram": lambda: read_kif("|v香v桂v銀v金v玉v金v銀v桂v香|一\n   1 ７六歩(77)\n"),
    "kif-illegal-diagram": lambda: read_kif(TWO_KINGS_KIF),
    "kif-handicap": lambda: read_kif("手合割：なにか\n   1 ７六歩(77)\n"),
    "kif-after-end": lambda: read_kif("   1 ７六歩(77)\n   2 投了\n   2 投了\n"),
    "kif-move": lambda: read_kif("   1 ７六歩(77)\n   2 ５五飛(82)\n"),
    "kif-not-a-line": lambda: read_kif("これは何\n"),
    "kif-numbering": lambda: read_kif("   2 ７六歩(77)\n"),
    "csa-item": lambda: read_csa("V2.2\nPI\n+\n+7776FU,Q\n"),
    "csa-header": lambda: read_csa("V2.2\nQ\n+\n"),
    "csa-no-turn": lambda: read_csa("V2.2\nN+a\n"),
    "paste-listed-moves": lambda: unfold("V2 PI + +7776FU '** 30 -3334FU -3334FU"),
    "same-square-origin": lambda: parse_move(
        Position.from_sfen("lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 4"),
        "同　銀(22)",
        last_move=Move.from_usi("8h2b+"),
    ),
}


# Each way a record's text can break its format, read as /board reads it.
ACTIONS.update(
    {
        f"reading-{name}": functools.partial(read_record, text)
        for name, (text, _) in MALFORMED.items()
    }
)


def raised(action: Callable[[], object]) -> SentenceError:
    try:
        action()
    except (
        InvalidMoveError,
        IllegalMoveError,
        GameError,
        AmbiguousMoveError,
        SfenError,
        RecordError,
    ) as error:
        return error
    raise AssertionError("no error")


def data_errors() -> Iterator[SentenceError]:
    """The errors of the shared rule cases, the notation vectors and the bad SFENs."""
    for case in json.loads(CASES.read_text(encoding="utf-8"))["cases"]:
        if case["expect"].get("legal") is not False:
            continue
        position = Position.from_sfen(case["sfen"])
        for usi in case["moves_before"]:
            position.push(Move.from_usi(usi))
        try:
            move = Move.from_usi(case["move"])
        except InvalidMoveError as error:
            yield error
        else:
            yield position.explain_illegal(move)
    for vector in load_vectors():
        style = None if vector["style"] == "lenient" else vector["style"]
        last_move = Move.from_usi(vector["last_move"]) if vector.get("last_move") else None
        try:
            parse_move(
                vector_position(vector["sfen"]), vector["input"], last_move=last_move, style=style
            )
        except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as error:
            yield error
    for _, sfen, _ in BAD:
        try:
            Position.from_sfen(sfen)
        except SfenError as error:
            yield error


@functools.cache
def all_errors() -> list[SentenceError]:
    return [raised(action) for action in ACTIONS.values()] + list(data_errors())


@functools.cache
def japanese_catalog() -> Catalog:
    return read_catalog(LOCALE / "rules.po")


def japanese(sentence: Sentence) -> str:
    """The sentence in Japanese, its values written as the bot writes them."""
    entry = japanese_catalog().get(sentence.template)
    assert entry is not None and entry.string, sentence
    # Japanese has one form for every count (its Plural-Forms), so a Plural's is its first.
    text = entry.string[0] if isinstance(sentence, Plural) else entry.string
    assert isinstance(text, str) and text, sentence
    return text.format_map({name: _japanese_value(v) for name, v in sentence.params.items()})


def _japanese_value(value: object) -> str:
    if isinstance(value, Sentence):
        return japanese(value)
    if isinstance(value, Role):
        return value.kanji
    if isinstance(value, Square):
        return japanese_square(value)
    if isinstance(value, Color):
        return "先手" if value is Color.SENTE else "後手"
    return str(value)


def check(error: SentenceError) -> None:
    sentence = error.sentence
    assert isinstance(sentence, Sentence), repr(error)
    assert str(sentence) == str(error)
    for name, value in sentence.params.items():
        kind = VALUE_KINDS.get(name)
        if kind is not None:
            assert isinstance(value, kind), (sentence, name)
        else:
            assert type(value) in (int, str), (sentence, name)
    text = japanese(sentence)
    assert text and "{" not in text and "\n" not in text, text


@pytest.mark.parametrize("name", list(ACTIONS))
def test_the_error_says_its_sentence(name: str) -> None:
    check(raised(ACTIONS[name]))


def test_the_errors_of_the_shared_cases_say_their_sentences() -> None:
    errors = list(data_errors())
    assert len(errors) > 50
    for error in errors:
        check(error)


def test_every_template_is_raised_by_some_case() -> None:
    """The cases above reach every sentence the rules can say, so each is checked for real."""
    said: set[str] = set()

    def say(sentence: Sentence) -> None:  # a record's reason holds a move's, and so on
        said.add(sentence.template)
        value = sentence.params.get("reason")
        if isinstance(value, Sentence):
            say(value)

    for error in all_errors():
        say(error.sentence)
    assert set(templates()) - said == set()


def test_a_nested_sentence_is_kept_whole() -> None:
    error = raised(ACTIONS["replay"])
    reason = error.sentence.params["reason"]
    assert isinstance(reason, Sentence)
    assert str(error) == f"Move 2 (7g7f): {reason}"
    assert japanese(error.sentence) == "2手目（7g7f）：７七に駒がありません。"


def test_japanese_writes_the_values_in_japanese() -> None:
    error = raised(lambda: parse_move(START, "G79-68"))
    assert japanese(error.sentence) == "７九に金はありません。そこにあるのは銀です。"
    error = raised(ACTIONS["wrong-turn"])
    assert japanese(error.sentence).startswith("今は先手の手番ですが、「△７六歩」は後手の手")


def test_an_sfen_error_names_the_side_and_the_file() -> None:
    error = raised(lambda: Position.from_sfen("4k4/9/9/p8/9/9/9/p8/4K4 w - 1"))
    assert str(error) == "There are two unpromoted gote pawns on file 9 (nifu)."
    assert japanese(error.sentence) == "後手の歩が9筋に2枚あります（二歩）。"


def test_a_count_chooses_the_english_form() -> None:
    """ "There is 1", "there are 0", "there are 2": the value named by the Plural chooses."""
    said = [
        str(Plural("{count} piece is there.", "{count} pieces are there.", count=n))
        for n in (0, 1, 2)
    ]
    assert said == ["0 pieces are there.", "1 piece is there.", "2 pieces are there."]
    points = Plural(
        "needs {need}; there is {points}.",
        "needs {need}; there are {points}.",
        by="points",
        need=28,
        points=1,
    )
    assert str(points) == "needs 28; there is 1."
    with pytest.raises(TypeError):
        Plural("{count} piece", "{count} pieces", by="points", count=1)
