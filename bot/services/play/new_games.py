"""Creating a game: the one path every new game takes, an accepted challenge's and a
tournament's, so both get the same row, players and first deadline, and starting the
clock of a game that waited for its first post (an event's)."""

from __future__ import annotations

from datetime import datetime

from bot.db import DeadlineRow, NewGame, PlayerRow, Session, Terms
from rules import Color

from ..clock.clocks import due_at, reminder_at
from .snapshots import turn_of


async def open_game(
    tx: Session, new: NewGame, players: tuple[PlayerRow, ...] = ()
) -> tuple[int, datetime | None]:
    """Inside the transaction `tx`: `players` stored (their names as they are now), the
    game `new` created at its `started_at` and the first mover's deadline set; the game's
    id and that deadline (None without a time limit). A game whose clock waits
    (`new.clock_waits`) gets no deadline: `start_clock` sets it with its first post.

    Example: `game_id, due = await open_game(tx, new, (bob.to_row(),))`.
    """
    now = new.started_at
    for player in players:
        await tx.players.upsert(player, now)
    game_id = await tx.games.create(new)
    if new.clock_waits:
        return game_id, None
    due = await _first_deadline(
        tx, game_id, new.terms, new.start_sfen, new.sente_id, new.gote_id, now
    )
    return game_id, due


async def start_clock(tx: Session, game_id: int, now: datetime) -> datetime | None:
    """Inside `tx`: start the clock of a game that waited for its first post, from `now`
    (its start, its first turn's and the first mover's deadline and reminder); the
    deadline, or None if there is none or the clock had started already (by this process
    or another, before a restart or at once: the conditional update lets one through).

    Example: `due = await start_clock(tx, game_id, now)` as the game's thread is recorded.
    """
    if not await tx.games.start_clock(game_id, now):
        return None
    row = await tx.games.get(game_id)
    assert row is not None
    return await _first_deadline(
        tx, game_id, row.terms, row.start_sfen, row.sente.user_id, row.gote.user_id, now
    )


async def _first_deadline(
    tx: Session, game_id: int, terms: Terms, start_sfen: str, sente: int, gote: int, now: datetime
) -> datetime | None:
    due = due_at(now, terms.bank, terms.period)
    if due is not None:
        mover = sente if turn_of(start_sfen) is Color.SENTE else gote
        await tx.deadlines.set(DeadlineRow(game_id, mover, due, reminder_at(now, due)))
    return due
