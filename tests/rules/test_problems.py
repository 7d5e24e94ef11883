"""Problem positions: a side without a king, and irregular starts read from records.

The semantics chosen: a side without a king is never in check (it cannot be mated; it
loses only by having no legal move, resigning or time), while the other side is checked
and mated as usual, pawn-drop mate included. cshogi reads such positions too, and is the
reference for legal moves, check and mate; the one place it is not is a piece standing
where it could never move (cshogi's move generator wraps it round the board), whose
moves are left out of its list here.
"""

from __future__ import annotations

import random

import cshogi
import pytest

from rules import Color, Game, Move, Position, SfenError, StartWarning, Termination, perft
from rules.impasse import camp_count, count_24, evaluate_27
from rules.tables import is_dead_square
from rules.types import Role

# The starts of the two records the strict reader refused, and two hand-built problems.
KOBAYASHI = "8k/2rrl4/2n2ln2/g3pp2p/3l4n/2lp5/g5p2/9/7+p1 b 2B2GN4s12p 1"
NINE_PAWNS = "7pk/7p1/7p1/7p1/7p1/7p1/7p1/7p1/7p1 b 2R4L4S4N 1"
HEAD_GOLD = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1"  # 1-move mate: G*5b
GOTE_ATTACKS = "9/9/9/9/9/9/4p4/9/4K4 w g2R2B3G4S4N4L17P 1"  # gote to mate: G*5h
STARTS = [KOBAYASHI, NINE_PAWNS, HEAD_GOLD, GOTE_ATTACKS]


def lenient(sfen: str) -> Position:
    return Position.from_sfen_with_warnings(sfen)[0]


def cshogi_moves(position: Position, board: cshogi.Board) -> set[str]:
    """cshogi's legal moves, less those of a piece on a square it could never leave."""
    moves = set()
    for usi in (cshogi.move_to_usi(m) for m in board.legal_moves):
        if usi[1] != "*":
            piece = position.piece_at(Move.from_usi(usi).from_square or 0)
            source = Move.from_usi(usi).from_square
            assert piece is not None and source is not None
            if piece.role in (Role.PAWN, Role.LANCE, Role.KNIGHT) and is_dead_square(
                piece.color, piece.role, source
            ):
                continue
        moves.add(usi)
    return moves


def compare(position: Position, board: cshogi.Board) -> list[Move]:
    ours = position.legal_moves()
    assert {m.usi() for m in ours} == cshogi_moves(position, board), position.sfen()
    assert position.is_check() == board.is_check(), position.sfen()
    return ours


@pytest.mark.parametrize("sfen", STARTS)
def test_random_games_from_problems_agree_with_cshogi(sfen: str) -> None:
    rng = random.Random(sfen)
    positions = checks = 0
    for _game in range(40):
        position, board = lenient(sfen), cshogi.Board(sfen)
        for _ply in range(80):
            moves = compare(position, board)
            positions += 1
            checks += position.is_check()
            if not moves:
                break
            drops_and_checks = [m for m in moves if position.gives_check(m)]
            move = rng.choice(
                drops_and_checks if rng.random() < 0.3 and drops_and_checks else moves
            )
            position.push(move)
            board.push_usi(move.usi())
    assert positions > 200 and checks > 10


@pytest.mark.parametrize("sfen", STARTS)
def test_perft_of_problems_agrees_with_cshogi(sfen: str) -> None:
    def theirs(position: Position, board: cshogi.Board, depth: int) -> int:
        """cshogi's count, less the moves of pieces that could never move (`cshogi_moves`):
        the nine-pawn start has one, which cshogi moves and the rules do not."""
        if depth == 0:
            return 1
        total = 0
        for usi in cshogi_moves(position, board):
            board.push_usi(usi)
            position.push_unchecked(Move.from_usi(usi))
            total += theirs(position, board, depth - 1)
            position.pop()
            board.pop()
        return total

    position = lenient(sfen)
    assert perft(position, 2) == theirs(lenient(sfen), cshogi.Board(sfen), 2)
    assert position.sfen() == lenient(sfen).sfen()  # perft leaves the position as it was


def test_a_side_without_a_king_is_never_in_check() -> None:
    position = lenient("4k4/9/9/9/9/9/9/4r4/9 b G 1")  # a rook bears down on where a king is not
    assert not position.is_check() and position.checkers() == []
    assert not position.has_king(Color.SENTE) and position.has_king(Color.GOTE)
    with pytest.raises(ValueError, match="no king"):
        position.king_square(Color.SENTE)
    assert position.legal_move_count() == 79  # the gold drops anywhere empty: no pin, no check


def test_the_defending_king_is_mated_and_pawn_drop_mate_still_refused() -> None:
    game = Game(HEAD_GOLD, ["G*5b"])
    assert game.outcome is not None
    assert game.outcome.termination is Termination.CHECKMATE
    assert game.outcome.winner is Color.SENTE
    # A pawn dropped in front of a king with no way out is refused, king or no king behind it.
    uchifuzume = lenient("7nk/9/7G1/9/9/9/9/9/9 b P 1")
    assert "P*1b" not in {m.usi() for m in uchifuzume.legal_moves()}
    assert uchifuzume.explain_illegal(Move.from_usi("P*1b")).reason.value == "uchifuzume"
    mirrored = lenient("9/9/9/9/9/9/1g7/9/KN7 w p 1")
    assert "P*9h" not in {m.usi() for m in mirrored.legal_moves()}
    assert "P*9g" in {m.usi() for m in mirrored.legal_moves()}


def test_gote_mates_a_sente_king_in_a_problem_without_gote_king() -> None:
    game = Game(lenient(GOTE_ATTACKS), ["G*5h"])
    assert game.outcome is not None and game.outcome.winner is Color.GOTE
    assert game.outcome.termination is Termination.CHECKMATE


def test_the_kingless_side_with_no_move_loses() -> None:
    game = Game(lenient("8k/9/9/9/p8/9/9/9/9 b - 1"))  # sente has nothing to move
    assert game.outcome is not None
    assert game.outcome.termination is Termination.STALEMATE
    assert game.outcome.winner is Color.GOTE


def test_a_problem_is_played_out_to_mate_as_a_game() -> None:
    game = Game(Position.from_sfen("6snk/9/7PP/9/9/9/9/9/9 b 2G 1"))
    for usi in ("G*2b", "3a2b"):
        game.push(Move.from_usi(usi))
        assert game.outcome is None
    game.push(Move.from_usi("G*1b"))
    assert game.outcome is not None and game.outcome.termination is Termination.CHECKMATE
    assert game.outcome.winner is Color.SENTE and game.position.is_checkmate()


def test_impasse_counts_know_a_side_without_a_king() -> None:
    position = lenient(HEAD_GOLD)
    assert not camp_count(position, Color.SENTE).king_in_camp
    assert not count_24(position).applicable
    declaration = evaluate_27(position, Color.SENTE)
    assert declaration.reason is not None
    assert declaration.reason.template == "The king has not entered the enemy camp."


# ----------------------------------------------------------------- strict and lenient


def codes(warnings: tuple[StartWarning, ...]) -> list[str]:
    return [warning.code for warning in warnings]


def test_the_record_start_warns_where_play_refuses() -> None:
    _, warnings = Position.from_sfen_with_warnings(NINE_PAWNS)
    assert codes(warnings) == ["nifu", "dead_piece"]
    assert str(warnings[0].sentence) == "There are two unpromoted gote pawns on file 2 (nifu)."
    assert str(warnings[1].sentence) == "The pawn on 2i could never move again."
    with pytest.raises(SfenError) as caught:
        Position.from_sfen(NINE_PAWNS)
    assert caught.value.code == "nifu"
    _, none = Position.from_sfen_with_warnings("9/9/9/9/4G4/9/9/9/9 b - 1")
    assert codes(none) == ["king_missing"]


def test_a_tsume_is_a_valid_start_for_play() -> None:
    assert Position.from_sfen(KOBAYASHI).sfen() == KOBAYASHI
    assert Position.from_sfen_with_warnings(KOBAYASHI)[1] == ()


@pytest.mark.parametrize(
    ("sfen", "code"),
    [
        ("4k4/9/9/9/9/9/9/9/3KK4 b - 1", "king_extra"),
        ("4k4/9/9/9/9/9/9/9/4K4 b 19P 1", "piece_count"),
        ("4k4/4R4/9/9/9/9/9/9/9 b - 1", "opponent_in_check"),
    ],
)
def test_what_no_position_can_be_stays_an_error_in_records(sfen: str, code: str) -> None:
    with pytest.raises(SfenError) as caught:
        Position.from_sfen_with_warnings(sfen)
    assert caught.value.code == code
