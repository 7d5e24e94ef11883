"""What the repositories return: each row as a plain frozen dataclass, never a database cursor row.

The storage layer knows nothing about shogi: colours, terminations and
handicaps travel as the strings stored in the columns, and the service turns
them into `rules` values. Times are aware UTC `datetime`s and durations
`timedelta`s; the conversion to the stored integers happens only here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def to_us(moment: datetime) -> int:
    """An aware datetime as integer microseconds since the epoch."""
    if moment.tzinfo is None:
        raise ValueError("naive datetimes are ambiguous; use UTC-aware ones")
    delta = moment - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds


def from_us(value: int) -> datetime:
    return _EPOCH + timedelta(microseconds=value)


def duration_us(duration: timedelta) -> int:
    return (duration.days * 86_400 + duration.seconds) * 1_000_000 + duration.microseconds


def from_duration_us(value: int) -> timedelta:
    return timedelta(microseconds=value)


# A column that may be NULL: NULL stays None, both ways.


def from_us_or_none(value: int | None) -> datetime | None:
    return None if value is None else from_us(value)


def duration_us_or_none(duration: timedelta | None) -> int | None:
    return None if duration is None else duration_us(duration)


def from_duration_us_or_none(value: int | None) -> timedelta | None:
    return None if value is None else from_duration_us(value)


def usi_text(moves: Sequence[str]) -> str:
    """A line of moves as stored (a forecast's, a takeback's): USI separated by spaces."""
    return " ".join(moves)


def usi_moves(text: str) -> tuple[str, ...]:
    """The moves of a stored line (`usi_text`)."""
    return tuple(text.split())


@dataclass(frozen=True, slots=True)
class PlayerRow:
    user_id: int
    name: str
    is_bot: bool = False


@dataclass(frozen=True, slots=True)
class Terms:
    """What a game is played under, as a challenge offers it and its game keeps it: the
    time control (a bank, then a period per move; no period: no time limit), the handicap,
    the impasse rule, whether a player may ask to take a move back (`"allowed"` or
    `"never"`), and whether the game counts for ratings (see `ratings`)."""

    bank: timedelta
    period: timedelta | None
    handicap: str
    impasse_rule: str
    takebacks: str = "allowed"
    rated: bool = False


@dataclass(frozen=True, slots=True)
class NewChallenge:
    guild_id: int
    channel_id: int
    challenger_id: int
    opponent_id: int | None  # None: open to anyone
    color: str
    terms: Terms
    start_sfen: str | None
    created_at: datetime
    expires_at: datetime
    rematch_of: int | None = None  # the finished game this challenge offers to play again


@dataclass(frozen=True, slots=True)
class ChallengeRow:
    id: int
    guild_id: int
    channel_id: int
    challenger: PlayerRow
    opponent: PlayerRow | None  # None: open to anyone
    color: str
    terms: Terms
    start_sfen: str | None
    status: str
    created_at: datetime
    expires_at: datetime
    message_id: int | None
    game_id: int | None
    rematch_of: int | None = None


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """The running clock of the player to move: when they lose, when to remind them."""

    game_id: int
    player_id: int
    due_at: datetime
    remind_at: datetime
    reminded_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class NewGame:
    guild_id: int
    channel_id: int
    sente_id: int
    gote_id: int
    terms: Terms
    start_sfen: str
    started_at: datetime
    #: The clock waits for the game's first post (an event's game, whose thread is opened
    #: later): no deadline until then (see `GameRepository.start_clock`).
    clock_waits: bool = False


@dataclass(frozen=True, slots=True)
class AwayRow:
    """A player's vacation under way: since when, and when it ends at the latest."""

    started_at: datetime
    ends_by: datetime


@dataclass(frozen=True, slots=True)
class VacationRow:
    """A vacation: whose, when it began, when the allowance ends it, when it ended."""

    id: int
    user_id: int
    started_at: datetime
    ends_by: datetime
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class GameRow:
    """A game row with its players and its running deadline (if any)."""

    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    message_id: int | None
    sente: PlayerRow
    gote: PlayerRow
    terms: Terms
    start_sfen: str
    status: str
    termination: str | None
    winner: str | None
    ply: int
    sfen: str
    sente_bank: timedelta
    gote_bank: timedelta
    turn_started_at: datetime
    count_proposed_by: str | None
    started_at: datetime
    finished_at: datetime | None
    deadline: DeadlineRow | None
    # The players' vacations under way, read with the row: their clocks stand still.
    sente_away: AwayRow | None = None
    gote_away: AwayRow | None = None
    #: Its clock has not started: it waits for the game's first post (see `NewGame`).
    clock_waits: bool = False


@dataclass(frozen=True, slots=True)
class MoveRow:
    game_id: int
    ply: int  # 1 for the first move of the game
    usi: str
    player_id: int
    played_at: datetime
    # Both banks once the move was played: the clock when the next turn began, which a
    # takeback to this move restores. None for moves stored before the banks were kept.
    sente_bank: timedelta | None = None
    gote_bank: timedelta | None = None


@dataclass(frozen=True, slots=True)
class GameAdvance:
    """Everything a stored move changes on its game's row, written only if nobody moved first."""

    game_id: int
    expected_ply: int
    sfen: str
    sente_bank: timedelta
    gote_bank: timedelta
    turn_started_at: datetime
    termination: str | None = None  # set when the move ends the game
    winner: str | None = None


@dataclass(frozen=True, slots=True)
class BulkGame:
    """A whole game for fast bulk loading (benchmarks, imports): the game and its moves."""

    game: NewGame
    moves: tuple[MoveRow, ...]
    sfen: str
    turn_started_at: datetime
    termination: str | None = None
    winner: str | None = None
    deadline: DeadlineRow | None = None


@dataclass(frozen=True, slots=True)
class GameRewind:
    """What an accepted takeback changes on its game's row: back to `ply` with the clocks
    restored, written only if the game is still active at `expected_ply`."""

    game_id: int
    expected_ply: int
    ply: int
    sfen: str
    sente_bank: timedelta
    gote_bank: timedelta
    turn_started_at: datetime


@dataclass(frozen=True, slots=True)
class NewTakeback:
    """A player's request to take back the last `plies` moves (`moves`, in USI) of a game
    standing at `ply`."""

    game_id: int
    asked_by: int
    ply: int
    plies: int
    moves: tuple[str, ...]
    requested_at: datetime


@dataclass(frozen=True, slots=True)
class TakebackRow:
    """A takeback request as stored: pending, accepted, declined, or lapsed (a move was
    played or the game ended before an answer)."""

    id: int
    game_id: int
    asked_by: int
    ply: int
    plies: int
    moves: tuple[str, ...]
    status: str
    requested_at: datetime
    answered_at: datetime | None
