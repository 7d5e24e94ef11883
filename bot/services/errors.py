"""Errors of the service: each carries one sentence a player can read and act on.

The sentence is a `rules.Sentence` (an English template and its values), which the
Discord layer says in the reader's language; `message` is its English text, for logs
and tests. The subclasses let the Discord layer (and tests) tell the cases apart
without parsing the sentence.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules import Sentence

if TYPE_CHECKING:
    from rules import Outcome


class ServiceError(Exception):
    """A request the service refuses, with the sentence that says why."""

    def __init__(self, sentence: Sentence) -> None:
        super().__init__(str(sentence))
        self.sentence = sentence
        self.message = str(sentence)


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
        super().__init__(Sentence("This game is over: nothing more can be done in it."))
        self.outcome = outcome


class AlreadyStarted(ServiceError):
    """A button that starts a game (Accept, Rematch, Play again) pressed after the game it
    starts had started: the game's id and where it is played (its thread once it has
    one), so the answer can lead there."""

    def __init__(
        self, sentence: Sentence, *, game_id: int, channel_id: int, thread_id: int | None
    ) -> None:
        super().__init__(sentence)
        self.game_id = game_id
        self.channel_id = channel_id
        self.thread_id = thread_id


class ClockWaits(ServiceError):
    """The game's clock has not started: its thread is still being opened."""


class PositionChanged(ServiceError):
    """The game moved on since the user looked (a race lost, or a stale button)."""


class ImpasseRefused(ServiceError):
    """A count proposal or declaration the rules do not allow now; the message says why."""


class TakebackRefused(ServiceError):
    """A takeback that cannot be asked or answered now; the message says why."""


class ForecastRefused(ServiceError):
    """A forecast line that cannot be stored: not legal along the line, too long, too
    many, or asked on the player's own turn; the message says why."""


class NoteRefused(ServiceError):
    """A note that cannot be written or deleted: empty, too long, one too many, not theirs."""


class BadMoveNumber(ServiceError):
    """A move number the game never had: one before the position it started from."""


class BadTakebackPolicy(ServiceError):
    """A takeback policy other than allowed or never."""


class BadTimeControl(ServiceError):
    """A time control that cannot be read, or is out of bounds (`TimeControl.parse`)."""


class BadImpasseRule(ServiceError):
    """An impasse rule other than the 27-point declaration or the 24-point count."""


class BadTimeZone(ServiceError):
    """A time zone name the zone database does not know."""


class MoveRejected(ServiceError):
    """The text is not a move, or not a legal one. `reason` is the rules' stable code
    (`"nifu"`, `"uchifuzume"`, ...) for an illegal move, None for unreadable text."""

    def __init__(self, sentence: Sentence, reason: str | None = None) -> None:
        super().__init__(sentence)
        self.reason = reason
