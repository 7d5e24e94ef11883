"""The rows of tournaments (`bot.db.tournaments`): as written, as read, and the columns
their queries select."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Row
from .rows import Terms, from_us, from_us_or_none
from .terms import TERMS_WIDTH, terms_columns, terms_of


@dataclass(frozen=True, slots=True)
class NewTournament:
    """A tournament as its organizer set it up. `format` is round_robin,
    double_round_robin or knockout; `group_size` (round robins: the most players a group,
    None for one group), `match_games` (knockouts: 1 or 2); `scoring` the points of a
    win, a draw and a loss as fractions' text ("1", "1/2", "0")."""

    guild_id: int
    channel_id: int
    name: str
    format: str
    group_size: int | None
    match_games: int | None
    terms: Terms
    scoring: tuple[str, str, str]
    start_at: datetime
    registration_closes_at: datetime
    max_players: int
    min_rating: int | None
    max_rating: int | None
    handicap_table: str | None
    organizer_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A stored tournament: as set up, its id and state, and when it started and ended."""

    id: int
    setup: NewTournament
    state: str
    message_id: int | None
    started_at: datetime | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class EntrantRow:
    """An entrant: when they joined; from the start, the rating they were seeded by, their
    seed and group; when they withdrew (None while they play on)."""

    tournament_id: int
    user_id: int
    joined_at: datetime
    rating: float | None
    seed: int | None
    group_number: int | None
    withdrawn_at: datetime | None


@dataclass(frozen=True, slots=True)
class NewScheduledGame:
    """A game the schedule calls for: where it is in the tournament and who plays it."""

    tournament_id: int
    round: int
    group_number: int
    board: int
    attempt: int
    sente_id: int
    gote_id: int
    handicap: str
    replay_of: int | None = None


@dataclass(frozen=True, slots=True)
class ScheduledGameRow:
    """A scheduled game: its place and players, its game once created, its result once
    mirrored (sente, gote, draw or void for an aborted game) and whether it was acted on."""

    id: int
    game: NewScheduledGame
    game_id: int | None
    result: str | None
    settled: bool


TOURNAMENT = (
    "t.id, t.guild_id, t.channel_id, t.name, t.format, t.group_size, t.match_games, "
    + terms_columns("t")
    + ", t.win_points, t.draw_points, t.loss_points, t.start_at, t.registration_closes_at,"
    " t.max_players, t.min_rating, t.max_rating, t.handicap_table, t.organizer_id,"
    " t.created_at, t.state, t.message_id, t.started_at, t.finished_at FROM tournaments t"
)
SCHEDULED = (
    "s.id, s.tournament_id, s.round, s.group_number, s.board, s.attempt, s.sente_id,"
    " s.gote_id, s.handicap, s.replay_of, s.game_id, s.result, s.settled"
    " FROM tournament_games s"
)
ENTRANT = (
    "tournament_id, user_id, joined_at, rating, seed, group_number, withdrawn_at"
    " FROM tournament_entrants"
)


def tournament_of(row: Row) -> TournamentRow:
    after = 7 + TERMS_WIDTH
    (win, draw, loss, start_at, closes_at, most, low, high, table, organizer, created) = row[
        after : after + 11
    ]
    state, message_id, started_at, finished_at = row[after + 11 : after + 15]
    setup = NewTournament(
        guild_id=row[1],
        channel_id=row[2],
        name=row[3],
        format=row[4],
        group_size=row[5],
        match_games=row[6],
        terms=terms_of(row, 7),
        scoring=(win, draw, loss),
        start_at=from_us(start_at),
        registration_closes_at=from_us(closes_at),
        max_players=most,
        min_rating=low,
        max_rating=high,
        handicap_table=table,
        organizer_id=organizer,
        created_at=from_us(created),
    )
    return TournamentRow(
        row[0], setup, state, message_id, from_us_or_none(started_at), from_us_or_none(finished_at)
    )


def scheduled_of(row: Row) -> ScheduledGameRow:
    game = NewScheduledGame(*row[1:10])
    return ScheduledGameRow(row[0], game, row[10], row[11], bool(row[12]))


def entrant_of(row: Row) -> EntrantRow:
    return EntrantRow(
        row[0], row[1], from_us(row[2]), row[3], row[4], row[5], from_us_or_none(row[6])
    )
