"""A forecast's reply, played inside the transaction of the move that triggers it.

Which line answers the opponent's move and what becomes of the others (`plan_reply`),
the reply's writes (`play_reply`) and the reply as the move's answer shows it
(`played_reply`). `forecasts.py` explains why the reply is stored with the move that
triggers it, and `Moves.play` calls it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.db import DeadlineRow, ForecastRow, GameAdvance, GameRow, MoveRow, Session
from rules import Color, Game, Move, Outcome

from ..errors import PositionChanged
from .advances import Banks, advance_of, deadline_starting
from .game import MoveText, PlayedMove
from .snapshots import move_text, player_ref, snapshot
from .store import MOVED_ON


@dataclass(frozen=True, slots=True)
class ReplyPlan:
    """What the opponent's move does to the forecaster's lines (`plan_reply`): the reply
    to play, if any, the lines shortened to what follows it (id, new start ply, moves),
    and the ids of the lines to drop."""

    reply: Move | None
    shortened: tuple[tuple[int, int, tuple[str, ...]], ...]
    dropped: tuple[int, ...]


def plan_reply(lines: Sequence[ForecastRow], ply: int, played: str, game: Game) -> ReplyPlan:
    """The forecaster's `lines` once the opponent played `played` (USI) at ply `ply + 1`,
    giving `game`. Pure: the caller writes the plan in the move's own transaction."""
    every = tuple(line.id for line in lines)
    matching = [line for line in lines if line.ply == ply and line.moves[0] == played]
    if not matching or game.outcome is not None:
        return ReplyPlan(None, (), every)
    reply_usi = matching[0].moves[1]
    try:
        reply = Move.from_usi(reply_usi)
    except ValueError:
        return ReplyPlan(None, (), every)
    if not game.position.is_legal(reply):
        return ReplyPlan(None, (), every)
    kept = [line for line in matching if line.moves[1] == reply_usi and len(line.moves) > 2]
    shortened = tuple((line.id, ply + 2, line.moves[2:]) for line in kept)
    kept_ids = {line.id for line in kept}
    return ReplyPlan(reply, shortened, tuple(i for i in every if i not in kept_ids))


async def write_plan(tx: Session, plan: ReplyPlan) -> None:
    """Store `plan`'s changes to the lines (inside the move's transaction)."""
    for forecast_id, ply, moves in plan.shortened:
        await tx.forecasts.shorten(forecast_id, ply, moves)
    await tx.forecasts.delete(plan.dropped)


@dataclass(frozen=True, slots=True)
class ForecastReply:
    """A forecast reply, worked out inside the transaction of the move that triggered it:
    the move, how it is written, the game after it, its write and the next deadline."""

    move: Move
    text: MoveText
    game: Game
    advance: GameAdvance
    outcome: Outcome | None
    deadline: DeadlineRow | None
    due: datetime | None


def _reply_to(
    row: GameRow,
    game: Game,
    color: Color,
    reply: Move,
    banks: Banks,
    now: datetime,
) -> ForecastReply:
    """The forecaster's `reply` (legal: `plan_reply` checked it) to the move `color` just
    played at ply `row.ply + 1`, giving `game`. The reply is played the moment the
    forecaster's turn began, so it costs their bank nothing; the mover's clock starts
    again from now."""
    after = game.copy()
    after.push(reply)
    outcome: Outcome | None = after.outcome
    advance = advance_of(row, after, banks, now, ply=row.ply + 1)
    # The mover's turn starts again now, paused if they are on vacation (as any turn is).
    deadline = None if outcome is not None else deadline_starting(row, color, banks, now)
    due = None if deadline is None else deadline.due_at
    last = game.moves[-1] if game.moves else None
    text = move_text(game.position, reply, last)
    return ForecastReply(reply, text, after, advance, outcome, deadline, due)


async def play_reply(
    tx: Session,
    row: GameRow,
    game: Game,
    color: Color,
    banks: Banks,
    now: datetime,
) -> ForecastReply | None:
    """In the transaction `tx` that just stored `color`'s move (the last of `game`) on
    the game `row` showed before it: the opponent's forecast lines answer it, and their
    reply, if one matches, is stored too; None when no line gives one. `banks` are both
    banks after the move.

    Example: `reply = await play_reply(tx, row, game, Color.SENTE, banks, now)`.
    """
    forecaster = player_ref(row, color.opponent)
    lines = await tx.forecasts.for_game(row.id, forecaster.user_id)
    if not lines:
        return None
    plan = plan_reply(lines, row.ply, game.moves[-1].usi(), game)
    await write_plan(tx, plan)
    if plan.reply is None:
        return None
    reply = _reply_to(row, game, color, plan.reply, banks, now)
    if not await tx.games.advance(reply.advance):
        raise PositionChanged(MOVED_ON)
    await tx.moves.insert(
        MoveRow(
            row.id,
            row.ply + 2,
            plan.reply.usi(),
            forecaster.user_id,
            now,
            sente_bank=banks[Color.SENTE],
            gote_bank=banks[Color.GOTE],
        )
    )
    return reply


def played_reply(stored: GameRow, reply: ForecastReply, color: Color) -> PlayedMove:
    """The forecast reply as played: the game after it (`stored` is the game's row after
    the move that triggered it), and the mover (`color`, whose move triggered it) to
    move again."""
    ended = reply.outcome is not None
    row = replace(
        stored,
        ply=stored.ply + 1,
        sfen=reply.advance.sfen,
        status="finished" if ended else "active",
        termination=reply.advance.termination,
        winner=reply.advance.winner,
        finished_at=reply.advance.turn_started_at if ended else None,
        deadline=reply.deadline,
    )
    return PlayedMove(
        game=snapshot(row, reply.game, reply.text),
        move=reply.text,
        mover=player_ref(row, color.opponent),
        check=reply.game.position.is_check(),
        outcome=reply.outcome,
        next_player=None if ended else player_ref(row, color),
        deadline=reply.due,
    )
