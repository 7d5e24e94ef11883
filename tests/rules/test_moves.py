"""Moves and squares as values: USI in and out, repr, equality, hashing, invalid text."""

from __future__ import annotations

import dataclasses
import itertools

import pytest

from rules import InvalidMoveError, Move, Position, Role, Square

FILES = "123456789"
RANKS = "abcdefghi"
ALL_SQUARE_NAMES = [f + r for r in RANKS for f in FILES]
DROP_LETTERS = "PLNSBRG"


# ------------------------------------------------------------------------- squares


def test_square_of_and_from_usi_agree_on_all_81_squares() -> None:
    seen = set()
    for file, rank in itertools.product(range(1, 10), range(1, 10)):
        square = Square.of(file, rank)
        name = f"{file}{RANKS[rank - 1]}"
        assert square.file == file
        assert square.rank == rank
        assert square.usi() == name == str(square)
        assert Square.from_usi(name) == square
        assert isinstance(square, Square)
        assert 0 <= square <= 80
        seen.add(int(square))
    assert seen == set(range(81))


def test_square_numbering_follows_sfen_order() -> None:
    """Index 0 is 9a (top left as sente sees it), 8 is 1a, 80 is 1i."""
    assert Square.from_usi("9a") == 0
    assert Square.from_usi("1a") == 8
    assert Square.from_usi("9b") == 9
    assert Square.from_usi("5e") == 40
    assert Square.from_usi("1i") == 80


def test_square_repr_pastes_back() -> None:
    for name in ALL_SQUARE_NAMES:
        square = Square.from_usi(name)
        assert eval(repr(square), {"Square": Square}) == square
        assert repr(square) == f"Square.from_usi({name!r})"


def test_square_mirror() -> None:
    assert Square.from_usi("7g").mirror() == Square.from_usi("3c")
    assert Square.from_usi("5e").mirror() == Square.from_usi("5e")
    for name in ALL_SQUARE_NAMES:
        square = Square.from_usi(name)
        assert square.mirror().mirror() == square
        assert square.mirror().file == 10 - square.file
        assert square.mirror().rank == 10 - square.rank


@pytest.mark.parametrize(
    "text", ["", "5", "0a", "10a", "5j", "5E", "e5", "55", "5e5", " 5e", "５e"]
)
def test_invalid_square_names(text: str) -> None:
    with pytest.raises(ValueError):
        Square.from_usi(text)


@pytest.mark.parametrize(("file", "rank"), [(0, 1), (10, 1), (1, 0), (1, 10), (-1, 5)])
def test_square_of_out_of_range(file: int, rank: int) -> None:
    with pytest.raises(ValueError):
        Square.of(file, rank)


# ------------------------------------------------------------------------- moves


def all_board_move_texts() -> list[str]:
    """Every syntactically possible board move between two different squares."""
    return [
        f"{a}{b}{suffix}"
        for a in ALL_SQUARE_NAMES
        for b in ALL_SQUARE_NAMES
        if a != b
        for suffix in ("", "+")
    ]


def test_board_moves_round_trip() -> None:
    texts = all_board_move_texts()
    assert len(texts) == 81 * 80 * 2
    moves = set()
    for text in texts:
        move = Move.from_usi(text)
        assert move.usi() == text == str(move)
        assert not move.is_drop
        assert move.drop is None
        assert move.from_square == Square.from_usi(text[:2])
        assert move.to_square == Square.from_usi(text[2:4])
        assert move.promotion == text.endswith("+")
        moves.add(move)
    assert len(moves) == len(texts), "different texts must give different moves"


def test_drops_round_trip() -> None:
    for letter, name in itertools.product(DROP_LETTERS, ALL_SQUARE_NAMES):
        text = f"{letter}*{name}"
        move = Move.from_usi(text)
        assert move.usi() == text == str(move)
        assert move.is_drop
        assert move.drop is Role.from_sfen(letter)
        assert move.from_square is None
        assert move.to_square == Square.from_usi(name)
        assert not move.promotion


@pytest.mark.parametrize("text", ["7g7f", "8h2b+", "2c2b", "P*5e", "G*1a", "N*9c", "1i9a+"])
def test_move_repr_pastes_back(text: str) -> None:
    move = Move.from_usi(text)
    assert repr(move) == f"Move.from_usi({text!r})"
    assert eval(repr(move), {"Move": Move}) == move


def test_repr_pastes_back_for_every_legal_move_of_a_busy_position() -> None:
    position = Position.from_sfen("R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1")
    moves = position.legal_moves()
    assert len(moves) == 593
    for move in moves:
        assert eval(repr(move), {"Move": Move}) == move
        assert Move.from_usi(move.usi()) == move


@pytest.mark.parametrize(
    "text",
    [
        "",
        "7g7",
        "7g7f7",
        "7g7f++",
        "7g7f=",
        "7g7f ",
        " 7g7f",
        "7G7F",
        "0a1b",
        "7g0a",
        "10a1b",
        "7j7f",
        "P*5e+",
        "+P*5e",
        "K*5e",
        "k*5e",
        "p*5e",
        "X*5e",
        "P*5j",
        "P*0e",
        "P-5e",
        "**5e",
        "5e*5",
        "P*5e5",
        "７g７f",
        "none",
        "resign",
    ],
)
def test_invalid_usi_raises_invalid_move_error(text: str) -> None:
    with pytest.raises(InvalidMoveError) as caught:
        Move.from_usi(text)
    assert isinstance(caught.value, ValueError)
    assert str(caught.value).endswith(".")


def test_moves_are_values() -> None:
    a = Move.from_usi("7g7f")
    b = Move.board(Square.from_usi("7g"), Square.from_usi("7f"))
    c = Move(Square.from_usi("7f"), Square.from_usi("7g"))
    assert a == b == c
    assert hash(a) == hash(b) == hash(c)
    assert len({a, b, c}) == 1
    assert a != Move.from_usi("7g7f+")
    assert a != Move.from_usi("7f7g")
    assert Move.from_usi("P*5e") == Move.drop_at(Role.PAWN, Square.from_usi("5e"))
    assert Move.from_usi("P*5e") != Move.from_usi("L*5e")
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.promotion = True  # type: ignore[misc]


def test_move_code_identifies_the_move() -> None:
    texts = all_board_move_texts() + [
        f"{letter}*{name}" for letter in DROP_LETTERS for name in ALL_SQUARE_NAMES
    ]
    codes = {Move.from_usi(text).code for text in texts}
    assert len(codes) == len(texts)


@pytest.mark.parametrize("role", [Role.KING, Role.TOKIN, Role.HORSE, Role.DRAGON])
def test_only_base_pieces_other_than_the_king_are_dropped(role: Role) -> None:
    with pytest.raises(ValueError):
        Move.drop_at(role, Square.from_usi("5e"))
    with pytest.raises(ValueError):
        Move(Square.from_usi("5e"), drop=role)


def test_move_constructor_rejects_nonsense() -> None:
    with pytest.raises(ValueError):
        Move(Square.from_usi("5e"))  # neither origin nor dropped piece
    with pytest.raises(ValueError):
        Move(Square.from_usi("5e"), Square.from_usi("5f"), drop=Role.PAWN)  # both
    with pytest.raises(ValueError):
        Move(Square.from_usi("5e"), drop=Role.PAWN, promotion=True)  # promoted drop


def test_move_values_reject_non_moves() -> None:
    """Same-square moves, off-board squares and non-text never become moves."""
    with pytest.raises(InvalidMoveError):
        Move.from_usi("5e5e")
    with pytest.raises(InvalidMoveError):
        Move.from_usi(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Move.board(81, 40)
    with pytest.raises(ValueError):
        Move.board(-1, 5)
    with pytest.raises(ValueError):
        Move.board(40, 40)
    plain = Move(to_square=51, from_square=60)  # type: ignore[arg-type]
    assert plain.usi() == "3g3f" and plain == Move.from_usi("3g3f")


def test_kept_legal_moves_follow_every_change_of_the_position() -> None:
    """The legal moves are kept between calls; pushing, popping, copying and (as some
    tests do) setting the turn by hand must never see a stale list."""
    position = Position.initial()
    start = position.legal_moves()
    assert position.legal_moves() == start  # kept
    position.push(Move.from_usi("7g7f"))
    after = position.legal_moves()
    assert after != start and all(m.usi() != "7g7f" for m in after)
    assert not position.is_legal(Move.from_usi("7g7f"))
    copy = position.copy()
    assert copy.legal_moves() == after
    copy.push(Move.from_usi("3c3d"))
    assert position.legal_moves() == after  # the copy's move changed nothing here
    assert position.pop() == Move.from_usi("7g7f")
    assert position.legal_moves() == start
    position.turn_index = 1  # gote to move in the start position
    assert {m.usi() for m in position.legal_moves()} == {
        m.usi()
        for m in Position.from_sfen(Position.initial().sfen().replace(" b ", " w ")).legal_moves()
    }
