"""A game as the repositories read and write it: the columns and joins of a game row with
its players, deadline and vacations, its mapping to `GameRow`, the SQL of whose turn it is
and of a deadline moved past a vacation, and the insert of a new game's row.

One place for the game row's shape, so that every query reading games (`GameRepository`)
reads the same columns in the same order, and every insert writes them alike.
"""

from __future__ import annotations

from datetime import datetime

from .base import Row
from .rows import (
    AwayRow,
    DeadlineRow,
    GameRow,
    NewGame,
    PlayerRow,
    duration_us,
    from_duration_us,
    from_us,
    from_us_or_none,
    to_us,
)
from .terms import TERMS_COLUMNS, terms_columns, terms_of, terms_params

GAME_COLUMNS = f"""
    g.id, g.guild_id, g.channel_id, g.thread_id, g.message_id,
    g.sente_id, s.name, s.is_bot, g.gote_id, o.name, o.is_bot,
    {terms_columns("g")}, g.start_sfen,
    g.status, g.termination, g.winner, g.ply, g.sfen, g.sente_bank_us, g.gote_bank_us,
    g.turn_started_at, g.count_proposed_by, g.started_at, g.finished_at,
    d.player_id, d.due_at, d.remind_at, d.reminded_at,
    vs.started_at, vs.ends_by, vo.started_at, vo.ends_by, g.clock_waits
FROM games g
JOIN players s ON s.user_id = g.sente_id
JOIN players o ON o.user_id = g.gote_id
LEFT JOIN deadlines d ON d.game_id = g.id
LEFT JOIN vacations vs ON vs.user_id = g.sente_id AND vs.ended_at IS NULL
LEFT JOIN vacations vo ON vo.user_id = g.gote_id AND vo.ended_at IS NULL
"""


#: Gote is to move: an SFEN's second field is `b` or `w`, and no other field holds a `w`
#: (the board has no spaces, the hand is piece letters and digits, then the move number).
_GOTE_TO_MOVE = "g.sfen LIKE '% w %'"
#: The game waits for the player given twice as parameters.
TO_MOVE = f"((g.sente_id = ? AND NOT {_GOTE_TO_MOVE}) OR (g.gote_id = ? AND {_GOTE_TO_MOVE}))"
#: The vacation under way of the player to move, and where their clock stopped for it.
_AWAY_START = f"(CASE WHEN {_GOTE_TO_MOVE} THEN vo.started_at ELSE vs.started_at END)"
_AWAY_END = f"(CASE WHEN {_GOTE_TO_MOVE} THEN vo.ends_by ELSE vs.ends_by END)"
_PAUSED_FROM = (
    f"(CASE WHEN {_AWAY_START} > g.turn_started_at THEN {_AWAY_START} ELSE g.turn_started_at END)"
)
#: The running deadline as `snapshots.deadline_of` computes it: moved past the vacation of
#: the player to move by the time their clock stands still, unless it had passed before
#: the vacation began.
DUE_PAST_VACATION = (
    f"(d.due_at + CASE WHEN {_AWAY_START} IS NULL OR d.due_at <= {_AWAY_START}"
    f" OR {_AWAY_END} <= {_PAUSED_FROM} THEN 0 ELSE {_AWAY_END} - {_PAUSED_FROM} END)"
)


def _away(started: int | None, ends_by: int | None) -> AwayRow | None:
    if started is None or ends_by is None:
        return None
    return AwayRow(from_us(started), from_us(ends_by))


def game_row(row: Row) -> GameRow:
    deadline = None
    if row[29] is not None:
        deadline = DeadlineRow(
            game_id=row[0],
            player_id=row[29],
            due_at=from_us(row[30]),
            remind_at=from_us(row[31]),
            reminded_at=from_us_or_none(row[32]),
        )
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        message_id=row[4],
        sente=PlayerRow(row[5], row[6], bool(row[7])),
        gote=PlayerRow(row[8], row[9], bool(row[10])),
        terms=terms_of(row, 11),
        start_sfen=row[17],
        status=row[18],
        termination=row[19],
        winner=row[20],
        ply=row[21],
        sfen=row[22],
        sente_bank=from_duration_us(row[23]),
        gote_bank=from_duration_us(row[24]),
        turn_started_at=from_us(row[25]),
        count_proposed_by=row[26],
        started_at=from_us(row[27]),
        finished_at=from_us_or_none(row[28]),
        deadline=deadline,
        sente_away=_away(row[33], row[34]),
        gote_away=_away(row[35], row[36]),
        clock_waits=bool(row[37]),
    )


INSERT_GAME = (
    f"INSERT INTO games (guild_id, channel_id, sente_id, gote_id, {TERMS_COLUMNS}, start_sfen,"
    " status, termination, winner, ply, sfen, sente_bank_us, gote_bank_us, turn_started_at,"
    " started_at, finished_at, clock_waits)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


def insert_params(
    new: NewGame,
    *,
    ply: int = 0,
    sfen: str | None = None,
    turn_started_at: datetime | None = None,
    termination: str | None = None,
    winner: str | None = None,
) -> tuple[object, ...]:
    bank = duration_us(new.terms.bank)
    turn_started = to_us(turn_started_at or new.started_at)
    return (
        new.guild_id,
        new.channel_id,
        new.sente_id,
        new.gote_id,
        *terms_params(new.terms),
        new.start_sfen,
        "active" if termination is None else "finished",
        termination,
        winner,
        ply,
        sfen or new.start_sfen,
        bank,
        bank,
        turn_started,
        to_us(new.started_at),
        None if termination is None else turn_started,
        int(new.clock_waits and termination is None),
    )
