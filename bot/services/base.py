"""What every part of the game service shares: the database, the clock, the caches,
loading a game (ending it on time first when its deadline has passed), ending a
game exactly once, and reporting events.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime

from bot.db import Database, GameRecord
from rules import Color, Outcome, Termination

from .errors import GameOver, NotAPlayer, NotFound, PositionChanged, ServiceError
from .loading import (
    GameCache,
    LegalMoveCache,
    Loaded,
    ReplayError,
    color_name,
    color_of,
    current_deadline,
    replay,
    stored_outcome,
    to_view,
    turn_of,
    with_outcome,
)
from .views import ChallengeView, GameEvents, GameView

log = logging.getLogger(__name__)

_HOW = {
    Termination.CHECKMATE: "by checkmate",
    Termination.STALEMATE: "because a player had no legal move",
    Termination.SENNICHITE: "in sennichite (repetition)",
    Termination.PERPETUAL_CHECK: "by perpetual check",
    Termination.RESIGNATION: "by resignation",
    Termination.TIME: "on time",
    Termination.ABORT: "by abort",
    Termination.IMPASSE_24: "by the impasse count",
    Termination.IMPASSE_27: "by an impasse declaration",
    Termination.IMPASSE_JSA24: "by an impasse declaration",
}


def utc_now() -> datetime:
    return datetime.now(UTC)


def ended_sentence(outcome: Outcome | None) -> str:
    how = "" if outcome is None else " " + _HOW[outcome.termination]
    return f"This game has already ended{how}."


class ServiceBase:
    """State and helpers shared by the parts of `GameService` (see `games.py`)."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], datetime] = utc_now,
        events: GameEvents | None = None,
        rng: random.Random | None = None,
        cache_size: int = 512,
    ) -> None:
        self.db = db
        self.events = events
        self._clock = clock
        self._rng = rng or random.Random()
        self._games = GameCache(cache_size)
        self._legal = LegalMoveCache()
        self._deadline_listeners: list[Callable[[datetime | None], None]] = []
        self._left_over_endings_posted = False

    # ----------------------------------------------------------------- time and events

    def now(self) -> datetime:
        """The service's clock (injectable for tests); always aware UTC."""
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the service clock must return aware datetimes")
        return moment.astimezone(UTC)

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
        """`listener(when)` is called whenever a deadline is set; the scheduler wakes on it."""
        self._deadline_listeners.append(listener)

    def _deadline_set(self, when: datetime | None) -> None:
        for listener in self._deadline_listeners:
            try:
                listener(when)
            except Exception:
                log.exception("deadline listener failed")

    async def _emit_timed_out(self, game: GameView) -> None:
        if self.events is not None:
            try:
                await self.events.game_timed_out(game)
            except Exception:
                log.exception("game_timed_out handler failed for game %s", game.id)

    async def _emit_unannounced(self, game: GameView) -> None:
        if self.events is not None:
            try:
                await self.events.ending_unannounced(game)
            except Exception:
                log.exception("ending_unannounced handler failed for game %s", game.id)

    async def mark_end_announced(self, game_id: int) -> None:
        """The game's ending is posted in its thread (called by whoever posted it)."""
        async with self.db.transaction() as tx:
            await tx.games.mark_end_announced(game_id, self.now())

    async def _emit_reminder(self, game: GameView) -> None:
        if self.events is not None:
            try:
                await self.events.deadline_reminder(game)
            except Exception:
                log.exception("deadline_reminder handler failed for game %s", game.id)

    async def _emit_expired(self, challenge: ChallengeView) -> None:
        if self.events is not None:
            try:
                await self.events.challenge_expired(challenge)
            except Exception:
                log.exception("challenge_expired handler failed for challenge %s", challenge.id)

    # ----------------------------------------------------------------- loading

    async def _load(self, game_id: int) -> Loaded:
        """The game as stored: from the cache if the row still matches, else replayed."""
        async with self.db.query() as q:  # one statement: the row decides if the cache holds
            record = await q.games.get(game_id)
        if record is None:
            raise NotFound(f"There is no game number {game_id}.")
        cached = self._games.get(record)
        if cached is not None:
            return cached
        async with self.db.read() as tx:  # the row and its moves from one snapshot
            record = await tx.games.get(game_id)
            if record is None:
                raise NotFound(f"There is no game number {game_id}.")
            moves = await tx.moves.usi_list(game_id)
        return await self._rebuild(record, moves)

    async def _rebuild(self, record: GameRecord, moves: Sequence[str]) -> Loaded:
        try:
            loaded = replay(record, moves)
        except ReplayError:
            log.exception("game %s does not replay", record.id)
            raise ServiceError(
                "This game's stored moves are damaged; please tell the bot's operator."
            ) from None
        sfen = loaded.game.position.sfen()
        if sfen != record.sfen or len(moves) != record.ply:
            log.warning(
                "game %s: cached position %r at ply %s, the moves give %r at ply %s; repairing",
                record.id,
                record.sfen,
                record.ply,
                sfen,
                len(moves),
            )
            async with self.db.transaction() as tx:
                await tx.games.repair_position(record.id, record.ply, len(moves), sfen)
            loaded = Loaded(
                replace(record, ply=len(moves), sfen=sfen), loaded.game, loaded.last_text
            )
        outcome = loaded.game.outcome
        if loaded.record.status == "active" and outcome is not None:
            # The moves ended the game but the row says it goes on: the moves are the truth.
            log.warning("game %s: the moves ended it (%s); recording that", record.id, outcome)
            ended = await self._finish(
                loaded, outcome, expected_ply=loaded.record.ply, at=self.now()
            )
            return ended if ended is not None else await self._load(record.id)
        self._games.put(loaded)
        return loaded

    async def _current(self, game_id: int, now: datetime | None = None) -> Loaded:
        """Load a game, first ending it on time if its deadline has passed (the lazy check
        every interaction makes, so an overdue game never takes another move)."""
        loaded = await self._load(game_id)
        deadline = current_deadline(loaded.record)
        if deadline is not None and (now or self.now()) >= deadline:
            ended = await self._time_out(loaded, deadline)
            return ended if ended is not None else await self._load(game_id)
        return loaded

    async def _time_out(self, loaded: Loaded, deadline: datetime) -> Loaded | None:
        """End the game on time, once; None if a move or another process got there first."""
        loser = turn_of(loaded.record.sfen)
        outcome = Outcome(Termination.TIME, loser.opponent)
        ended = await self._finish(loaded, outcome, expected_ply=loaded.record.ply, at=deadline)
        if ended is not None:
            log.info("game %s: %s lost on time", loaded.record.id, color_name(loser))
            await self._emit_timed_out(to_view(ended))
        return ended

    async def _finish(
        self, loaded: Loaded, outcome: Outcome, *, expected_ply: int | None, at: datetime
    ) -> Loaded | None:
        """Store the end of an active game; None if it had ended or moved on meanwhile
        (the conditional update is what makes the end happen exactly once)."""
        record = loaded.record
        async with self.db.transaction() as tx:
            done = await tx.games.finish(
                record.id,
                termination=outcome.termination.value,
                winner=color_name(outcome.winner),
                at=at,
                expected_ply=expected_ply,
            )
            if done:
                await tx.deadlines.clear(record.id)
        if not done:
            self._games.drop(record.id)
            return None
        finished = replace(
            record,
            status="finished",
            termination=outcome.termination.value,
            winner=color_name(outcome.winner),
            finished_at=at,
            count_proposed_by=None,
            deadline=None,
        )
        ended = with_outcome(loaded, finished, outcome)
        self._games.put(ended)
        return ended

    async def _finish_or_explain(
        self, loaded: Loaded, outcome: Outcome, *, expected_ply: int | None
    ) -> GameView:
        """`_finish` for a player's request; a lost race becomes the right refusal."""
        ended = await self._finish(loaded, outcome, expected_ply=expected_ply, at=self.now())
        if ended is not None:
            return to_view(ended)
        fresh = await self._load(loaded.record.id)
        if fresh.record.status != "active":
            raise GameOver(ended_sentence(stored_outcome(fresh.record)))
        raise PositionChanged("A move was just played in this game; look at the board again.")

    # ----------------------------------------------------------------- checks

    @staticmethod
    def _player_color(loaded: Loaded, user_id: int) -> Color:
        color = color_of(loaded.record, user_id)
        if color is None:
            raise NotAPlayer("You are not a player in this game.")
        return color

    @staticmethod
    def _require_active(loaded: Loaded) -> None:
        if loaded.record.status != "active":
            raise GameOver(ended_sentence(stored_outcome(loaded.record)))
