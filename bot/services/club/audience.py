"""Who is told of each event: who is mentioned in its post, and who gets a direct message.

The README's table "Who is told" is this module's `TABLE`, row for row (a test compares
them). Every post in a thread or channel and every direct message asks `audience` whom to
tell, so that a rule is written once and not rediscovered by each feature:

- the member whose action it was (`Cast.actor`) is neither mentioned nor messaged: they
  are looking at it already;
- the others who must act, or who won or lost, are;
- the bot itself is never mentioned, nor messaged (it is a player against the computer).

A direct message is sent under the recipient's `/preferences` notifications (`Sending`):
the turn that begins only to those who chose each turn, everything else also to those who
chose a digest (it cannot wait for the next one); nothing to those who chose none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, StrEnum

from rules import Outcome, Termination

from ..play.game import GameSnapshot, PlayerRef
from .challenge import Challenge


class Event(StrEnum):
    """Something that happened, as the README's table names it."""

    TURN_BEGAN = "A turn begins"
    REMINDER = "Reminder before a deadline"
    RESIGNATION = "Resignation"
    TIME_OUT = "Time-out"
    CHECKMATE = "Checkmate"
    NO_LEGAL_MOVE = "No legal move"
    SENNICHITE = "Sennichite draw"
    PERPETUAL_CHECK = "Perpetual-check loss"
    FOUL = "Foul"
    IMPASSE_DECLARATION = "Impasse declaration (win, loss or draw)"
    IMPASSE_COUNT = "24-point count"
    COUNT_PROPOSED = "24-point count proposed"
    ABORT = "Abort"
    IDLE_ABORT = "Abort for no first move in time"
    CHALLENGE_RECEIVED = "Challenge to a named member"
    CHALLENGE_ACCEPTED = "Challenge accepted"
    CHALLENGE_DECLINED = "Challenge declined"
    CHALLENGE_EXPIRED = "Challenge expired"
    CHALLENGE_WITHDRAWN = "Challenge withdrawn"
    TAKEBACK_ASKED = "Takeback asked"
    TAKEBACK_ANSWERED = "Takeback accepted or declined"
    REMATCH_OFFERED = "Rematch offered"
    VACATION_BEGAN = "Vacation begins"
    VACATION_ENDED = "Vacation ends"
    COMPUTER_FAILED = "The computer failed to move"


class Role(StrEnum):
    """Who, in an event, as the README's table says it."""

    NOBODY = "nobody"
    TO_MOVE = "the player to move"
    WINNER = "the winner"
    LOSER = "the loser"
    PLAYERS = "both players"
    CHALLENGER = "the challenger"
    CHALLENGED = "the member challenged"
    ASKER = "the player who asked"
    ANSWERER = "the player who answers"
    OPPONENT = "the opponent"


class Sending(Enum):
    """Whose `/preferences` notifications let a direct message through."""

    TURN = "at each turn"
    EVENT = "at each turn, or a digest"


@dataclass(frozen=True, slots=True)
class Row:
    """One line of the table: who is mentioned, who is messaged, and under which
    preference."""

    mentioned: Role
    messaged: Role
    sending: Sending = Sending.EVENT


TABLE: dict[Event, Row] = {
    Event.TURN_BEGAN: Row(Role.TO_MOVE, Role.TO_MOVE, Sending.TURN),
    Event.REMINDER: Row(Role.TO_MOVE, Role.TO_MOVE),
    Event.RESIGNATION: Row(Role.WINNER, Role.WINNER),
    Event.TIME_OUT: Row(Role.PLAYERS, Role.PLAYERS),
    Event.CHECKMATE: Row(Role.LOSER, Role.LOSER),
    Event.NO_LEGAL_MOVE: Row(Role.LOSER, Role.LOSER),
    Event.SENNICHITE: Row(Role.PLAYERS, Role.PLAYERS),
    Event.PERPETUAL_CHECK: Row(Role.PLAYERS, Role.PLAYERS),
    Event.FOUL: Row(Role.PLAYERS, Role.PLAYERS),
    Event.IMPASSE_DECLARATION: Row(Role.PLAYERS, Role.PLAYERS),
    Event.IMPASSE_COUNT: Row(Role.PLAYERS, Role.PLAYERS),
    Event.COUNT_PROPOSED: Row(Role.ANSWERER, Role.ANSWERER),
    Event.ABORT: Row(Role.PLAYERS, Role.PLAYERS),
    Event.IDLE_ABORT: Row(Role.PLAYERS, Role.PLAYERS),
    Event.CHALLENGE_RECEIVED: Row(Role.CHALLENGED, Role.CHALLENGED),
    Event.CHALLENGE_ACCEPTED: Row(Role.CHALLENGER, Role.CHALLENGER),
    Event.CHALLENGE_DECLINED: Row(Role.NOBODY, Role.CHALLENGER),
    Event.CHALLENGE_EXPIRED: Row(Role.NOBODY, Role.CHALLENGER),
    Event.CHALLENGE_WITHDRAWN: Row(Role.NOBODY, Role.CHALLENGED),
    Event.TAKEBACK_ASKED: Row(Role.ANSWERER, Role.ANSWERER),
    Event.TAKEBACK_ANSWERED: Row(Role.ASKER, Role.ASKER),
    Event.REMATCH_OFFERED: Row(Role.CHALLENGED, Role.CHALLENGED),
    Event.VACATION_BEGAN: Row(Role.NOBODY, Role.OPPONENT),
    Event.VACATION_ENDED: Row(Role.NOBODY, Role.OPPONENT),
    Event.COMPUTER_FAILED: Row(Role.PLAYERS, Role.PLAYERS),
}

#: The ending events, by how the game ended (an abort by the clock is `IDLE_ABORT`).
_ENDINGS = {
    Termination.CHECKMATE: Event.CHECKMATE,
    Termination.STALEMATE: Event.NO_LEGAL_MOVE,
    Termination.SENNICHITE: Event.SENNICHITE,
    Termination.PERPETUAL_CHECK: Event.PERPETUAL_CHECK,
    Termination.RESIGNATION: Event.RESIGNATION,
    Termination.TIME: Event.TIME_OUT,
    Termination.ABORT: Event.ABORT,
    Termination.FOUL: Event.FOUL,
    Termination.IMPASSE_24: Event.IMPASSE_COUNT,
    Termination.IMPASSE_27: Event.IMPASSE_DECLARATION,
    Termination.IMPASSE_JSA24: Event.IMPASSE_DECLARATION,
}


def ending_event(outcome: Outcome, *, by_clock: bool = False) -> Event:
    """The event of a game's ending; `by_clock`: found by the deadline task, where an
    abort is the game nobody started in time.

    >>> ending_event(Outcome(Termination.RESIGNATION, None))
    <Event.RESIGNATION: 'Resignation'>
    """
    if by_clock and outcome.termination is Termination.ABORT:
        return Event.IDLE_ABORT
    return _ENDINGS[outcome.termination]


@dataclass(frozen=True, slots=True)
class Cast:
    """Who an event concerns, by role, and the member whose action it was (`actor`; None
    when the bot's clock or engine did it). Roles an event has no one for stay empty."""

    actor: int | None = None
    players: tuple[PlayerRef, ...] = ()
    to_move: PlayerRef | None = None
    winner: PlayerRef | None = None
    loser: PlayerRef | None = None
    challenger: PlayerRef | None = None
    challenged: PlayerRef | None = None
    asker: PlayerRef | None = None
    answerer: PlayerRef | None = None
    opponent: tuple[PlayerRef, ...] = ()

    @classmethod
    def of_game(cls, game: GameSnapshot, *, actor: int | None = None) -> Cast:
        """The players of `game`, whose move it is, and who won and lost; an event's other
        roles are added with `dataclasses.replace`.

        >>> Cast.of_game(game, actor=alice_id).players  # doctest: +SKIP
        (PlayerRef(...alice...), PlayerRef(...bob...))
        """
        outcome = game.outcome
        winner = loser = None
        if outcome is not None and outcome.winner is not None:
            winner = game.player(outcome.winner)
            loser = game.player(outcome.winner.opponent)
        return cls(
            actor,
            (game.sente, game.gote),
            None if outcome is not None else game.to_move,
            winner,
            loser,
        )

    @classmethod
    def of_challenge(cls, challenge: Challenge, *, actor: int | None = None) -> Cast:
        """The challenger and the member challenged (None for an open challenge)."""
        return cls(actor, challenger=challenge.challenger, challenged=challenge.opponent)

    def playing(self, role: Role) -> tuple[PlayerRef, ...]:
        """Who plays `role` here, before the actor and the bot are left out."""
        single = {
            Role.TO_MOVE: self.to_move,
            Role.WINNER: self.winner,
            Role.LOSER: self.loser,
            Role.CHALLENGER: self.challenger,
            Role.CHALLENGED: self.challenged,
            Role.ASKER: self.asker,
            Role.ANSWERER: self.answerer,
        }
        if role is Role.PLAYERS:
            return self.players
        if role is Role.OPPONENT:
            return self.opponent
        player = single.get(role)
        return () if player is None else (player,)


@dataclass(frozen=True, slots=True)
class Audience:
    """Whom a post mentions, and whom a direct message goes to (each under `sending`)."""

    mentioned: tuple[PlayerRef, ...] = ()
    messaged: tuple[PlayerRef, ...] = ()
    sending: Sending = Sending.EVENT

    def __or__(self, other: Audience) -> Audience:
        """Both audiences in one post (a game's start tells the challenger it was
        accepted, and the first player it is their move)."""
        return Audience(
            _told(self.mentioned + other.mentioned, None),
            _told(self.messaged + other.messaged, None),
            self.sending,
        )


NOBODY = Audience()


def audience(event: Event, cast: Cast) -> Audience:
    """Who is told of `event`, by the table, leaving out the actor and any bot.

    >>> told = audience(Event.RESIGNATION, Cast(actor=1, winner=PlayerRef(2, "bob")))
    >>> [p.name for p in told.mentioned], [p.name for p in told.messaged]
    (['bob'], ['bob'])
    """
    row = TABLE[event]
    return Audience(
        _told(cast.playing(row.mentioned), cast.actor),
        _told(cast.playing(row.messaged), cast.actor),
        row.sending,
    )


def _told(players: Iterable[PlayerRef], actor: int | None) -> tuple[PlayerRef, ...]:
    """`players` without the actor and bots, each once, in order."""
    seen: set[int] = set()
    told = []
    for player in players:
        if player.is_bot or player.user_id == actor or player.user_id in seen:
            continue
        seen.add(player.user_id)
        told.append(player)
    return tuple(told)
