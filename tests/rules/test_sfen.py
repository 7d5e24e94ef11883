"""Strict SFEN reading: every SfenError code, and the valid SFENs that must be accepted.

Each bad SFEN below is minimal: one thing wrong with an otherwise legal position. The test
asserts the exact stable code and that the message is one plain sentence. The valid table
covers every perft position, every handicap start and positions with gote to move; they must
round-trip exactly once the hands are written in the normal form (R B G S N L P, sente first,
counts only above 1).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import cshogi
import pytest

from rules import Color, Handicap, Move, Position, SfenError

K = "4k4/9/9/9/9/9/9/9/4K4"  # two bare kings
PERFT: list[dict[str, Any]] = json.loads(
    (Path(__file__).parent.parent / "data" / "perft.json").read_text("utf-8")
)["positions"]

# (code, SFEN, what is wrong)
BAD: list[tuple[str, Any, str]] = [
    ("not_text", None, "None instead of text"),
    ("not_text", b"4k4/9/9/9/9/9/9/9/4K4 b - 1", "bytes instead of text"),
    ("fields", "", "empty"),
    ("fields", K, "board only"),
    ("fields", f"{K} b", "no hands"),
    ("fields", f"{K} b - 1 1", "five fields"),
    ("board_ranks", "4k4/9/9/9/9/9/9/4K4 b - 1", "8 ranks"),
    ("board_ranks", f"{K}/9 b - 1", "10 ranks"),
    ("rank_width", "4k5/9/9/9/9/9/9/9/4K4 b - 1", "rank a covers 10 squares"),
    ("rank_width", "4k4/9/9/9/8/9/9/9/4K4 b - 1", "rank e covers 8 squares"),
    ("rank_width", "4k4/9/9/9/9/9/9/9/4K4P b - 1", "rank i covers 10 squares"),
    ("piece_letter", "4k4/9/9/9/4X4/9/9/9/4K4 b - 1", "X is no piece"),
    ("piece_letter", "4k4/9/9/9/4p04/9/9/9/4K4 b - 1", "0 is no count"),
    ("piece_letter", "4k4/9/9/9/4++P3/9/9/9/4K4 b - 1", "double +"),
    ("piece_letter", "4k4/9/9/9/4+4/9/9/9/4K4 b - 1", "+ before a digit"),
    ("piece_letter", "4k4/9/9/9/8+/9/9/9/4K4 b - 1", "+ at the end of a rank"),
    ("promoted_piece", "4k4/9/9/9/4+K4/9/9/9/4K4 b - 1", "+K"),
    ("promoted_piece", "4+k4/9/9/9/9/9/9/9/4K4 b - 1", "+k"),
    ("promoted_piece", "4k4/9/9/9/4+G4/9/9/9/4K4 b - 1", "+G"),
    ("side", f"{K} x - 1", "side x"),
    ("side", f"{K} B - 1", "side upper-case B"),
    ("side", f"{K} - b 1", "side and hands swapped"),
    ("hand_syntax", f"{K} b K 1", "king in hand"),
    ("hand_syntax", f"{K} b 1P 1", "count 1 written"),
    ("hand_syntax", f"{K} b 02P 1", "leading zero"),
    ("hand_syntax", f"{K} b P2 1", "count after the letter"),
    ("hand_syntax", f"{K} b 100P 1", "three-digit count"),
    ("hand_syntax", f"{K} b +P 1", "promoted piece in hand"),
    ("hand_syntax", f"{K} b -P 1", "dash and pieces"),
    ("hand_repeated", f"{K} b PP 1", "PP"),
    ("hand_repeated", f"{K} b 2P3P 1", "2P3P"),
    ("hand_repeated", f"{K} b Rpp 1", "pp after another letter"),
    ("move_number", f"{K} b - x", "move number x"),
    ("move_number", f"{K} b - 0", "move number zero"),
    ("move_number", f"{K} b - 01", "leading zero"),
    ("rank_width", "22k4/9/9/9/9/9/9/9/4K4 b - 1", "two digits in a row"),
    ("move_number", f"{K} b - -1", "negative move number"),
    ("move_number", f"{K} b - 1.5", "fractional move number"),
    ("move_number", f"{K} b - １", "full-width digit"),
    ("move_number", f"{K} b - 1000000000", "absurdly large move number"),
    ("piece_count", f"{K} b 19P 1", "19 pawns in hand"),
    ("piece_count", f"{K} b 10P9p 1", "19 pawns in two hands"),
    ("piece_count", "4k4/9/9/9/9/9/PPPPPPPPP/9/4K4 b 10p 1", "19 pawns, board and hand"),
    ("piece_count", f"{K} b 3R 1", "3 rooks"),
    ("piece_count", "4k4/9/9/9/4+R4/9/9/9/4K4 b 2R 1", "dragon counts as a rook"),
    ("piece_count", f"{K} b 5G 1", "5 golds"),
    ("piece_count", f"{K} b 3B 1", "3 bishops"),
    ("piece_count", f"{K} b 5N 1", "5 knights"),
    ("king_missing", "9/9/9/9/4G4/9/9/9/9 b - 1", "no king at all"),
    ("king_extra", "9/9/9/9/9/9/9/9/3KK4 b - 1", "two sente kings (and no gote king)"),
    ("nifu", "4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1", "two sente pawns on file 5"),
    ("nifu", "4k4/9/9/p8/9/9/9/p8/4K4 w - 1", "two gote pawns on file 9"),
    ("dead_piece", "P3k4/9/9/9/9/9/9/9/4K4 b - 1", "sente pawn on rank a"),
    ("dead_piece", "L3k4/9/9/9/9/9/9/9/4K4 b - 1", "sente lance on rank a"),
    ("dead_piece", "N3k4/9/9/9/9/9/9/9/4K4 b - 1", "sente knight on rank a"),
    ("dead_piece", "4k4/N8/9/9/9/9/9/9/4K4 b - 1", "sente knight on rank b"),
    ("dead_piece", "4k4/9/9/9/9/9/9/9/p3K4 b - 1", "gote pawn on rank i"),
    ("dead_piece", "4k4/9/9/9/9/9/9/9/l3K4 b - 1", "gote lance on rank i"),
    ("dead_piece", "4k4/9/9/9/9/9/9/n8/4K4 b - 1", "gote knight on rank h"),
    ("opponent_in_check", "4k4/4R4/9/9/9/9/9/9/4K4 b - 1", "gote in check, sente to move"),
    ("opponent_in_check", "4k4/9/9/9/9/9/9/4g4/4K4 w - 1", "sente in check, gote to move"),
    ("opponent_in_check", "4k4/9/9/9/9/9/9/9/3gK4 w - 1", "checked by a piece next to the king"),
    ("opponent_in_check", "4k4/9/9/9/9/9/9/9/K7r w - 1", "checked along the rank"),
]
CODES = {
    "not_text",
    "fields",
    "board_ranks",
    "rank_width",
    "piece_letter",
    "promoted_piece",
    "side",
    "hand_syntax",
    "hand_repeated",
    "move_number",
    "piece_count",
    "king_missing",
    "king_extra",
    "nifu",
    "dead_piece",
    "opponent_in_check",
}


def is_one_sentence(message: str) -> bool:
    """Non-empty, one line, ends with a full stop, and no sentence ends before that (text in
    quotes such as '+' or 'P' is not read as punctuation)."""
    plain = re.sub(r"'[^']*'", "Q", message)
    return (
        bool(message)
        and "\n" not in message
        and message == message.strip()
        and message.endswith(".")
        and not re.search(r"[.!?](\s|$)", plain[:-1])
        and (message[0].isupper() or message[0] == "'")
    )


def test_every_code_has_a_bad_sfen() -> None:
    assert {code for code, _, _ in BAD} == CODES


@pytest.mark.parametrize(
    ("code", "sfen"), [pytest.param(c, s, id=f"{c}-{why}") for c, s, why in BAD]
)
def test_bad_sfen_is_rejected_with_its_code(code: str, sfen: Any) -> None:
    with pytest.raises(SfenError) as caught:
        Position.from_sfen(sfen)
    assert caught.value.code == code, str(caught.value)
    assert is_one_sentence(str(caught.value)), repr(str(caught.value))
    assert isinstance(caught.value, ValueError)


def test_extra_king_is_reported_as_an_extra_king() -> None:
    """Two sente kings beside gote's one: the spec's "extra king" case.

    The parser counts kings with the other pieces first, so this reports piece_count ("There
    are 3 kings; a set has 2.") and king_extra is reachable only when the other king is
    missing as well.
    """
    with pytest.raises(SfenError) as caught:
        Position.from_sfen("4k4/9/9/9/9/9/9/9/3KK4 b - 1")
    assert caught.value.code == "king_extra", f"{caught.value.code}: {caught.value}"


@pytest.mark.parametrize(
    "message",
    [
        "Two sentences. Not one.",
        "no capital at the start.",
        "No full stop at the end",
        "Line one.\nLine two.",
        "",
    ],
)
def test_the_sentence_check_can_fail(message: str) -> None:
    assert not is_one_sentence(message)


# ------------------------------------------------------------------------- valid SFENs

HAND_ORDER = "RBGSNLP"


def normal_hands(text: str) -> str:
    """The normal form of an SFEN hand field, written independently of rules.sfen."""
    if text == "-":
        return "-"
    counts: dict[str, int] = {}
    for count, letter in re.findall(r"(\d*)([A-Za-z])", text):
        counts[letter] = int(count or 1)
    order = HAND_ORDER + HAND_ORDER.lower()
    return (
        "".join(
            f"{counts[letter] if counts[letter] > 1 else ''}{letter}"
            for letter in order
            if counts.get(letter)
        )
        or "-"
    )


def normal_sfen(sfen: str) -> str:
    board, side, hands, number = sfen.split()
    return f"{board} {side} {normal_hands(hands)} {number}"


VALID: list[tuple[str, str]] = [
    *[(entry["name"], entry["sfen"]) for entry in PERFT],
    *[(f"handicap_{h.id}", h.sfen) for h in Handicap],
    ("gote_bare_kings", f"{K} w - 1"),
    ("gote_after_7g7f", "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"),
    ("gote_in_check", "4k4/4R4/9/9/9/9/9/9/4K4 w - 1"),
    ("gote_every_hand_piece", f"{K} w 2r2b4g4s4n4l18p 1"),
    (
        "gote_mixed_hands",
        "lnsgk2nl/1r4gs1/p1pppp1pp/1p4p2/9/2P6/PP1PPPPPP/1BG4R1/LNS1KGSNL w b 12",
    ),
    ("gote_unsorted_hand", "4k4/9/9/9/9/9/9/9/4K4 w pP2GbN 7"),
    ("sente_unsorted_hand", f"{K} b 3p2Ls 200"),
    ("gote_pawn_on_rank_a", "4k3p/9/9/9/9/9/9/9/4K4 b - 1"),
    ("sente_knight_on_rank_c", "4k4/9/N8/9/9/9/9/9/4K4 b - 1"),
    ("promoted_on_last_ranks", "+P+L+N1k4/9/9/9/9/9/9/9/+p+l+n1K4 b - 1"),
    ("pawn_and_tokin_same_file", "4k4/9/4P4/9/4+P4/9/9/9/4K4 b - 1"),
    ("both_colours_pawn_same_file", "4k4/4p4/9/9/9/9/9/4P4/4K4 b - 1"),
    ("full_material_18_pawns", "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
    ("dragon_and_rook", "4k4/9/9/9/8+R/9/9/9/4K4 b R 1"),
    ("large_move_number", f"{K} b - 999999"),
    ("side_to_move_in_double_check", "4r3k/9/5n3/9/4K4/9/9/9/9 b RBGSNLP 1"),
]


@pytest.mark.parametrize(("name", "sfen"), [pytest.param(n, s, id=n) for n, s in VALID])
def test_valid_sfen_round_trips(name: str, sfen: str) -> None:
    position = Position.from_sfen(sfen)
    expected = normal_sfen(sfen)
    assert position.sfen() == expected
    # Out and back in again is a fixed point, and equal as a position.
    again = Position.from_sfen(position.sfen())
    assert again.sfen() == expected
    assert again == position
    # An independent engine reads the same position from our SFEN.
    assert normal_sfen(cshogi.Board(position.sfen()).sfen()) == expected


def test_normal_hands_helper() -> None:
    assert normal_hands("GR5pnsg") == "RGgsn5p"
    assert normal_hands("pP2GbN") == "2GNPbp"
    assert normal_hands("-") == "-"


def test_matsuri_hand_is_normalised() -> None:
    position = Position.from_sfen(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
    )
    assert position.sfen().split()[2] == "RGgsn5p"


@pytest.mark.parametrize("handicap", list(Handicap), ids=lambda h: h.id)
def test_handicap_start(handicap: Handicap) -> None:
    position = Position.initial(handicap)
    assert position.sfen() == handicap.sfen
    assert Position.initial(handicap.id) == position
    assert Position.initial(handicap.japanese) == position
    assert Position.initial(handicap.english) == position
    # The giver (uwate) plays gote and moves first; only the even game starts with sente.
    expected_turn = Color.SENTE if handicap is Handicap.EVEN else Color.GOTE
    assert position.turn == expected_turn
    # Only gote's pieces are removed, and none of them is in a hand.
    even = Position.initial()
    assert position.hand(Color.SENTE) == position.hand(Color.GOTE) == {}
    for square, piece in position.pieces():
        assert even.piece_at(square) == piece
    removed = [sq for sq, piece in even.pieces() if position.piece_at(sq) is None]
    assert all(even.piece_at(sq).color is Color.GOTE for sq in removed)  # type: ignore[union-attr]
    assert (len(removed) == 0) == (handicap is Handicap.EVEN)


def test_initial_is_the_even_start() -> None:
    assert Position.initial().sfen() == Handicap.EVEN.sfen
    assert Position.initial(None) == Position.from_sfen(Handicap.EVEN.sfen)


def test_sfen_error_is_a_value_error_with_a_code() -> None:
    with pytest.raises(ValueError, match="nifu"):
        Position.from_sfen("4k4/9/9/9/4P4/4P4/9/9/4K4 b - 1")


def test_unknown_handicap_is_rejected() -> None:
    with pytest.raises(ValueError):
        Position.initial("nine_piece")


def test_sfen_written_after_move_999999_reads_back() -> None:
    """sfen() must always write something from_sfen() accepts.

    The reader caps the move number at six digits, but push() keeps counting, so the SFEN
    written one move later ("... 1000000") is refused with "The move number must be a whole
    number."
    """
    position = Position.from_sfen(f"{K} b - 999999")
    position.push(Move.from_usi("5i5h"))
    assert Position.from_sfen(position.sfen()) == position
