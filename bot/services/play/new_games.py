"""Creating a game: the one path every new game takes, an accepted challenge's and a
tournament's, so both get the same row, players and first deadline."""

from __future__ import annotations

from datetime import datetime

from bot.db import DeadlineRow, NewGame, PlayerRow, Session
from rules import Color

from ..clock.clocks import due_at, reminder_at
from .snapshots import turn_of


async def open_game(
    tx: Session, new: NewGame, players: tuple[PlayerRow, ...] = ()
) -> tuple[int, datetime | None]:
    """Inside the transaction `tx`: `players` stored (their names as they are now), the
    game `new` created at its `started_at` and the first mover's deadline set; the game's
    id and that deadline (None without a time limit).

    Example: `game_id, due = await open_game(tx, new, (bob.to_row(),))`.
    """
    now = new.started_at
    for player in players:
        await tx.players.upsert(player, now)
    game_id = await tx.games.create(new)
    due = due_at(now, new.terms.bank, new.terms.period)
    if due is not None:
        first = turn_of(new.start_sfen)
        mover = new.sente_id if first is Color.SENTE else new.gote_id
        await tx.deadlines.set(DeadlineRow(game_id, mover, due, reminder_at(now, due)))
    return game_id, due
