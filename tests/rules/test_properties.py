"""Property tests (hypothesis) over positions reached by random playouts.

* SFEN out and back in gives the same position (and the same legal moves).
* Making then unmaking any legal move restores board, hands, turn, move number and SFEN.
* Pushing a move that is not legal raises IllegalMoveError with a fitting reason and changes
  nothing; cshogi agrees that the move is illegal.

Positions come from seeded playouts (hypothesis draws the start, the seed and the length),
biased towards captures and drops so that hands fill up and promoted pieces appear.
"""

from __future__ import annotations

import random

import cshogi
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from rules import (
    Handicap,
    IllegalMoveError,
    IllegalReason,
    Move,
    Position,
    Role,
    Square,
)

STARTS = [
    *(h.sfen for h in Handicap),
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "4k4/9/9/9/9/9/9/9/4K4 b 2R2B4G4S4N4L18P 1",
    "b3r3b/9/2N1S1G2/9/4K1P1+r/9/9/9/k8 b G 1",
    "4r3k/9/5n3/9/4K4/9/9/9/9 b RBGSNLP 1",
    "7nk/9/7G1/9/9/9/9/9/4K4 b P 1",
    "8k/PP1L5/2L3N2/5N1S1/3R5/4B4/9/9/4K4 b - 1",
    "3+P1+P3/2+R1K1+B2/9/9/9/9/9/2+r1k1+b2/3+p1+p3 b 2G2g 1",
]
SQUARE_NAMES = [f"{f}{r}" for r in "abcdefghi" for f in "123456789"]

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def playout(start: str, seed: int, plies: int) -> tuple[Position, list[str]]:
    """Play up to `plies` random legal moves (captures and drops preferred half the time)."""
    rng = random.Random(seed)
    position = Position.from_sfen(start)
    played: list[str] = []
    for _ in range(plies):
        moves = position.legal_moves()
        if not moves:
            break
        pool = moves
        if rng.random() < 0.5:
            pool = [m for m in moves if m.drop is not None or position.board[m.to_square]]
        move = rng.choice(pool or moves)
        position.push(move)
        played.append(move.usi())
    return position, played


positions = st.builds(
    playout,
    start=st.sampled_from(STARTS),
    seed=st.integers(0, 2**32 - 1),
    plies=st.integers(0, 160),
)


def snapshot(position: Position) -> tuple[object, ...]:
    return (
        position.board[:],
        [position.hands[0][:], position.hands[1][:]],
        position.turn,
        position.move_number,
        position.sfen(),
        position.key(),
        position.king_square(position.turn),
        position.king_square(position.turn.opponent),
    )


# ------------------------------------------------------------------------- SFEN round trip


@SETTINGS
@given(start=st.sampled_from(STARTS), seed=st.integers(0, 2**32 - 1))
def test_sfen_round_trip_along_a_playout(start: str, seed: int) -> None:
    rng = random.Random(seed)
    position = Position.from_sfen(start)
    for _ in range(120):
        text = position.sfen()
        again = Position.from_sfen(text)
        assert again == position, text
        assert again.sfen() == text
        assert again.key() == position.key()
        assert set(again.legal_moves()) == set(position.legal_moves()), text
        moves = position.legal_moves()
        if not moves:
            break
        position.push(rng.choice(moves))


@SETTINGS
@given(sample=positions)
def test_sfen_round_trip_of_a_random_position(sample: tuple[Position, list[str]]) -> None:
    position, played = sample
    text = position.sfen()
    again = Position.from_sfen(text)
    assert again == position, played
    assert again.sfen() == text
    assert again.is_check() == position.is_check()
    # cshogi reads our SFEN as the same position.
    assert Position.from_sfen(cshogi.Board(text).sfen()).sfen() == text


# ------------------------------------------------------------------------- make / unmake


@SETTINGS
@given(sample=positions)
def test_make_unmake_restores_exactly(sample: tuple[Position, list[str]]) -> None:
    position, played = sample
    before = snapshot(position)
    legal_before = position.legal_moves()
    for move in legal_before:
        position.push(move)
        assert position.turn != before[2]
        assert position.move_number == before[3] + 1  # type: ignore[operator]
        assert position.sfen() != before[4]
        assert position.pop() == move
        assert snapshot(position) == before, f"{move.usi()} after {played}"
    for move in legal_before:
        position.push_unchecked(move)
        position.pop()
    assert snapshot(position) == before
    assert position.legal_moves() == legal_before


@SETTINGS
@given(sample=positions, seed=st.integers(0, 2**32 - 1))
def test_a_sequence_of_moves_unmakes_back_to_the_start(
    sample: tuple[Position, list[str]], seed: int
) -> None:
    position, _ = sample
    start = position.copy()
    before = snapshot(position)
    rng = random.Random(seed)
    made = []
    for _ in range(40):
        moves = position.legal_moves()
        if not moves:
            break
        move = rng.choice(moves)
        position.push(move)
        made.append(move)
    for move in reversed(made):
        assert position.pop() == move
    assert snapshot(position) == before
    assert position == start


@SETTINGS
@given(sample=positions)
def test_copy_is_independent(sample: tuple[Position, list[str]]) -> None:
    position, _ = sample
    before = snapshot(position)
    twin = position.copy()
    assert twin == position
    for move in twin.legal_moves()[:20]:
        twin.push(move)
        assert snapshot(position) == before
        twin.pop()
    assert twin == position


def test_pop_without_a_move_raises() -> None:
    position = Position.initial()
    try:
        position.pop()
    except IndexError:
        pass
    else:
        raise AssertionError("pop() on a fresh position must raise IndexError")
    assert position == Position.initial()


# ------------------------------------------------------------------------- illegal moves

board_move_texts = st.builds(
    lambda a, b, plus: f"{a}{b}{'+' if plus else ''}",
    st.sampled_from(SQUARE_NAMES),
    st.sampled_from(SQUARE_NAMES),
    st.booleans(),
).filter(lambda text: text[:2] != text[2:4])
drop_texts = st.builds(
    lambda letter, square: f"{letter}*{square}",
    st.sampled_from("PLNSBRG"),
    st.sampled_from(SQUARE_NAMES),
)
move_texts = st.one_of(board_move_texts, drop_texts)


def expected_reason(position: Position, move: Move) -> set[IllegalReason] | None:
    """The reasons an illegal move must be given when a plain fact decides it, else None."""
    us = position.turn_index
    board = position.board
    target = board[move.to_square]
    if move.drop is not None:
        role = move.drop
        if not position.hands[us][role]:
            return {IllegalReason.NOT_IN_HAND}
        if target:
            return {IllegalReason.OCCUPIED}
        rank = move.to_square.rank if us == 0 else 10 - move.to_square.rank
        dead_ranks = {Role.PAWN: 1, Role.LANCE: 1, Role.KNIGHT: 2}.get(role, 0)
        if rank <= dead_ranks:
            return {IllegalReason.DEAD_DROP}
        if role is Role.PAWN and any(
            board[Square.of(move.to_square.file, r)] == Role.PAWN + 16 * us for r in range(1, 10)
        ):
            return {IllegalReason.NIFU}
        return None
    assert move.from_square is not None
    source = board[move.from_square]
    if not source:
        return {IllegalReason.NO_PIECE}
    if source >> 4 != us:
        return {IllegalReason.NOT_OWN_PIECE}
    if target and target >> 4 == us:
        return {IllegalReason.CAPTURES_OWN_PIECE}
    return None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sample=positions, text=move_texts)
def test_pushing_an_illegal_move_raises_and_changes_nothing(
    sample: tuple[Position, list[str]], text: str
) -> None:
    position, played = sample
    move = Move.from_usi(text)
    legal = position.legal_moves()
    assume(move not in legal)
    before = snapshot(position)
    assert not position.is_legal(move)
    try:
        position.push(move)
    except IllegalMoveError as error:
        reason = error.reason
        message = str(error)
    else:
        raise AssertionError(f"push({text}) was accepted after {played}")
    assert isinstance(reason, IllegalReason)
    assert reason is not IllegalReason.GAME_OVER or not legal
    assert message and message.endswith(".") and "\n" not in message
    assert snapshot(position) == before
    assert position.legal_moves() == legal
    wanted = expected_reason(position, move)
    if wanted is not None:
        assert reason in wanted, f"{text} in {position.sfen()}: {reason} ({message})"
    # An independent engine agrees that the move is illegal. (Its generator, not its
    # is_legal(): cshogi's is_legal() accepts e.g. a promotion outside the zone.)
    board = cshogi.Board(position.sfen())
    their_moves = {cshogi.move_to_usi(m) for m in board.legal_moves}
    assert text not in their_moves, f"cshogi plays {text} in {position.sfen()}"


@SETTINGS
@given(sample=positions)
def test_flipping_promotion_of_a_legal_move_is_legal_or_a_promotion_error(
    sample: tuple[Position, list[str]],
) -> None:
    position, _ = sample
    before = snapshot(position)
    legal = set(position.legal_moves())
    for move in legal:
        if move.drop is not None:
            continue
        assert move.from_square is not None
        flipped = Move.board(move.from_square, move.to_square, not move.promotion)
        if flipped in legal:
            continue
        try:
            position.push(flipped)
        except IllegalMoveError as error:
            expected = (
                IllegalReason.CANNOT_PROMOTE if flipped.promotion else IllegalReason.MUST_PROMOTE
            )
            assert error.reason is expected, f"{flipped.usi()} in {position.sfen()}: {error}"
        else:
            raise AssertionError(f"{flipped.usi()} accepted in {position.sfen()}")
        assert snapshot(position) == before
