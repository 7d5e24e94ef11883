"""Errors of the service: each carries one sentence a player can read and act on.

The Discord layer shows `error.message` as an ephemeral reply; the subclasses
let it (and tests) tell the cases apart without parsing the sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rules import Outcome

    from .values import GameSummary, MoveText


class ServiceError(Exception):
    """A request the service refuses. `message` is one user-facing sentence."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotFound(ServiceError):
    """No such game or challenge (or not in this server)."""


class NotAPlayer(ServiceError):
    """The user is not a player of this game (or not the one this challenge is for)."""


class NotYourTurn(ServiceError):
    """It is the other player's move."""


class GameOver(ServiceError):
    """The game has ended; nothing more can be played in it. `outcome` says how, so the
    Discord layer can say it in the reader's words."""

    def __init__(self, outcome: Outcome | None) -> None:
        super().__init__("This game has already ended.")
        self.outcome = outcome


class PositionChanged(ServiceError):
    """The game moved on since the user looked (a race lost, or a stale button)."""


class ImpasseRefused(ServiceError):
    """A count proposal or declaration the rules do not allow now; the message says why."""


class ChooseGame(ServiceError):
    """The user has several games and did not say which; `games` lists them."""

    def __init__(self, message: str, games: list[GameSummary]) -> None:
        super().__init__(message)
        self.games = games


class MoveRejected(ServiceError):
    """The text is not a move, or not a legal one. `reason` is the rules' stable code
    (`"nifu"`, `"uchifuzume"`, ...) for an illegal move, None for unreadable text."""

    def __init__(self, message: str, reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class AmbiguousMove(ServiceError):
    """Several legal moves fit the text. `promotion_choice` is (promote, do not promote)
    when that is the only question, so the Discord layer can offer two buttons that
    replay the answer in game `game_id` at `ply` (and only there)."""

    def __init__(
        self,
        message: str,
        candidates: list[MoveText],
        promotion_choice: tuple[MoveText, MoveText] | None = None,
        *,
        game_id: int,
        ply: int,
    ) -> None:
        super().__init__(message)
        self.candidates = candidates
        self.promotion_choice = promotion_choice
        self.game_id = game_id
        self.ply = ply
