"""Moves: reading a move in any notation, checking it, previewing it and playing it."""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from datetime import datetime

from bot.db import Conflict, MoveRow, NamedOpening, Session
from rules import (
    Color,
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Move,
    Outcome,
)
from rules.notation import AmbiguousMoveError, parse_move
from rules.openings import Openings

from ..choices import AmbiguousMove
from ..errors import MoveRejected, PositionChanged
from ..ratings.rated import rate_ending
from ..records.openings import MoveNamer, announced
from ..tournaments.mirror import mirror_ending
from .advances import advance_of, banks_after_turn, deadline_starting
from .clock_races import require_same_clock, with_clock_retries
from .forecast_replies import ForecastReply, play_reply, played_reply
from .game import GameSnapshot, MovePreview, MoveText, PlayedMove, RatingChange
from .snapshots import (
    move_text,
    player_ref,
    snapshot,
)
from .store import MOVED_ON, GameStore

log = logging.getLogger(__name__)


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
    """A player's move: previewed, or played (with the forecast reply it triggers)."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._namer = MoveNamer()

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

        async def attempt() -> PlayedMove:
            now = self._store.now()  # one moment for the deadline check and the clock arithmetic
            loaded, color, move, text_out, game = await self._checked(
                game_id, user_id, text, seen=seen, guild_id=guild_id, now=now
            )
            return await self._store_move(loaded, game, color, move, text_out, now, name)

        # A vacation that begins or ends meanwhile moves the turn's start or the next
        # player's deadline: the move is then checked and counted again (`clock_races`).
        return await with_clock_retries(self._store, game_id, attempt)

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
        banks = banks_after_turn(loaded.row, color, now)
        advance = advance_of(loaded.row, game, banks, now, ply=loaded.ply)
        row = replace(  # the row as `play` would store it now, but not stored
            loaded.row,
            ply=loaded.ply + 1,
            sfen=advance.sfen,
            sente_bank=advance.sente_bank,
            gote_bank=advance.gote_bank,
            turn_started_at=now,
            status="active" if game.outcome is None else "finished",
            termination=advance.termination,
            winner=advance.winner,
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
        self._store.require_clock_started(loaded)
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
        banks = banks_after_turn(row, color, now)
        outcome: Outcome | None = game.outcome
        advance = advance_of(row, game, banks, now, ply=row.ply)
        following = player_ref(row, color.opponent)
        # The next player's deadline, past their vacation if they are on one.
        deadline = (
            None if outcome is not None else deadline_starting(row, color.opponent, banks, now)
        )
        due = None if deadline is None else deadline.due_at
        openings, names = self._namer.names(row.id, game)

        async def store(tx: Session) -> tuple[ForecastReply | None, tuple[RatingChange, ...]]:
            await require_same_clock(tx, row)
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
            reply = await play_reply(tx, row, game, color, banks, now)
            named[0] = await tx.openings.add(row.id, names)  # once, with the move
            if reply is not None:
                reply_openings[0], reply_names = self._namer.names(row.id, reply.game)
                named[1] = await tx.openings.add(row.id, reply_names)
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
                await mirror_ending(tx, row.id, ending)  # a tournament's, for its table
                # This process posts the ending; another takes it over only if it dies.
                await self._store.claim_ending(tx, row, now)
            if renamed is not None:
                await tx.players.upsert(renamed, now)
            return reply, changes

        lapsed = [0]  # takeback requests this move made lapse, as `store` last counted
        named: list[list[NamedOpening]] = [[], []]  # names the move and the reply stored
        reply_openings = [Openings(())]  # the reply's game's names, as `store` last found
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
            openings=tuple(announced(openings, named[0], game.ply)),
        )
        if reply is not None:
            answered = played_reply(stored, reply, color)
            answered = replace(
                answered,
                game=replace(answered.game, rating_changes=changes),
                openings=tuple(announced(reply_openings[0], named[1], reply.game.ply)),
            )
            played = replace(played, forecast=answered)
            due = reply.due
        self._store.remember(played.latest)
        if due is not None:
            self._store.deadline_set(due)
        if played.latest.outcome is not None:
            self._store.ending_bell.ring()
        return played
