"""The position: board, hands, side to move; legal moves, check and mate.

Legal moves are generated directly (pins and checks are found first, by
looking outward from the king) instead of by trying every pseudo-legal move on
the board and testing the king, which is what makes pure Python fast enough:
the only move ever tried on the board is a pawn drop that checks, because the
pawn-drop-mate rule (uchifuzume) asks whether the defender then has any legal
reply, and the only honest answer is to generate them.

The board is a list of 81 piece codes (`role + 16 * color`, 0 = empty) in SFEN
order; hands are per-colour lists indexed by role. `Position` knows no history
beyond what it needs to unmake moves: repetition and the game's end live in
`rules.game`.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import chain

from . import sfen as sfen_io
from .errors import IllegalMoveError, Sentence, SfenError
from .explain import explain_illegal
from .handicaps import Handicap
from .moves import DROP_ROLES, MOVES, Move, encode
from .sfen import StartWarning
from .tables import (
    KNIGHT_SOURCES,
    MUST_PROMOTE,
    RAYS8,
    SLIDE_ATTACKS_FROM,
    SLIDE_RAYS,
    STEP_ATTACKS_FROM,
    STEP_TARGETS,
)
from .types import HAND_ROLES, PIECES, SQUARES, Color, Piece, Role, Square, in_zone

_KING = int(Role.KING)
_PAWN = int(Role.PAWN)
_KNIGHT = int(Role.KNIGHT)
_DROP_ORDER = tuple(int(role) for role in DROP_ROLES)
#: The side by its index, without the enum lookup `Color(index)` costs (turn is read often).
_COLORS = (Color.SENTE, Color.GOTE)


def _board_move_codes(piece: int, source: int, target: int) -> tuple[int, ...]:
    """The codes of `piece` moving from `source` to `target`: promoting first where it may
    promote, promoting only where it must, else not promoting."""
    move = source * 162 + target * 2
    color = piece >> 4
    if piece & 15 <= 6 and (in_zone(color, source) or in_zone(color, target)):
        return (move + 1,) if MUST_PROMOTE[piece][target] else (move + 1, move)
    return (move,)


# _MOVE_CODES[piece][source][target]: the codes of that board move, for every target the
# piece reaches from there on an empty board, so generating a move is one lookup.
_MOVE_CODES = [
    [
        {
            target: _board_move_codes(piece, source, target)
            for target in chain(STEP_TARGETS[piece][source], *SLIDE_RAYS[piece][source])
        }
        for source in range(81)
    ]
    for piece in range(len(STEP_TARGETS))
]


class Position:
    """A shogi position. `Position.initial()`, `Position.from_sfen(text)`, `position.sfen()`.

    >>> position = Position.initial()
    >>> len(position.legal_moves())
    30
    """

    __slots__ = ("_legal", "_stack", "board", "hands", "kings", "move_number", "turn_index")

    def __init__(self) -> None:
        self.board: list[int] = [0] * 81
        self.hands: list[list[int]] = [[0] * 9, [0] * 9]
        self.turn_index = 0
        self.move_number = 1
        self.kings = [-1, -1]
        self._stack: list[tuple[int, int]] = []
        # The legal move codes and the turn they were generated for, until the next move.
        self._legal: tuple[int, list[int]] | None = None

    # ----------------------------------------------------------------- construction

    @classmethod
    def from_sfen(cls, text: str) -> Position:
        """Read an SFEN a game may start from, rejecting anything else (`SfenError`).

        This is the strict check for play. A game starts only where every rule can be
        applied from the first move on: at most one set of pieces and one king a side,
        no nifu on the board and no piece that could never move again (a game could
        not have reached them, so a result played from there could be disputed), at
        least one king (otherwise nobody can ever be mated), and the side not to move
        not in check (its king could be taken). One side without a king is allowed: a
        tsume problem gives the attacker none, and it is played out like any game.

        >>> Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b P 1").sfen()
        '4k4/9/9/9/9/9/9/9/4K4 b P 1'
        >>> Position.from_sfen("4k4/9/9/9/9/9/9/9/9 b G 1").sfen()  # a tsume: no sente king
        '4k4/9/9/9/9/9/9/9/9 b G 1'
        """
        position, warnings = cls._read(text)
        if warnings:
            raise SfenError(warnings[0].code, warnings[0].sentence)
        position._refuse_check_on_waiting_side()
        return position

    @classmethod
    def from_sfen_with_warnings(cls, text: str) -> tuple[Position, tuple[StartWarning, ...]]:
        """Read the start position a record gives, as it gives it.

        Irregular placements (nifu, a piece on a square it could never leave, no king at
        all) come back as warnings: every move from there can still be checked, and
        other shogi software reads such records. What no position can be stays an
        `SfenError`: more pieces than a set, two kings of a side, the side not to move
        in check.

        >>> position, warnings = Position.from_sfen_with_warnings("4k4/9/9/9/4P4/4P4/9/9/9 b - 1")
        >>> [warning.code for warning in warnings]
        ['nifu']
        """
        position, warnings = cls._read(text)
        position._refuse_check_on_waiting_side()
        return position, tuple(warnings)

    @classmethod
    def _read(cls, text: str) -> tuple[Position, list[StartWarning]]:
        fields = sfen_io.parse_sfen(text)
        warnings = sfen_io.check_material(fields.board, fields.hands)
        position = cls()
        position.board = fields.board
        position.hands = fields.hands
        position.turn_index = fields.turn
        position.move_number = fields.move_number
        position.kings = [
            fields.board.index(code) if code in fields.board else -1 for code in (_KING, _KING + 16)
        ]
        return position, warnings

    def _refuse_check_on_waiting_side(self) -> None:
        waiting = 1 - self.turn_index
        king = self.kings[waiting]
        if king >= 0 and self._is_attacked(king, self.turn_index):
            raise SfenError(
                "opponent_in_check",
                Sentence(
                    "The {side} king is in check, but it is not {side}'s move.",
                    side=Color(waiting),
                ),
            )

    @classmethod
    def initial(cls, handicap: Handicap | str | None = None) -> Position:
        """The even start, or a handicap start (gote, the handicap giver, moves first)."""
        if handicap is None:
            return cls.from_sfen(Handicap.EVEN.sfen)
        return cls.from_sfen(Handicap.parse(handicap).sfen)

    def copy(self) -> Position:
        """An independent copy without the undo stack."""
        other = Position()
        other.board = self.board[:]
        other.hands = [self.hands[0][:], self.hands[1][:]]
        other.turn_index = self.turn_index
        other.move_number = self.move_number
        other.kings = self.kings[:]
        other._legal = self._legal  # the same position: the same moves (never changed in place)
        return other

    # ----------------------------------------------------------------- reading

    @property
    def turn(self) -> Color:
        return _COLORS[self.turn_index]

    def piece_at(self, square: int) -> Piece | None:
        return PIECES[self.board[square]]

    def pieces(self) -> Iterable[tuple[Square, Piece]]:
        """Every occupied square with its piece, in SFEN order."""
        for square, code in enumerate(self.board):
            if code:
                yield SQUARES[square], PIECES[code]  # type: ignore[misc]

    def hand(self, color: Color) -> dict[Role, int]:
        """The pieces `color` holds, R B G S N L P order, only kinds with a count above 0."""
        counts = self.hands[color]
        return {role: counts[role] for role in HAND_ROLES if counts[role]}

    def has_king(self, color: Color) -> bool:
        """Whether `color` has a king on the board (a tsume's attacker has none)."""
        return self.kings[color] >= 0

    def king_square(self, color: Color) -> Square:
        """Where `color`'s king stands; ValueError for a side without one."""
        square = self.kings[color]
        if square < 0:
            raise ValueError(f"{color.name.lower()} has no king")
        return SQUARES[square]

    def sfen(self) -> str:
        return f"{self.key()} {self.move_number}"

    def key(self) -> str:
        """Board, side to move and both hands: what makes two positions the same for sennichite."""
        side = "b" if self.turn_index == 0 else "w"
        return f"{sfen_io.board_sfen(self.board)} {side} {sfen_io.hands_sfen(self.hands)}"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.board == other.board
            and self.hands == other.hands
            and self.turn_index == other.turn_index
            and self.move_number == other.move_number
        )

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return f"Position.from_sfen({self.sfen()!r})"

    # ----------------------------------------------------------------- attacks

    def _is_attacked(self, square: int, by: int) -> bool:
        """Whether any piece of colour `by` attacks `square` (pinned pieces included)."""
        board = self.board
        steps = STEP_ATTACKS_FROM[by]
        slides = SLIDE_ATTACKS_FROM[by]
        for i, ray in enumerate(RAYS8[square]):
            if not ray:
                continue
            code = board[ray[0]]
            if code:
                if steps[i][code]:
                    return True
                continue
            slide = slides[i]
            for target in ray:
                code = board[target]
                if code:
                    if slide[code]:
                        return True
                    break
        knight = _KNIGHT + 16 * by
        return any(board[source] == knight for source in KNIGHT_SOURCES[by][square])

    def attackers(self, square: int, color: Color) -> list[Square]:
        """The squares of `color`'s pieces that attack `square`."""
        board = self.board
        found = []
        for i, ray in enumerate(RAYS8[square]):
            for distance, target in enumerate(ray):
                code = board[target]
                if code:
                    if SLIDE_ATTACKS_FROM[color][i][code] or (
                        distance == 0 and STEP_ATTACKS_FROM[color][i][code]
                    ):
                        found.append(SQUARES[target])
                    break
        knight = _KNIGHT + 16 * color
        found.extend(SQUARES[s] for s in KNIGHT_SOURCES[color][square] if board[s] == knight)
        return found

    def checkers(self) -> list[Square]:
        """The squares of the pieces giving check to the side to move (none without a king)."""
        king = self.kings[self.turn_index]
        return [] if king < 0 else self.attackers(king, Color(1 - self.turn_index))

    def is_check(self) -> bool:
        """Whether the side to move is in check. A side without a king never is: it cannot
        be mated, and loses only by having no legal move, resigning or running out of time."""
        king = self.kings[self.turn_index]
        return king >= 0 and self._is_attacked(king, 1 - self.turn_index)

    def is_checkmate(self) -> bool:
        return self.is_check() and not self._legal_codes()

    def is_stalemate(self) -> bool:
        """No legal move while not in check. In shogi the side to move loses."""
        return not self.is_check() and not self._legal_codes()

    def has_legal_move(self) -> bool:
        return bool(self._legal_codes())

    # ----------------------------------------------------------------- move generation

    def legal_moves(self) -> list[Move]:
        """Every legal move, optional non-promotions included."""
        moves = MOVES
        return [moves[code] for code in self._legal_codes()]

    def legal_move_count(self) -> int:
        return len(self._legal_codes())

    def _legal_codes(self) -> list[int]:
        """The legal move codes, kept until the position changes: handling one move asks
        several times (reading it, writing it in two notations, pushing it, then asking
        whether the game ended). Callers must not change the list."""
        cached = self._legal
        if cached is not None and cached[0] == self.turn_index:
            return cached[1]
        codes = self._generate_codes()
        self._legal = (self.turn_index, codes)
        return codes

    def _generate_codes(self) -> list[int]:
        board = self.board
        us = self.turn_index
        them = 1 - us
        own_base = 16 * us

        # 1-2. Checkers, pins and king moves (a side without a king has none of them).
        check_lines: list[tuple[int, ...]] = []
        pins: dict[int, tuple[int, ...]] = {}
        codes: list[int] = []
        append, extend = codes.append, codes.extend
        if self.kings[us] >= 0:
            self._checks_and_king_moves(check_lines, pins, codes)
        if len(check_lines) > 1:
            return codes

        allowed: frozenset[int] | None = frozenset(check_lines[0]) if check_lines else None
        pawn_code = _PAWN + own_base
        pawn_cols = set()

        # 3. Other board moves.
        for source in range(81):
            piece = board[source]
            if not piece or piece >> 4 != us:
                continue
            if piece & 15 == _KING:
                continue
            if piece == pawn_code:
                pawn_cols.add(source % 9)
            pin = pins.get(source)
            codes_to = _MOVE_CODES[piece][source]
            for target in STEP_TARGETS[piece][source]:
                code = board[target]
                if code and code >> 4 == us:
                    continue
                if allowed is not None and target not in allowed:
                    continue
                if pin is not None and target not in pin:
                    continue
                extend(codes_to[target])
            for ray in SLIDE_RAYS[piece][source]:
                for target in ray:
                    code = board[target]
                    if code and code >> 4 == us:
                        break
                    if (allowed is None or target in allowed) and (pin is None or target in pin):
                        extend(codes_to[target])
                    if code:
                        break

        # 4. Drops: onto empty squares, or between the king and a single sliding checker.
        hand = self.hands[us]
        roles = [role for role in _DROP_ORDER if hand[role]]
        if not roles:
            return codes
        if allowed is None:
            targets: Iterable[int] = [sq for sq in range(81) if not board[sq]]
        else:
            targets = check_lines[0][:-1]
        # A pawn can mate only from the square in front of the enemy king (none without one).
        enemy_king = self.kings[them]
        mate_square = -1 if enemy_king < 0 else enemy_king + 9 if us == 0 else enemy_king - 9
        for role in roles:
            drop_base = (80 + role) * 162
            if role == _PAWN:
                for target in targets:
                    if target % 9 in pawn_cols or MUST_PROMOTE[pawn_code][target]:
                        continue
                    if target == mate_square and self._drop_mates(target):
                        continue
                    append(drop_base + target * 2)
            elif role <= _KNIGHT:
                dead = MUST_PROMOTE[role + own_base]
                for target in targets:
                    if not dead[target]:
                        append(drop_base + target * 2)
            else:
                for target in targets:
                    append(drop_base + target * 2)
        return codes

    def _checks_and_king_moves(
        self, check_lines: list[tuple[int, ...]], pins: dict[int, tuple[int, ...]], codes: list[int]
    ) -> None:
        """Fill the checking lines and pins around the side to move's king, and its moves."""
        board = self.board
        us = self.turn_index
        them = 1 - us
        king_sq = self.kings[us]
        own_base = 16 * us
        slides_them = SLIDE_ATTACKS_FROM[them]
        steps_them = STEP_ATTACKS_FROM[them]
        append = codes.append
        for i, ray in enumerate(RAYS8[king_sq]):
            shield = -1
            for distance, target in enumerate(ray):
                code = board[target]
                if not code:
                    continue
                if code >> 4 == us:
                    if shield >= 0:
                        break
                    shield = target
                    continue
                if slides_them[i][code]:
                    if shield < 0:
                        check_lines.append(ray[: distance + 1])
                    else:
                        pins[shield] = ray[: distance + 1]
                elif distance == 0 and steps_them[i][code]:
                    check_lines.append(ray[:1])
                break
        enemy_knight = _KNIGHT + 16 * them
        for source in KNIGHT_SOURCES[them][king_sq]:
            if board[source] == enemy_knight:
                check_lines.append((source,))

        # 2. King moves: the destination must be safe with the king lifted off its square.
        board[king_sq] = 0
        king_base = king_sq * 162
        for target in STEP_TARGETS[_KING + own_base][king_sq]:
            code = board[target]
            if code and code >> 4 == us:
                continue
            if not self._is_attacked(target, them):
                append(king_base + target * 2)
        board[king_sq] = _KING + own_base

    def _drop_mates(self, target: int) -> bool:
        """Would a pawn dropped on `target` (in front of the enemy king) be checkmate?"""
        code = encode(80 + _PAWN, target, False)
        self._make(code)
        try:
            return not self._generate_codes()
        finally:
            self._unmake()

    # ----------------------------------------------------------------- making moves

    def _make(self, code: int) -> None:
        self._legal = None
        board = self.board
        us = self.turn_index
        promotion = code & 1
        source, target = divmod(code >> 1, 81)
        if source > 80:
            role = source - 80
            self.hands[us][role] -= 1
            board[target] = role + 16 * us
            self._stack.append((code, 0))
        else:
            piece = board[source]
            captured = board[target]
            if captured:
                role = captured & 15
                self.hands[us][role - 8 if role > 8 else role] += 1
            board[source] = 0
            board[target] = piece + 8 if promotion else piece
            if piece & 15 == _KING:
                self.kings[us] = target
            self._stack.append((code, captured))
        self.turn_index = 1 - us
        self.move_number += 1

    def _unmake(self) -> int:
        self._legal = None
        code, captured = self._stack.pop()
        board = self.board
        self.turn_index = us = 1 - self.turn_index
        self.move_number -= 1
        promotion = code & 1
        source, target = divmod(code >> 1, 81)
        if source > 80:
            self.hands[us][source - 80] += 1
            board[target] = 0
        else:
            piece = board[target]
            board[source] = piece - 8 if promotion else piece
            board[target] = captured
            if captured:
                role = captured & 15
                self.hands[us][role - 8 if role > 8 else role] -= 1
            if piece & 15 == _KING:
                self.kings[us] = source
        return code

    def push(self, move: Move) -> None:
        """Play a legal move; an illegal one raises `IllegalMoveError` and changes nothing."""
        code = move.code
        if code not in self._legal_codes():
            raise self.explain_illegal(move)
        self._make(code)

    def push_unchecked(self, move: Move) -> None:
        """Play a move known to be legal (for replaying stored games and for search)."""
        self._make(move.code)

    def pop(self) -> Move:
        """Take back the last move made on this object."""
        if not self._stack:
            raise IndexError("no move to take back")
        return MOVES[self._unmake()]

    def is_legal(self, move: Move) -> bool:
        return move.code in self._legal_codes()

    def gives_check(self, move: Move) -> bool:
        """Whether the (legal) move puts the opponent in check."""
        self._make(move.code)
        try:
            return self.is_check()
        finally:
            self._unmake()

    # ----------------------------------------------------------------- explaining

    def explain_illegal(self, move: Move) -> IllegalMoveError:
        """Why `move` is not legal here, as an error carrying a reason and a sentence."""
        return explain_illegal(self, move)
