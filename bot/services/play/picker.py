"""Moving by pointing: the current position's legal moves grouped by the piece that makes
them, for a player who taps a piece and then a square instead of typing notation.

A piece choice is a piece on a board square (`7g`) or a kind in hand (`P*`), with its
destinations in the order the autocomplete offers moves (`likely`: the same cached list),
and at each destination whether it captures and which promotion answers are legal. The
picker only offers what is legal here; the move it leads to is played as a typed move is,
so the rules are checked once, in `moves`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules import Color, Move, Position, Role
from rules.types import RANK_LETTERS, Square

from .game import GameSnapshot, MoveText
from .store import GameStore

DROP_MARK = "*"


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a piece can go: the square (`7f`), whether a piece stands there to be
    captured, and the legal promotion answers there (both: the player is asked)."""

    square: str
    capture: bool
    promote: bool
    keep: bool

    @property
    def file(self) -> int:
        return int(self.square[0])


@dataclass(frozen=True, slots=True)
class PieceChoice:
    """One piece the player can move: on the board (`square` set, `key` its square) or a
    kind in hand to drop (`square` None, `key` like `P*`), with every destination."""

    key: str
    role: Role
    square: str | None
    destinations: tuple[Destination, ...]

    @property
    def is_drop(self) -> bool:
        return self.square is None

    def destination(self, square: str) -> Destination | None:
        return next((d for d in self.destinations if d.square == square), None)

    def move_text(self, destination: Destination, *, promote: bool) -> str:
        """The USI of this piece's move to `destination` (promoting or not)."""
        if self.square is None:
            return f"{self.role.sfen}*{destination.square}"
        return f"{self.square}{destination.square}" + ("+" if promote else "")

    def open_text(self, destination: Destination) -> str:
        """The move to `destination` with its promotion left open, as a player would type
        it (`B8h-3c`): the promotion question then comes from `/move`'s own path."""
        assert self.square is not None  # a drop never promotes
        return f"{self.role.sfen}{self.square}-{destination.square}"


@dataclass(frozen=True, slots=True)
class Picker:
    """The choices of the player to move in one position (`ply`, `position_mark`)."""

    game: GameSnapshot
    color: Color
    pieces: tuple[PieceChoice, ...]

    @property
    def ply(self) -> int:
        return self.game.ply

    @property
    def position_mark(self) -> str:
        return self.game.position_mark

    @property
    def on_board(self) -> tuple[PieceChoice, ...]:
        return tuple(piece for piece in self.pieces if not piece.is_drop)

    @property
    def in_hand(self) -> tuple[PieceChoice, ...]:
        return tuple(piece for piece in self.pieces if piece.is_drop)

    def piece(self, key: str) -> PieceChoice | None:
        return next((p for p in self.pieces if p.key == key), None)


def piece_key(move: Move) -> str:
    """The piece a move is made with: its square, or its kind in hand (`P*`)."""
    if move.drop is not None:
        return f"{move.drop.sfen}{DROP_MARK}"
    assert move.from_square is not None
    return move.from_square.usi()


def choices_of(position: Position, moves: Sequence[MoveText]) -> tuple[PieceChoice, ...]:
    """`moves` (legal in `position`, most likely first) grouped by piece, pieces and
    their destinations in the order of their first move."""
    grouped: dict[str, dict[str, list[bool]]] = {}
    roles: dict[str, Role] = {}
    for text in moves:
        move = Move.from_usi(text.usi)
        key = piece_key(move)
        if key not in roles:
            if move.drop is not None:
                roles[key] = move.drop
            else:
                assert move.from_square is not None
                piece = position.piece_at(move.from_square)
                assert piece is not None  # a legal move starts from a piece
                roles[key] = piece.role
        answers = grouped.setdefault(key, {}).setdefault(move.to_square.usi(), [])
        answers.append(move.promotion)
    pieces = []
    for key, destinations in grouped.items():
        drop = key.endswith(DROP_MARK)
        pieces.append(
            PieceChoice(
                key=key,
                role=roles[key],
                square=None if drop else key,
                destinations=tuple(
                    Destination(
                        square=square,
                        capture=position.piece_at(Square.from_usi(square)) is not None,
                        promote=True in answers,
                        keep=False in answers,
                    )
                    for square, answers in destinations.items()
                ),
            )
        )
    return tuple(pieces)


def squares_of_file(piece: PieceChoice, file: int) -> tuple[Destination, ...]:
    """`piece`'s destinations on `file`, top rank first."""
    on_file = [d for d in piece.destinations if d.file == file]
    return tuple(sorted(on_file, key=lambda d: RANK_LETTERS.index(d.square[1])))


def files_of(piece: PieceChoice) -> tuple[tuple[int, int], ...]:
    """The files `piece` can reach with how many squares on each, 9 to 1 as the board
    reads from sente's side."""
    counts: dict[int, int] = {}
    for destination in piece.destinations:
        counts[destination.file] = counts.get(destination.file, 0) + 1
    return tuple(sorted(counts.items(), reverse=True))


class Pointing:
    """The picker's one question to the store: the choices of the player to move."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def choices(self, game_id: int, user_id: int, *, guild_id: int | None) -> Picker:
        """The current position's moves for `user_id` grouped by piece; refused as
        `/move` refuses a spectator, the waiting player, a finished game or one whose
        clock waits for its first post."""
        game = await self._store.current(game_id, guild_id=guild_id)
        color = self._store.player_color(game, user_id)
        self._store.require_active(game)
        self._store.require_clock_started(game)
        self._store.require_turn(game, color)
        played = game.game.moves
        own_last = played[-2] if len(played) >= 2 else None
        moves = self._store.legal.get(game.game.position, game.last_move, own_last)
        return Picker(game, color, choices_of(game.game.position, moves))
