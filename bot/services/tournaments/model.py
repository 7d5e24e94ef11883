"""The plain values the tournament service returns, and the limits it checks.

The Discord layer posts from these: a `Tournament` for the announcement and the entrants'
list, a `TournamentChange` for what one action changed (games created, a round started,
the standings to redraw, the winners of a finished tournament).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from fractions import Fraction

from bot.db import EntrantRow, TournamentRow

from .ranking import Standing

#: How many event games (tournaments' and team matches') may be under way at once in a
#: server unless it chooses otherwise: every game has a thread, and Discord keeps at most
#: 1000 threads active per server, the club's own conversations included; half of that
#: leaves room for them and for the members' other games, and a tournament's waiting games
#: start as games end.
DEFAULT_GAME_CAP = 500
#: The most a server may choose: below Discord's 1000 active threads, with room left.
MAX_GAME_CAP = 900
#: The longest tournament name, in characters.
MAX_NAME = 100
#: The most players one round-robin group takes: a 40-player double round robin is 1,560
#: games, a season's worth; a larger field plays in groups, so a start schedules a
#: bounded number of games.
MAX_GROUP = 40
#: How many tournaments a server may have in registration or under way at once: a club
#: runs a few side by side, and each one's start and results are work for the bot.
MAX_OPEN_TOURNAMENTS = 10


class Format(StrEnum):
    """How a tournament pairs its players."""

    ROUND_ROBIN = "round_robin"
    DOUBLE_ROUND_ROBIN = "double_round_robin"
    KNOCKOUT = "knockout"


class State(StrEnum):
    REGISTRATION = "registration"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


@dataclass(frozen=True, slots=True)
class Runner:
    """Who asks to run a tournament (start or cancel it): their id, and, as the Discord
    layer knows them, whether they may manage the server and their roles."""

    user_id: int
    may_manage: bool = False
    role_ids: frozenset[int] = frozenset()


@dataclass(frozen=True, slots=True)
class Entrant:
    """An entrant as the announcement lists them."""

    user_id: int
    joined_at: datetime
    rating: float | None
    seed: int | None
    group: int | None
    withdrawn: bool


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament and its entrants (by seed once started, else in the order they
    joined)."""

    row: TournamentRow
    entrants: tuple[Entrant, ...]

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def state(self) -> State:
        return State(self.row.state)

    @property
    def format(self) -> Format:
        return Format(self.row.setup.format)

    @property
    def name(self) -> str:
        return self.row.setup.name


@dataclass(frozen=True, slots=True)
class TournamentChange:
    """What one action did to a tournament, for the Discord layer to post: the games it
    created (ids, each a normal game to open a thread for), the round that began, whether
    the standings changed (redraw the announcement: a round robin's tables, group by
    group, come with it), and whether the tournament finished (with its winners: one per
    group, or the knockout's champion) or was cancelled."""

    tournament_id: int
    games_created: tuple[int, ...] = ()
    round_started: int | None = None
    standings_changed: bool = False
    finished: bool = False
    winners: tuple[int, ...] = ()
    cancelled: bool = False
    tables: tuple[tuple[Standing, ...], ...] = ()

    @property
    def anything(self) -> bool:
        return bool(
            self.games_created
            or self.round_started is not None
            or self.standings_changed
            or self.finished
            or self.cancelled
        )


def entrant_of(row: EntrantRow) -> Entrant:
    return Entrant(
        row.user_id,
        row.joined_at,
        row.rating,
        row.seed,
        row.group_number,
        row.withdrawn_at is not None,
    )


def scoring_text(points: Fraction) -> str:
    """A number of points as stored (`1`, `1/2`, `3`)."""
    return str(points)
