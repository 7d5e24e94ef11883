"""Moves and the player's own endings: playing a move, resigning, aborting, giving time."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from bot.db import Conflict, DeadlineRow, GameAdvance, GameRow, MoveRow, Session
from rules import (
    Color,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Outcome,
    Sentence,
    Termination,
)
from rules.notation import AmbiguousMoveError, parse_move

from ..choices import AmbiguousMove
from ..clock.clocks import bank_after, due_at, reminder_at
from ..errors import MoveRejected, PositionChanged, ServiceError
from ..ratings.rated import both_have_moved, rate_ending
from .forecasts import plan_reply, write_plan
from .game import GameSnapshot, MovePreview, MoveText, PlayedMove, PlayerRef, RatingChange
from .snapshots import (
    away_of,
    clock_state,
    color_name,
    deadline_of,
    move_text,
    player_ref,
    snapshot,
    thinking_time,
)
from .store import MOVED_ON, GameStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class _Reply:
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
    banks: dict[Color, timedelta],
    now: datetime,
) -> _Reply:
    """The forecaster's `reply` (legal: `plan_reply` checked it) to the move `color` just
    played at ply `row.ply + 1`, giving `game`. The reply is played the moment the
    forecaster's turn began, so it costs their bank nothing; the mover's clock starts
    again from now."""
    after = game.copy()
    after.push(reply)
    outcome: Outcome | None = after.outcome
    advance = GameAdvance(
        game_id=row.id,
        expected_ply=row.ply + 1,
        sfen=after.position.sfen(),
        sente_bank=banks[Color.SENTE],
        gote_bank=banks[Color.GOTE],
        turn_started_at=now,
        termination=None if outcome is None else outcome.termination.value,
        winner=None if outcome is None else color_name(outcome.winner),
    )
    # The mover's turn starts again now, paused if they are on vacation (as any turn is).
    turn = replace(
        row, turn_started_at=now, sente_bank=banks[Color.SENTE], gote_bank=banks[Color.GOTE]
    )
    due = None if outcome is not None else deadline_of(turn, color)
    mover = row.sente if color is Color.SENTE else row.gote
    deadline = None
    if due is not None:
        deadline = DeadlineRow(row.id, mover.user_id, due, reminder_at(now, due))
    last = game.moves[-1] if game.moves else None
    text = move_text(game.position, reply, last)
    return _Reply(reply, text, after, advance, outcome, deadline, due)


#: What "Give more time" must add to the deadline to be given: while the late player's bank
#: lasts, a fresh period changes nothing, and a second press a moment after the first would
#: only post the same extension again.
LEAST_GIFT = timedelta(minutes=1)
#: How many times a move does its checks and clock arithmetic again when a vacation began
#: or ended between them and its write; more than once in a row would take vacations
#: toggled faster than a move is stored.
CLOCK_RETRIES = 3


class _ClockMoved(Exception):
    """The game's clock state changed (not its ply) between a move's checks and its write."""


def read_move(game: GameSnapshot, text: str) -> Move:
    """The legal move `text` means in `game`; refused with the rules' sentence."""
    position, last = game.game.position, game.last_move
    try:
        return parse_move(position, text, last_move=last)
    except AmbiguousMoveError as error:
        candidates = [move_text(position, move, last) for move in error.candidates]
        choice = None
        moves = error.candidates
        if len(moves) == 2 and moves[0].usi().rstrip("+") == moves[1].usi().rstrip("+"):
            promote = 0 if moves[0].promotion else 1
            choice = (candidates[promote], candidates[1 - promote])
        raise AmbiguousMove(
            error.sentence,
            candidates,
            choice,
            game_id=game.id,
            ply=game.ply,
            position_mark=game.position_mark,
        ) from None
    except IllegalMoveError as error:
        raise MoveRejected(error.sentence, error.reason.value) from None
    except InvalidMoveError as error:
        raise MoveRejected(error.sentence) from None


class Moves:
    """What a player does in a game: move, resign, abort, give the opponent time."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def play(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_ply: int | None = None,
        expected_position: str | None = None,
        guild_id: int | None = None,
        name: str | None = None,
    ) -> PlayedMove:
        """Play the move `text` (any notation) for `user_id`. `expected_ply` and
        `expected_position` (a `position_mark`) are what the user saw (a button's); if the
        game moved on since, `PositionChanged`. With
        `guild_id`, a game of another server is `NotFound`. `name` is the player's display
        name now: stored with the move if it changed, so boards show names as they are.
        A rejected move stores nothing.

        Example: `(await service.play(game.id, alice.user_id, "P-76")).move.japanese`
        is `"７六歩"`.
        """
        seen = (expected_ply, expected_position)
        for _ in range(CLOCK_RETRIES):
            now = self._store.now()  # one moment for the deadline check and the clock arithmetic
            loaded, color, move, text_out, game = await self._checked(
                game_id, user_id, text, seen=seen, guild_id=guild_id, now=now
            )
            try:
                return await self._store_move(loaded, game, color, move, text_out, now, name)
            except _ClockMoved:
                # A vacation began or ended meanwhile: its end moved the turn's start, or
                # the next player's deadline depends on it. Checked and counted again from
                # a fresh moment, the move is charged exactly the time off vacation.
                self._store.forget(game_id)
        raise PositionChanged(MOVED_ON)

    async def preview(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_ply: int | None = None,
        expected_position: str | None = None,
        guild_id: int | None = None,
    ) -> MovePreview:
        """The move `text` checked as `play` checks it, and the game as it would be after
        it, without storing anything: for a player who confirms each move. Confirming is
        `play(..., move.usi, expected_ply=preview.ply)`, refused with `PositionChanged`
        if the game moved on meanwhile.
        """
        now = self._store.now()
        loaded, color, _, text_out, game = await self._checked(
            game_id,
            user_id,
            text,
            seen=(expected_ply, expected_position),
            guild_id=guild_id,
            now=now,
        )
        outcome = game.outcome
        banks = {Color.SENTE: loaded.row.sente_bank, Color.GOTE: loaded.row.gote_bank}
        banks[color] = bank_after(banks[color], thinking_time(loaded.row, color, now))
        row = replace(  # the row as `play` would store it now, but not stored
            loaded.row,
            ply=loaded.ply + 1,
            sfen=game.position.sfen(),
            sente_bank=banks[Color.SENTE],
            gote_bank=banks[Color.GOTE],
            turn_started_at=now,
            status="active" if outcome is None else "finished",
            termination=None if outcome is None else outcome.termination.value,
            winner=None if outcome is None else color_name(outcome.winner),
            count_proposed_by=None,
            deadline=None,
        )
        return MovePreview(
            game=snapshot(row, game, text_out),
            move=text_out,
            ply=loaded.ply,
            check=game.position.is_check(),
            position_mark=loaded.position_mark,
        )

    async def _checked(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        seen: tuple[int | None, str | None],
        guild_id: int | None,
        now: datetime,
    ) -> tuple[GameSnapshot, Color, Move, MoveText, Game]:
        """Every check a move makes before it is stored (the game, the player, the turn,
        the position they saw, the move itself): the game as loaded, the mover's colour,
        the move, how it is written, and a copy of the game with the move pushed."""
        loaded = await self._store.current(game_id, guild_id=guild_id, now=now)
        color = self._store.player_color(loaded, user_id)
        self._store.require_active(loaded)
        expected_ply, expected_position = seen
        if expected_ply is not None and expected_ply != loaded.ply:
            raise PositionChanged(MOVED_ON)
        if expected_position is not None and expected_position != loaded.position_mark:
            raise PositionChanged(MOVED_ON)  # the same ply again, after a takeback
        self._store.require_turn(loaded, color)
        move = read_move(loaded, text)
        text_out = move_text(loaded.game.position, move, loaded.last_move)
        game = loaded.game.copy()  # the cached game stays as it was
        game.push(move)
        return loaded, color, move, text_out, game

    async def _store_move(
        self,
        loaded: GameSnapshot,
        game: Game,
        color: Color,
        move: Move,
        text_out: MoveText,
        now: datetime,
        name: str | None,
    ) -> PlayedMove:
        row = loaded.row
        mover = row.sente if color is Color.SENTE else row.gote
        renamed = None
        if name and name != mover.name:
            renamed = replace(mover, name=name)
        banks = {Color.SENTE: row.sente_bank, Color.GOTE: row.gote_bank}
        banks[color] = bank_after(banks[color], thinking_time(row, color, now))
        outcome: Outcome | None = game.outcome
        advance = GameAdvance(
            game_id=row.id,
            expected_ply=row.ply,
            sfen=game.position.sfen(),
            sente_bank=banks[Color.SENTE],
            gote_bank=banks[Color.GOTE],
            turn_started_at=now,
            termination=None if outcome is None else outcome.termination.value,
            winner=None if outcome is None else color_name(outcome.winner),
        )
        following = player_ref(row, color.opponent)
        # The next player's deadline, past their vacation if they are on one.
        turn = replace(
            row, turn_started_at=now, sente_bank=banks[Color.SENTE], gote_bank=banks[Color.GOTE]
        )
        due = None if outcome is not None else deadline_of(turn, color.opponent)
        deadline = None
        if due is not None:
            deadline = DeadlineRow(row.id, following.user_id, due, reminder_at(now, due))

        async def store(tx: Session) -> tuple[_Reply | None, tuple[RatingChange, ...]]:
            fresh = await tx.games.get(row.id)
            if (
                fresh is not None
                and fresh.ply == row.ply
                and clock_state(fresh) != clock_state(row)
            ):
                raise _ClockMoved
            if not await tx.games.advance(advance):
                raise PositionChanged(MOVED_ON)
            await tx.moves.insert(
                MoveRow(
                    row.id,
                    row.ply + 1,
                    move.usi(),
                    mover.user_id,
                    now,
                    sente_bank=banks[Color.SENTE],
                    gote_bank=banks[Color.GOTE],
                )
            )
            # Only now that `advance` holds the game's row: a takeback request or a
            # forecast line stored under its hold (`games.hold`) before this move is read
            # here, and one not yet stored waits for this move and then finds it played.
            # A takeback asked before this move is void.
            lapsed[0] = await tx.takebacks.lapse(row.id, now)
            # The opponent's forecast, in this same transaction (see `forecasts`).
            reply = None
            lines = await tx.forecasts.for_game(row.id, following.user_id)
            if lines:
                plan = plan_reply(lines, row.ply, move.usi(), game)
                await write_plan(tx, plan)
                if plan.reply is not None:
                    reply = _reply_to(row, game, color, plan.reply, banks, now)
                    if not await tx.games.advance(reply.advance):
                        raise PositionChanged(MOVED_ON)
                    await tx.moves.insert(
                        MoveRow(
                            row.id,
                            row.ply + 2,
                            plan.reply.usi(),
                            following.user_id,
                            now,
                            sente_bank=banks[Color.SENTE],
                            gote_bank=banks[Color.GOTE],
                        )
                    )
            final = deadline if reply is None else reply.deadline
            if final is not None:
                await tx.deadlines.set(final)
            else:
                await tx.deadlines.clear(row.id)
            if outcome is not None or (reply is not None and reply.outcome is not None):
                await tx.forecasts.clear(row.id)  # nothing more is played in an ended game
            ending = outcome if reply is None else reply.outcome
            changes: tuple[RatingChange, ...] = ()
            if ending is not None:  # rated with the move that ended the game, so exactly once
                plies = row.ply + (1 if reply is None else 2)
                changes = await rate_ending(tx, row, ending, now, plies=plies)
                # This process posts the ending; another takes it over only if it dies.
                await self._store.claim_ending(tx, row.id, now)
            if renamed is not None:
                await tx.players.upsert(renamed, now)
            return reply, changes

        lapsed = [0]  # takeback requests this move made lapse, as `store` last counted
        stats = self._store.stats
        started = time.perf_counter()
        try:
            # One round trip to the database for all of it, the forecast reply included.
            reply, changes = await self._store.db.run(store)
        except (Conflict, PositionChanged):
            # Another coroutine or process stored a move (or ended the game) first.
            self._store.forget(row.id)
            self._store.require_active(await self._store.load(row.id))
            raise PositionChanged(MOVED_ON) from None
        stats.move_transactions.observe(time.perf_counter() - started)
        stats.moves += 1 if reply is None else 2
        if renamed is not None and color is Color.SENTE:
            row = replace(row, sente=renamed)
        elif renamed is not None:
            row = replace(row, gote=renamed)
        stored = replace(
            row,
            ply=row.ply + 1,
            sfen=advance.sfen,
            sente_bank=advance.sente_bank,
            gote_bank=advance.gote_bank,
            turn_started_at=now,
            count_proposed_by=None,
            status="active" if outcome is None else "finished",
            termination=advance.termination,
            winner=advance.winner,
            finished_at=None if outcome is None else now,
            deadline=deadline,
        )
        after = snapshot(stored, game, text_out)
        if reply is None:
            after = replace(after, rating_changes=changes)
        played = PlayedMove(
            game=after,
            move=text_out,
            mover=player_ref(row, color),
            check=game.position.is_check(),
            outcome=outcome,
            next_player=None if outcome is not None else following,
            deadline=due,
            withdrawn=bool(lapsed[0]) or row.count_proposed_by is not None,
        )
        if reply is not None:
            answered = self._replied(stored, reply, color)
            answered = replace(answered, game=replace(answered.game, rating_changes=changes))
            played = replace(played, forecast=answered)
            due = reply.due
        self._store.remember(played.latest)
        if due is not None:
            self._store.deadline_set(due)
        return played

    @staticmethod
    def _replied(stored: GameRow, reply: _Reply, color: Color) -> PlayedMove:
        """The forecast reply as played: the game after it, and the mover (`color`, whose
        move triggered it) to move again."""
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

    # ----------------------------------------------------------------- ending and time

    async def resign(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Resign; allowed at any moment, also on the opponent's turn. Before both players
        have moved it aborts the game instead, as running out of time then does: nobody has
        really played, so nobody wins (and an account made to lose at once hands out no
        win). A move played meanwhile makes that a refusal, so it never aborts a game both
        have played in."""
        game, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if not both_have_moved(game.ply):
            aborted = Outcome(Termination.ABORT, None)
            return await self._store.finish_or_refuse(game, aborted, expected_ply=game.ply)
        outcome = Outcome(Termination.RESIGNATION, color.opponent)
        return await self._store.finish_or_refuse(game, outcome, expected_ply=None)

    async def check_resign(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> tuple[GameSnapshot, PlayerRef]:
        """Whether `user_id` may resign `game_id` now (asked before the confirmation
        button is shown); the game and the opponent who would win."""
        game, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        return game, game.player(color.opponent)

    async def abort(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """End the game without a result; only before both players have moved."""
        game, _ = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if both_have_moved(game.ply):
            raise ServiceError(
                Sentence(
                    "A game can only be aborted before both players have moved; resign instead."
                )
            )
        outcome = Outcome(Termination.ABORT, None)
        return await self._store.finish_or_refuse(game, outcome, expected_ply=game.ply)

    async def give_time(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Give the opponent (who is to move) a full period again, counted from now."""
        loaded, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        row = loaded.row
        if row.period is None:
            raise ServiceError(
                Sentence("This game has no time limit, so there is no time to give.")
            )
        if loaded.game.position.turn is color:
            raise ServiceError(Sentence("It is your move; your opponent's clock is not running."))
        now = self._store.now()
        opponent = color.opponent
        away = away_of(row, opponent)
        if away is not None and now < away.ends_by:
            # Their clock stands still and their deadline already lies past the vacation's
            # latest end; a period "from now" would mean nothing until they are back, and
            # their vacation's end moves the deadline later by the time spent anyway.
            raise ServiceError(
                Sentence(
                    "{name} is on vacation; their clock is paused, so there is no time to "
                    "give until they are back.",
                    name=player_ref(row, opponent).name,
                )
            )
        banks = {Color.SENTE: row.sente_bank, Color.GOTE: row.gote_bank}
        # Not the time since the turn began: a vacation that ran out (and was not yet
        # ended by the deadline task) is no thinking time.
        banks[opponent] = bank_after(banks[opponent], thinking_time(row, opponent, now))
        due = due_at(now, banks[opponent], row.period)
        assert due is not None
        if loaded.deadline is not None and due < loaded.deadline + LEAST_GIFT:
            raise ServiceError(
                Sentence(
                    "Your opponent already has all the time you could give: their deadline "
                    "would not move."
                )
            )
        waiting = player_ref(row, opponent).user_id
        deadline = DeadlineRow(row.id, waiting, due, reminder_at(now, due))
        async with self._store.db.transaction() as tx:
            done = await tx.games.restart_clock(
                row.id,
                row.ply,
                sente_bank=banks[Color.SENTE],
                gote_bank=banks[Color.GOTE],
                turn_started_at=now,
            )
            if done:
                await tx.deadlines.set(deadline)
        if not done:
            self._store.require_active(await self._store.load(game_id))
            raise PositionChanged(MOVED_ON)
        self._store.deadline_set(due)
        return await self._store.load(game_id)
