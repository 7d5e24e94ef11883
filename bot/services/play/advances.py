"""What a move writes to move a game on: both banks once the mover's turn ends, the
game's conditional advance, and the deadline of the player whose turn begins.

One place for `/move`, the forecast reply it may trigger, the preview that shows a move
before it is played, and an accepted takeback (which starts a turn as a move does).
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from bot.db import DeadlineRow, GameAdvance, GameRow
from rules import Color, Game

from ..clock.clocks import bank_after, reminder_at
from .snapshots import color_name, deadline_of, player_ref, thinking_time

#: Both players' banks, by colour.
Banks = dict[Color, timedelta]


def banks_after_turn(row: GameRow, color: Color, now: datetime) -> Banks:
    """Both banks once `color` ends the turn `row` shows `now`: their thinking time (not
    the time of a vacation) off their bank, the other bank as it stands.

    Example: `banks_after_turn(row, Color.SENTE, now)[Color.GOTE] == row.gote_bank`.
    """
    banks = {Color.SENTE: row.sente_bank, Color.GOTE: row.gote_bank}
    banks[color] = bank_after(banks[color], thinking_time(row, color, now))
    return banks


def advance_of(row: GameRow, game: Game, banks: Banks, now: datetime, *, ply: int) -> GameAdvance:
    """The write that stores `game`, one move past ply `ply` of the game `row`, with
    `banks` and the next turn starting `now`, and its ending if that move ended it;
    written only if the game is still at `ply`.

    Example: `await tx.games.advance(advance_of(row, game, banks, now, ply=row.ply))`.
    """
    outcome = game.outcome
    return GameAdvance(
        game_id=row.id,
        expected_ply=ply,
        sfen=game.position.sfen(),
        sente_bank=banks[Color.SENTE],
        gote_bank=banks[Color.GOTE],
        turn_started_at=now,
        termination=None if outcome is None else outcome.termination.value,
        winner=None if outcome is None else color_name(outcome.winner),
    )


def deadline_starting(
    row: GameRow, color: Color, banks: Banks, now: datetime
) -> DeadlineRow | None:
    """The deadline of `color`, whose turn in the game `row` starts `now` with `banks`:
    past their vacation's latest end if they are on one (the turn is paused), None in a
    game without a time limit.

    Example: `deadline_starting(row, Color.GOTE, banks, now).due_at` is when gote loses.
    """
    turn = replace(
        row, turn_started_at=now, sente_bank=banks[Color.SENTE], gote_bank=banks[Color.GOTE]
    )
    due = deadline_of(turn, color)
    if due is None:
        return None
    return DeadlineRow(row.id, player_ref(row, color).user_id, due, reminder_at(now, due))
