"""Reading and writing single moves: the behaviours the vectors do not pin down."""

from __future__ import annotations

from enum import Enum

import pytest

from rules import Color, IllegalMoveError, IllegalReason, InvalidMoveError, Move, Position
from rules.notation import AmbiguousMoveError, Style, format_move, parse_move

from .support import MATSURI
from .test_vectors import one_sentence

START = Position.initial()
AFTER_76_34 = Position.from_sfen(
    "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
)


@pytest.mark.parametrize(
    "text",
    [
        "7g7f", "7776", "7g-7f", "7G7F", "+7776FU", "7776fu", "P-76", "P76", "P-7f", "p7f",
        "P77-76", "P7g7f", "Ｐ－７６", "７六歩", "7六歩", "76歩", "七六歩", "７６歩", "▲７六歩",
        "☗７六歩", "▼７六歩", "７六歩(77)", "７ 六 歩", "７六歩兵", "歩-76", "歩76", "歩(77)-76",
        "７六歩直", "７六歩上", "７六步", "76步", "▲７６步",
    ],
)  # fmt: skip
def test_every_way_to_write_the_first_pawn_push(text: str) -> None:
    assert parse_move(START, text) == Move.from_usi("7g7f")


@pytest.mark.parametrize(
    ("text", "usi"),
    [
        ("Bx22+", "8h2b+"), ("Bx2b+", "8h2b+"), ("B88x22+", "8h2b+"), ("bx22=", "8h2b"),
        ("B*55", None), ("２二角成", "8h2b+"), ("２二角不成", "8h2b"), ("２二角生", "8h2b"),
        ("２二角成り", "8h2b+"), ("8h2b+", "8h2b+"), ("8h2b", "8h2b"), ("8822+", "8h2b+"),
        ("8822=", "8h2b"), ("+8822UM", "8h2b+"), ("+8822KA", "8h2b"), ("角x22+", "8h2b+"),
        ("角x22=", "8h2b"),
    ],
)  # fmt: skip
def test_bishop_exchange(text: str, usi: str | None) -> None:
    if usi is None:
        with pytest.raises(IllegalMoveError) as caught:
            parse_move(AFTER_76_34, text)
        assert caught.value.reason is IllegalReason.NOT_IN_HAND
    else:
        assert parse_move(AFTER_76_34, text) == Move.from_usi(usi)


@pytest.mark.parametrize("text", ["Bx22", "b22", "２二角", "8822", "8h-2b", "角x22"])
def test_open_promotion_is_asked(text: str) -> None:
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(AFTER_76_34, text)
    assert [move.usi() for move in caught.value.candidates] == ["8h2b", "8h2b+"]
    assert one_sentence(str(caught.value))
    assert "promot" in str(caught.value)


def test_wrong_turn_mark_is_an_error() -> None:
    for text in ("△７六歩", "☖７六歩", "▽７六歩", "-7776FU"):
        with pytest.raises(IllegalMoveError) as caught:
            parse_move(START, text)
        assert caught.value.reason is IllegalReason.WRONG_TURN
        params = caught.value.sentence.params
        assert (params["turn"], params["mark"]) == (Color.SENTE, Color.GOTE)
        assert "marked for gote" in str(caught.value) and one_sentence(str(caught.value))


def test_same_square_needs_a_matching_previous_move() -> None:
    position = AFTER_76_34.copy()
    position.push(Move.from_usi("2g2f"))
    position.push(Move.from_usi("3d3e"))
    position.push(Move.from_usi("2f2e"))
    position.push(Move.from_usi("3e3f"))
    last = Move.from_usi("3e3f")
    for text in ("同歩", "同　歩", "同 歩", "３六同歩", "同３六歩", "同歩(37)"):
        assert parse_move(position, text, last_move=last) == Move.from_usi("3g3f")
    with pytest.raises(IllegalMoveError):
        parse_move(position, "同歩")
    with pytest.raises(IllegalMoveError):
        parse_move(position, "２六同歩", last_move=last)


def test_style_may_be_an_enum_of_any_kind() -> None:
    class BotStyle(Enum):
        KANJI = "japanese"

    move = Move.from_usi("7g7f")
    assert format_move(START, move, Style.JAPANESE) == "７六歩"
    assert format_move(START, move, BotStyle.KANJI) == "７六歩"  # type: ignore[arg-type]
    assert format_move(START, move, "KIF") == "７六歩(77)"
    assert parse_move(START, "7g7f", style=Style.USI) == move
    with pytest.raises(ValueError):
        format_move(START, move, "pgn")
    with pytest.raises(ValueError):
        parse_move(START, "7g7f", style="pgn")


@pytest.mark.parametrize(
    ("usi", "styles"),
    [
        ("7g7f", ("7g7f", "P-76", "P-7f", "７六歩", "+7776FU", "７六歩(77)")),
        ("6i5h", ("6i5h", "G69-58", "G6i-5h", "５八金左", "+6958KI", "５八金(69)")),
        ("4i5h", ("4i5h", "G49-58", "G4i-5h", "５八金右", "+4958KI", "５八金(49)")),
    ],
)
def test_written_forms_at_the_start(usi: str, styles: tuple[str, ...]) -> None:
    names = ("usi", "western", "hodges", "japanese", "csa", "kif")
    move = Move.from_usi(usi)
    assert tuple(format_move(START, move, name) for name in names) == styles


def test_written_forms_with_promotion_drop_and_capture() -> None:
    assert format_move(AFTER_76_34, Move.from_usi("8h2b+"), "western") == "Bx22+"
    assert format_move(AFTER_76_34, Move.from_usi("8h2b"), "hodges") == "Bx2b="
    assert format_move(AFTER_76_34, Move.from_usi("8h2b"), "japanese") == "２二角不成"
    assert format_move(AFTER_76_34, Move.from_usi("8h2b+"), "kif") == "２二角成(88)"
    assert format_move(AFTER_76_34, Move.from_usi("8h2b+"), "csa") == "+8822UM"
    position = AFTER_76_34.copy()
    position.push(Move.from_usi("8h2b+"))
    last = Move.from_usi("8h2b+")
    recapture = Move.from_usi("3a2b")
    assert format_move(position, recapture, "japanese", last_move=last) == "同　銀"
    assert format_move(position, recapture, "kif", last_move=last) == "同　銀(31)"
    assert format_move(position, recapture, "csa", last_move=last) == "-3122GI"
    position.push(recapture)
    drop = Move.from_usi("B*5e")
    assert [format_move(position, drop, s) for s in ("western", "japanese", "kif", "csa")] == [
        "B*55", "５五角", "５五角打", "+0055KA",
    ]  # fmt: skip


def test_drop_mark_only_when_a_board_piece_could_go() -> None:
    position = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K1G2 b G 1")
    drop = Move.from_usi("G*3h")
    assert format_move(position, drop, "japanese") == "３八金打"
    assert format_move(position, Move.from_usi("3i3h"), "japanese") == "３八金"
    assert parse_move(position, "３八金") == Move.from_usi("3i3h")
    assert parse_move(position, "３八金打") == drop
    assert format_move(position, Move.from_usi("G*5e"), "japanese") == "５五金"


def test_illegal_moves_are_refused_by_the_writer() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        format_move(START, Move.from_usi("7g7e"), "japanese")
    assert caught.value.reason is IllegalReason.CANNOT_MOVE_THERE


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("▲７六歩成", IllegalReason.CANNOT_PROMOTE),
        ("7g7f+", IllegalReason.CANNOT_PROMOTE),
        ("P-75", IllegalReason.NO_PIECE),
        ("G79-78", IllegalReason.NO_PIECE),
        ("５五角打", IllegalReason.NOT_IN_HAND),
        ("５五馬打", IllegalReason.NOT_IN_HAND),
        ("+5958KI", IllegalReason.NO_PIECE),
        ("+0055UM", IllegalReason.NOT_IN_HAND),
        ("５八金寄", IllegalReason.NO_PIECE),
    ],
)
def test_illegal_reasons(text: str, reason: IllegalReason) -> None:
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(START, text)
    assert caught.value.reason is reason
    assert one_sentence(str(caught.value)), str(caught.value)


@pytest.mark.parametrize(
    "text",
    ["", "   ", "76", "7f", "７六", "歩", "P", "P-", "resign", "7g7f7e", "５五角入", "x" * 500],
)
def test_unreadable_text_shows_examples(text: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        parse_move(START, text)
    assert "7g7f" in str(caught.value) and one_sentence(str(caught.value))


def test_strict_styles_refuse_other_notations() -> None:
    assert parse_move(START, "7g7f", style="usi") == Move.from_usi("7g7f")
    for text, style in (
        ("P-76", "usi"),
        ("7g7f", "western"),
        ("７六歩", "csa"),
        ("P-76", "japanese"),
    ):
        with pytest.raises(InvalidMoveError):
            parse_move(START, text, style=style)


def test_matsuri_position_reads_back_in_every_style() -> None:
    position = Position.from_sfen(MATSURI)
    for move in position.legal_moves():
        for style in Style:
            assert parse_move(position, format_move(position, move, style)) == move


SPREAD = Position.from_sfen("k8/9/9/9/1+R1+B1+S1+N+L/9/9/9/K3+P4 b P 1")


@pytest.mark.parametrize(
    ("usi", "texts"),
    [
        (
            "8e8d",
            ["８四龍", "８四竜", "８四龍王", "８四竜王", "D-84", "+R-84", "+r84", "+R-8d", "d8e8d"],
        ),
        ("6e6d", ["６四馬", "６四龍馬", "６四竜馬", "H-64", "+B-64", "h64", "+B6e-6d"]),
        ("4e4d", ["４四成銀", "４四全", "+S-44", "+s4d"]),
        ("2e2d", ["２四成桂", "２四圭", "+N-24"]),
        ("1e1d", ["１四成香", "１四杏", "+L-14"]),
        ("5i5h", ["５八と", "５八と金", "T-58", "+P-58", "t58"]),
        ("9i9h", ["９八玉", "９八王", "９八玉将", "９八王将", "K-98", "k98"]),
        ("P*5e", ["P*55", "P'55", "p*5e", "P＊５５", "５五歩", "５五歩打", "P55", "+0055FU"]),
    ],
)
def test_every_name_of_every_piece(usi: str, texts: list[str]) -> None:
    for text in texts:
        assert parse_move(SPREAD, text) == Move.from_usi(usi), text


def test_base_letter_for_a_promoted_piece_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as caught:
        parse_move(SPREAD, "R-84")
    assert caught.value.reason is IllegalReason.NO_PIECE
