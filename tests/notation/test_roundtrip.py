"""Round trips on seeded random positions, the JSA writer's minimality, and cshogi's writers.

Positions come from random legal playouts from the even start and from the position
with 593 legal moves (full hands, many drops), so both colours, promoted pieces and
big hands all occur. Every legal move is written in every style and read back.
"""

from __future__ import annotations

import contextlib
import re

import cshogi
import cshogi.KI2
import cshogi.KIF
import pytest

from rules import Color, IllegalMoveError, InvalidMoveError, Move, Piece, Position, Role, Square
from rules.notation import AmbiguousMoveError, Style, format_move, parse_move

from .support import POSITION_593, random_positions

# 1,000 positions from the even start and 200 from the 593 position (whose hands make
# hundreds of drops per position, so each of them costs as much as five ordinary ones).
CHUNKS = [(None, seed) for seed in range(10)] + [(POSITION_593, seed) for seed in range(2)]
PER_CHUNK = 100


def _positions(start: str | None, seed: int) -> list[Position]:
    return random_positions(1000 + seed, PER_CHUNK, start)


def _previous(move: Move) -> Move:
    """A made-up previous move landing on the same square, so 同 gets written."""
    return Move.board(0 if move.to_square != 0 else 1, move.to_square)


@pytest.mark.parametrize(("start", "seed"), CHUNKS)
def test_every_move_in_every_style_reads_back(start: str | None, seed: int) -> None:
    checked = 0
    colours = set()
    for index, position in enumerate(_positions(start, seed)):
        colours.add(position.turn)
        for move in position.legal_moves():
            last = _previous(move) if index % 2 else None
            for style in Style:
                text = format_move(position, move, style, last_move=last)
                assert parse_move(position, text, last_move=last) == move, (position, move, text)
                checked += 1
    assert colours == {Color.SENTE, Color.GOTE}
    assert checked > PER_CHUNK * 6


def test_random_positions_cover_hands_and_promoted_pieces() -> None:
    positions = _positions(None, 0) + _positions(POSITION_593, 0)
    assert any(sum(p.hands[0]) + sum(p.hands[1]) >= 15 for p in positions)
    assert any(sum(1 for _, piece in p.pieces() if piece.role.is_promoted) >= 4 for p in positions)


# ----------------------------------------------------------------- JSA minimality

_JAPANESE = re.compile(
    r"(?:同　?|[１-９][一二三四五六七八九])(成銀|成桂|成香|[歩香桂銀金角飛玉と馬竜])"
    r"([右左直上引寄]*)(成|不成|打)?"
)
_GOLD_LIKE = {Role.GOLD, Role.SILVER, Role.TOKIN, Role.PROMOTED_LANCE, Role.PROMOTED_KNIGHT,
              Role.PROMOTED_SILVER}  # fmt: skip


def _seen(square: Square, color: Color) -> tuple[int, int]:
    """(file, rank) from the mover's seat: smaller file = right, smaller rank = forward."""
    if color is Color.SENTE:
        return square.file, square.rank
    return 10 - square.file, 10 - square.rank


def _fits(source: Square, target: Square, role: Role, color: Color, group: list[Square],
          chars: str) -> bool:  # fmt: skip
    """Section 3.3's filters, written independently of the library."""
    sx, sy = _seen(source, color)
    tx, ty = _seen(target, color)
    for char in chars:
        if char == "上" and not sy > ty:
            return False
        if char == "引" and not sy < ty:
            return False
        if char == "寄" and sy != ty:
            return False
        if char == "直" and not (sx == tx and sy > ty):
            return False
        if char in "右左":
            if role in _GOLD_LIKE:
                ok = sx < tx if char == "右" else sx > tx
            else:
                others = [_seen(o, color)[0] for o in group if o != source]
                ok = all(sx < o if char == "右" else sx > o for o in others)
            if not ok:
                return False
    return True


def _pseudo_group(position: Position, role: Role, target: Square) -> list[Square]:
    color = position.turn
    wanted = Piece(color, role)
    return [s for s in position.attackers(target, color) if position.piece_at(s) == wanted]


def _survivors(position: Position, source: Square, target: Square, chars: str) -> int:
    piece = position.piece_at(source)
    assert piece is not None
    group = _pseudo_group(position, piece.role, target)
    assert source in group
    return sum(_fits(s, target, piece.role, piece.color, group, chars) for s in group)


def _check_minimal(position: Position, move: Move) -> None:
    text = format_move(position, move, "japanese")
    match = _JAPANESE.fullmatch(text)
    assert match is not None, text
    mods, action = match[2], match[3] or ""
    if move.drop is not None:
        assert mods == ""
        if action == "打":  # without 打 it is read as a board move (or is ambiguous)
            with contextlib.suppress(AmbiguousMoveError):
                assert parse_move(position, text[:-1]) != move, text
        return
    source, target = move.from_square, move.to_square
    assert source is not None
    piece = position.piece_at(source)
    assert piece is not None

    def in_zone(square: Square) -> bool:
        return square.rank <= 3 if piece.color is Color.SENTE else square.rank >= 7

    can_promote = piece.role.can_promote and (in_zone(source) or in_zone(target))
    assert (action in ("成", "不成")) == can_promote, text
    assert _survivors(position, source, target, mods) == 1, text
    group = _pseudo_group(position, piece.role, target)
    all_legal = all(
        any(m.from_square == s for m in position.legal_moves() if m.to_square == target)
        for s in group
    )
    for i in range(len(mods)):
        fewer = mods[:i] + mods[i + 1 :]
        assert _survivors(position, source, target, fewer) >= 2, text
        if all_legal:  # no pinned rival: the reader itself must then fail to single it out
            reduced = text.replace(mods, fewer, 1)
            with contextlib.suppress(AmbiguousMoveError, IllegalMoveError):
                assert parse_move(position, reduced) != move, (text, reduced)

    def identifies(chars: str) -> bool:
        fits = _fits(source, target, piece.role, piece.color, group, chars)
        return fits and _survivors(position, source, target, chars) == 1

    if len(mods) == 2:  # JSA order: a single character would have been preferred
        assert not any(identifies(c) for c in "上引寄右左直"), text
    if mods in ("右", "左", "直"):  # ... and movement before relative position
        assert not any(identifies(c) for c in "上引寄"), text


@pytest.mark.parametrize(("start", "seed"), [*CHUNKS[:2], CHUNKS[-1]])
def test_japanese_writer_is_minimal(start: str | None, seed: int) -> None:
    modifiers_seen = 0
    for position in _positions(start, seed):
        for move in position.legal_moves():
            _check_minimal(position, move)
            modifiers_seen += (
                move.drop is None and len(position.attackers(move.to_square, position.turn)) > 1
            )
    assert modifiers_seen > 0


def test_minimality_check_can_fail() -> None:
    """The checker itself rejects a needless modifier (guards against a vacuous test)."""
    position = Position.initial()
    assert _survivors(position, Square.from_usi("4i"), Square.from_usi("5h"), "右") == 1
    assert _survivors(position, Square.from_usi("4i"), Square.from_usi("5h"), "上") == 2


# ----------------------------------------------------------------- cshogi's writers


@pytest.mark.parametrize(("start", "seed"), [*CHUNKS[2:4], CHUNKS[-2]])
def test_same_text_as_cshogi(start: str | None, seed: int) -> None:
    for position in _positions(start, seed):
        board = cshogi.Board(position.sfen())
        for move in position.legal_moves():
            theirs = board.move_from_usi(move.usi())
            assert cshogi.move_to_usi(theirs) == format_move(position, move, "usi")
            assert cshogi.move_to_csa(theirs) == format_move(position, move, "csa")[1:]
            kif = cshogi.KIF.move_to_kif(theirs)
            kif = kif.replace("杏", "成香").replace("圭", "成桂").replace("全", "成銀")
            assert kif == format_move(position, move, "kif")
            ki2 = cshogi.KI2.move_to_ki2(theirs, board)[1:].replace("龍", "竜")
            assert ki2 == format_move(position, move, "japanese")


def test_where_cshogi_is_wrong_we_follow_the_jsa() -> None:
    """Specification section 7: cshogi stops at 右 although the 5i silver is also on the right."""
    sfen = "4k4/9/9/9/9/9/2S1S4/9/4S3K b - 1"
    position, board = Position.from_sfen(sfen), cshogi.Board(sfen)
    move = Move.from_usi("5g6h")
    assert cshogi.KI2.move_to_ki2(board.move_from_usi("5g6h"), board) == "▲６八銀右"
    assert format_move(position, move, "japanese") == "６八銀右引"
    with pytest.raises(AmbiguousMoveError):
        parse_move(position, "６八銀右")


def test_errors_are_the_documented_ones() -> None:
    assert issubclass(AmbiguousMoveError, ValueError)
    assert issubclass(InvalidMoveError, ValueError)
