"""Move suggestions: any notation, prefix before substring, at most 25."""

from __future__ import annotations

from bot.services import MoveText
from bot.ui.options import MAX_CHOICES
from bot.ui.suggestions import fold_typed, rank_moves
from bot.ui.text import move_choice
from rules import Position
from rules.notation import format_move


def start_moves() -> list[MoveText]:
    position = Position.initial()
    return [
        MoveText(
            m.usi(),
            format_move(position, m, "japanese"),
            format_move(position, m, "western"),
        )
        for m in position.legal_moves()
    ]


def test_fold_typed_folds_width_case_and_separators() -> None:
    assert fold_typed("Ｐ－７ｆ") == fold_typed("p7f") == fold_typed("P-76") == "p76"
    assert fold_typed("７六歩") == fold_typed("76歩") == "76歩"


def test_empty_input_gives_the_first_25() -> None:
    moves = start_moves()
    assert rank_moves(moves, "") == moves[:MAX_CHOICES]
    assert len(rank_moves(moves, "")) == MAX_CHOICES


def test_usi_prefix() -> None:
    ranked = rank_moves(start_moves(), "7g")
    assert [m.usi for m in ranked] == ["7g7f"]
    rook = rank_moves(start_moves(), "2h")
    assert sorted(m.usi for m in rook) == ["2h1h", "2h3h", "2h4h", "2h5h", "2h6h", "2h7h"]


def test_western_and_japanese_prefixes_find_the_same_move() -> None:
    moves = start_moves()
    assert [m.usi for m in rank_moves(moves, "P-7f")] == ["7g7f"]
    assert [m.usi for m in rank_moves(moves, "P76")] == ["7g7f"]
    assert rank_moves(moves, "７六")[0].usi == "7g7f"  # substring matches may follow


def test_prefix_matches_rank_before_substring_matches() -> None:
    moves = [
        MoveText("1a1b", "x", "Z-1b"),
        MoveText("2a2b", "y", "G-2b"),
        MoveText("3a3b", "z", "X-G"),
    ]
    ranked = rank_moves(moves, "g")
    assert [m.usi for m in ranked] == ["2a2b", "3a3b"]


def test_nothing_matches() -> None:
    assert rank_moves(start_moves(), "K*5e") == []


def test_move_choice_fits_discord_limit() -> None:
    long = MoveText("7g7f", "７六歩" * 40, "P-76")
    assert len(move_choice(long)) <= 100
    assert "P-76" in move_choice(MoveText("7g7f", "７六歩", "P-76"))
