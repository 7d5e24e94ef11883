"""A game: a start position, the moves played, and how it ended.

Repetition (sennichite) is decided here, not in `Position`, because it needs
the history. The rules, from `specs/rules.md` (d):

* The same position means the same board, both hands and the side to move.
* The game ends when a position appears for the fourth time.
* If every move of one player since the *first* appearance of that position
  was a check, that player loses (perpetual check); if both players checked
  throughout, or neither did, it is a draw. This follows the JSA wording and
  lishogi; engines that look only at the last cycle reach another verdict in
  the `late_perpetual_counts_from_first_occurrence` case.

A game also ends by checkmate, by having no legal move (a loss, not a draw),
resignation, time, abort, and impasse.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum

from . import impasse
from .errors import GameError, IllegalMoveError, IllegalReason, Sentence
from .handicaps import Handicap
from .moves import Move
from .position import Position
from .types import Color


class Termination(Enum):
    CHECKMATE = "checkmate"
    STALEMATE = "stalemate"  # no legal move while not in check: the side to move loses
    SENNICHITE = "sennichite"
    PERPETUAL_CHECK = "perpetual_check"
    RESIGNATION = "resignation"
    TIME = "time"
    ABORT = "abort"
    IMPASSE_24 = "impasse24"
    IMPASSE_27 = "impasse27"
    IMPASSE_JSA24 = "jsa24"
    FOUL = "foul"  # a record's 反則勝ち / 反則負け: a foul the moves themselves do not show


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. `winner` is None for a draw (or an aborted game)."""

    termination: Termination
    winner: Color | None

    @property
    def loser(self) -> Color | None:
        return None if self.winner is None else self.winner.opponent


class Game:
    """A game from a start position. `Game()`, `Game(Position.initial("lance"), ["5a4b"])`.

    >>> game = Game(moves=["7g7f", "3c3d"])
    >>> game.position.sfen()
    'lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3'
    """

    def __init__(
        self, start: Position | str | None = None, moves: Iterable[Move | str] = ()
    ) -> None:
        if start is None:
            start = Position.initial()
        elif isinstance(start, str):
            start = Position.from_sfen(start)
        self.start = start.copy()
        self.position = start.copy()
        self.moves: list[Move] = []
        self.outcome: Outcome | None = None
        # keys[i] is the repetition key after i plies; gave_check[i] says the move
        # that produced position i gave check (index 0 is the start, no move).
        self._keys: list[str] = [self.position.key()]
        self._gave_check: list[bool] = [False]
        self._seen: dict[str, list[int]] = {self._keys[0]: [0]}
        self._decide_by_board()
        for move in moves:
            self.push(Move.from_usi(move) if isinstance(move, str) else move)

    def copy(self) -> Game:
        """An independent copy to play on, leaving this game as it was.

        The start position and the moves are never changed in place (moves are
        frozen), so the copy shares them; the current position and the repetition
        bookkeeping are copied: a small fraction of what `copy.deepcopy` costs, which a
        server would pay on every move it stores.
        """
        other = Game.__new__(Game)
        other.start = self.start
        other.position = self.position.copy()
        other.moves = self.moves[:]
        other.outcome = self.outcome
        other._keys = self._keys[:]
        other._gave_check = self._gave_check[:]
        other._seen = {key: plies[:] for key, plies in self._seen.items()}
        return other

    # ----------------------------------------------------------------- facts

    @property
    def handicap(self) -> Handicap | None:
        """The handicap this game started from, or None for a position set up by hand."""
        return Handicap.from_sfen(self.start.sfen())

    @property
    def ply(self) -> int:
        return len(self.moves)

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def occurrences(self) -> int:
        """How many times the current position has appeared in this game."""
        return len(self._seen[self._keys[-1]])

    def position_at(self, ply: int) -> Position:
        """The position after the first `ply` moves (0 is the start), as a new object."""
        if not 0 <= ply <= len(self.moves):
            raise IndexError(f"this game has no ply {ply}")
        position = self.start.copy()
        for move in self.moves[:ply]:
            position.push_unchecked(move)
        return position

    def missing_points(self) -> int:
        """Impasse points the start position lacks (a handicap's removed pieces)."""
        return impasse.missing_points(self.start)

    # ----------------------------------------------------------------- playing

    @classmethod
    def replay(cls, start: Position | str | None, moves: Iterable[Move | str]) -> Game:
        """Rebuild a stored game, checking every move, about twice as fast as pushing.

        Mate and the no-move loss are looked for only after the last move: a move
        stored after such an end cannot be legal, so it is caught all the same.
        An illegal move raises `IllegalMoveError` naming its move number.
        """
        game = cls(start)
        for number, move in enumerate(moves, start=1):
            move = Move.from_usi(move) if isinstance(move, str) else move
            try:
                game._push(move, decide_by_board=False)
            except IllegalMoveError as error:
                sentence = Sentence(
                    "Move {number} ({move}): {reason}",
                    number=number,
                    move=move.usi(),
                    reason=error.sentence,
                )
                raise IllegalMoveError(error.reason, sentence) from error
        if game.outcome is None:
            game._decide_by_board()
        return game

    def push(self, move: Move) -> None:
        """Play a move; raises `IllegalMoveError` (and changes nothing) if it is illegal
        or the game is over, and records the outcome when the move ends the game."""
        self._push(move, decide_by_board=True)

    def _push(self, move: Move, *, decide_by_board: bool) -> None:
        if self.outcome is not None:
            raise IllegalMoveError(IllegalReason.GAME_OVER, Sentence("The game is over."))
        self.position.push(move)
        self.moves.append(move)
        key = self.position.key()
        self._keys.append(key)
        self._gave_check.append(self.position.is_check())
        self._seen.setdefault(key, []).append(len(self._keys) - 1)
        self._decide_by_repetition()
        if self.outcome is None and decide_by_board:
            self._decide_by_board()

    def _decide_by_board(self) -> None:
        position = self.position
        if position.has_legal_move():
            return
        termination = Termination.CHECKMATE if position.is_check() else Termination.STALEMATE
        self.outcome = Outcome(termination, position.turn.opponent)

    def _decide_by_repetition(self) -> None:
        plies = self._seen[self._keys[-1]]
        if len(plies) < 4:
            return
        first, last = plies[0], plies[-1]
        start_turn = self.start.turn
        checked_throughout = {}
        for color in Color:
            # The move producing position i was made by the side to move at ply i - 1.
            mover_moves = [
                self._gave_check[i]
                for i in range(first + 1, last + 1)
                if (start_turn if (i - 1) % 2 == 0 else start_turn.opponent) is color
            ]
            checked_throughout[color] = bool(mover_moves) and all(mover_moves)
        if checked_throughout[Color.SENTE] != checked_throughout[Color.GOTE]:
            checker = Color.SENTE if checked_throughout[Color.SENTE] else Color.GOTE
            self.outcome = Outcome(Termination.PERPETUAL_CHECK, checker.opponent)
        else:
            self.outcome = Outcome(Termination.SENNICHITE, None)

    def resign(self, color: Color) -> Outcome:
        """`color` resigns (allowed at any moment, also on the opponent's turn)."""
        return self._end(Outcome(Termination.RESIGNATION, color.opponent))

    def time_out(self, color: Color) -> Outcome:
        """`color` ran out of time."""
        return self._end(Outcome(Termination.TIME, color.opponent))

    def abort(self) -> Outcome:
        """End without a result; only before both players have moved."""
        if len(self.moves) >= 2:
            raise GameError(Sentence("A game can only be aborted before both players have moved."))
        return self._end(Outcome(Termination.ABORT, None))

    def set_outcome(self, outcome: Outcome) -> Outcome:
        """Record an ending decided outside the moves, as a game record states it
        (an adjourned game, an agreed impasse); the moves themselves are not checked."""
        return self._end(outcome)

    def _end(self, outcome: Outcome) -> Outcome:
        if self.outcome is not None:
            raise GameError(Sentence("The game is over."))
        self.outcome = outcome
        return outcome

    # ----------------------------------------------------------------- impasse

    def evaluate_declaration(
        self, color: Color, *, handicap_aware: bool = True
    ) -> impasse.Declaration:
        """What a 27-point declaration by `color` would give now (nothing changes)."""
        missing = self.missing_points() if handicap_aware else 0
        return impasse.evaluate_27(self.position, color, missing=missing)

    def declare(
        self, color: Color, *, handicap_aware: bool = True, failed_loses: bool = False
    ) -> Outcome:
        """Declare under the 27-point rule. A valid declaration wins. An invalid one raises
        `GameError` with the reason, or loses when `failed_loses` (CSA rules)."""
        declaration = self.evaluate_declaration(color, handicap_aware=handicap_aware)
        return self._settle(declaration, Termination.IMPASSE_27, failed_loses)

    def declare_jsa24(self, color: Color, *, failed_loses: bool = True) -> Outcome:
        """Declare under the JSA professional rule: 31+ wins, 24-30 draws, else a loss."""
        declaration = impasse.evaluate_jsa24(self.position, color)
        return self._settle(declaration, Termination.IMPASSE_JSA24, failed_loses)

    def _settle(self, declaration: impasse.Declaration, rule: Termination, loses: bool) -> Outcome:
        """End the game as a declaration under `rule` decides; an invalid one `loses` or raises."""
        color = declaration.declarer
        if declaration.verdict is impasse.Verdict.WIN:
            return self._end(Outcome(rule, color))
        if declaration.verdict is impasse.Verdict.DRAW:
            return self._end(Outcome(rule, None))
        if loses:
            return self._end(Outcome(rule, color.opponent))
        assert declaration.reason is not None  # an invalid declaration always says why
        raise GameError(declaration.reason)

    def count_24(self) -> impasse.AgreedCount:
        """The agreed 24-point count now, the handicap's pieces credited to gote."""
        return impasse.count_24(self.position, missing=self.missing_points())

    def settle_by_count(self) -> Outcome:
        """Both players agreed to count (24-point rule): end the game by the count."""
        count = self.count_24()
        if not count.applicable:
            assert count.reason is not None  # a count that cannot be made says why
            raise GameError(count.reason)
        return self._end(Outcome(Termination.IMPASSE_24, count.winner))

    def __repr__(self) -> str:
        moves = " ".join(move.usi() for move in self.moves)
        return f"Game({self.start.sfen()!r}, {moves!r}.split())"
