"""The one game store every part of the service works through.

It owns the database handle, the clock, the caches of replayed games and legal
moves, and the event sink; it loads a game (ending it on time first when its
deadline has passed), ends a game exactly once, and checks the rules of the
game that every action shares: the game is in this server, the user plays in
it, it is not over. Each of those checks, and its sentence, exists only here.
"""

from __future__ import annotations

import logging
import os
import random
import secrets
import socket
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from enum import Enum
from typing import TypedDict

from bot.db import Database, GameRow, RatingEntry, Session
from rules import Color, Outcome, Sentence, Termination

from ..clock.sends import Doorbell, Send, queue_for_game
from ..errors import (
    AlreadyStarted,
    ClockWaits,
    GameOver,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    PositionChanged,
    ServiceError,
)
from ..events import GameEvents, SafeEvents
from ..explorer.ending import index_ending
from ..logcontext import about_game
from ..ratings.rated import both_have_moved, change_of, rate_ending
from ..stats import ServiceStats
from ..tournaments.mirror import mirror_ending
from .game import GameSnapshot, RatingChange
from .snapshots import (
    GameCache,
    LegalMoveCache,
    ReplayError,
    color_name,
    color_of,
    current_deadline,
    replay,
    snapshot,
    stored_outcome,
    turn_of,
    with_outcome,
)

log = logging.getLogger(__name__)

MOVED_ON = Sentence(
    "The position changed: a move was just played in this game. Look at the board again."
)
#: A game whose clock waits for its first post (an event's, its thread opened later).
CLOCK_WAITS = Sentence(
    "This game's thread is still being opened: play and the clock begin with its first post."
)


def utc_now() -> datetime:
    return datetime.now(UTC)


#: How long the process that stored an ending has to post it before another may. Posting
#: takes seconds (a board rendered and uploaded); the lease only has to outlast that, and
#: a process that died is replaced by then.
ENDING_LEASE = timedelta(minutes=2)


def worker_name() -> str:
    """A name for this process that no other process sharing the database has: the
    machine, the process id and a random part (a restarted process is another one)."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


def no_such_game(game_id: int) -> NotFound:
    """The one refusal for a game that does not exist or belongs to another server: game
    ids are small numbers anyone can guess, and other servers' games are none of theirs."""
    return NotFound(Sentence("There is no game #{game_id} in this server.", game_id=game_id))


class Scheduler(Enum):
    """What created a game that was not a challenge, for the refusals that name it."""

    TOURNAMENT = "tournament"
    TEAM_MATCH = "team_match"


class StoreOptions(TypedDict, total=False):
    """What a `GameService` passes on to its store, each defaulting as `GameStore` says:
    the clock it reads (`utc_now`), where its events go, the randomness of open
    challenges' sides, and how many games its cache keeps."""

    clock: Callable[[], datetime]
    events: GameEvents | None
    rng: random.Random | None
    cache_size: int


class GameStore:
    """Games by id, loaded through one cache, checked and ended in one place."""

    def __init__(
        self,
        db: Database,
        *,
        clock: Callable[[], datetime] = utc_now,
        events: GameEvents | None = None,
        rng: random.Random | None = None,
        cache_size: int = 512,
        worker: str | None = None,
    ) -> None:
        self.db = db
        self.stats = ServiceStats()
        #: This process among those sharing the database: the name its leases carry.
        self.worker = worker or worker_name()
        self.events = SafeEvents(events)
        self.rng = rng or random.Random()
        self.legal = LegalMoveCache()
        self._clock = clock
        self._games = GameCache(cache_size)
        self._deadline_listeners: list[Callable[[datetime | None], None]] = []
        self.doorbell = Doorbell()  # rung when a send is queued (the outbox's sender wakes)
        #: Rung once a game's ending is committed (its scan for problems is queued with it).
        self.ending_bell = Doorbell()

    @property
    def cache_size(self) -> int:
        return self._games.size

    # ----------------------------------------------------------------- time

    def now(self) -> datetime:
        """The service's clock (injectable for tests); always aware UTC."""
        moment = self._clock()
        if moment.tzinfo is None:
            raise ValueError("the service clock must return aware datetimes")
        return moment.astimezone(UTC)

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
        """`listener(when)` is called whenever a deadline is set; the scheduler wakes on it."""
        self._deadline_listeners.append(listener)

    def deadline_set(self, when: datetime | None) -> None:
        for listener in self._deadline_listeners:
            try:
                listener(when)
            except Exception:
                log.exception("deadline listener failed")

    # ----------------------------------------------------------------- loading

    async def load(self, game_id: int) -> GameSnapshot:
        """The game as stored: from the cache if the row still matches, else replayed."""
        async with self.db.query() as q:  # one statement: the row decides if the cache holds
            row = await q.games.get(game_id)
        if row is None:
            raise no_such_game(game_id)
        about_game(game_id, row.guild_id)
        cached = self._games.get(row)
        if cached is not None:
            return cached

        async def read(tx: Session) -> tuple[GameRow | None, list[str], list[RatingEntry]]:
            ratings = await tx.ratings.of_game(game_id)  # none while the game goes on
            return await tx.games.get(game_id), await tx.moves.usi_list(game_id), ratings

        # The row, moves and rating changes of one snapshot.
        row, moves, ratings = await self.db.run(read, write=False)
        if row is None:
            raise no_such_game(game_id)
        return await self._rebuild(row, moves, tuple(change_of(entry) for entry in ratings))

    async def _rebuild(
        self, row: GameRow, moves: Sequence[str], changes: tuple[RatingChange, ...] = ()
    ) -> GameSnapshot:
        try:
            loaded = replace(replay(row, moves), rating_changes=changes)
        except ReplayError:
            log.exception("game %s does not replay", row.id)
            raise ServiceError(
                Sentence("This game's stored moves are damaged; please tell the bot's operator.")
            ) from None
        sfen = loaded.game.position.sfen()
        if sfen != row.sfen or len(moves) != row.ply:
            log.warning(
                "game %s: cached position %r at ply %s, the moves give %r at ply %s; repairing",
                row.id,
                row.sfen,
                row.ply,
                sfen,
                len(moves),
            )
            async with self.db.transaction() as tx:
                await tx.games.repair_position(row.id, row.ply, len(moves), sfen)
            repaired = replace(row, ply=len(moves), sfen=sfen)
            loaded = replace(
                snapshot(repaired, loaded.game, loaded.last_move_text), rating_changes=changes
            )
        outcome = loaded.game.outcome
        if loaded.is_active and outcome is not None:
            # The moves ended the game but the row says it goes on: the moves are the truth.
            log.warning("game %s: the moves ended it (%s); recording that", row.id, outcome)
            ended = await self.finish(loaded, outcome, expected_ply=loaded.ply, at=self.now())
            return ended if ended is not None else await self.load(row.id)
        self._games.put(loaded)
        return loaded

    def remember(self, game: GameSnapshot) -> None:
        """Cache a snapshot this process just stored (the next load need not replay)."""
        self._games.put(game)

    def forget(self, game_id: int) -> None:
        """Drop a cached game that another writer changed."""
        self._games.drop(game_id)

    async def current(
        self, game_id: int, *, guild_id: int | None = None, now: datetime | None = None
    ) -> GameSnapshot:
        """Load a game, first ending it on time if its deadline has passed (the lazy check
        every interaction makes, so an overdue game never takes another move). With
        `guild_id`, a game of another server does not exist."""
        loaded = await self.load(game_id)
        if guild_id is not None and loaded.guild_id != guild_id:
            raise no_such_game(game_id)
        deadline = current_deadline(loaded.row)
        if deadline is not None and (now or self.now()) >= deadline:
            ended = await self.time_out(loaded, deadline)
            return ended if ended is not None else await self.load(game_id)
        return loaded

    async def for_player(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> tuple[GameSnapshot, Color]:
        """An active game `user_id` plays in, and their colour; refused otherwise."""
        game = await self.current(game_id, guild_id=guild_id)
        color = self.player_color(game, user_id)
        self.require_active(game)
        return game, color

    # ----------------------------------------------------------------- the shared rules

    @staticmethod
    def player_color(game: GameSnapshot, user_id: int) -> Color:
        color = color_of(game.row, user_id)
        if color is None:
            raise NotAPlayer(Sentence("You are not a player in this game."))
        return color

    @staticmethod
    def require_turn(game: GameSnapshot, color: Color) -> None:
        if game.turn is not color:
            name = game.player(color.opponent).name
            raise NotYourTurn(Sentence("It is {name}'s move.", name=name))

    async def already_started(self, sentence: Sentence, game_id: int) -> AlreadyStarted:
        """The refusal of a second start of something that started game `game_id`."""
        game = await self.load(game_id)
        return AlreadyStarted(
            sentence, game_id=game.id, channel_id=game.channel_id, thread_id=game.thread_id
        )

    @staticmethod
    def require_active(game: GameSnapshot) -> None:
        if not game.is_active:
            raise GameOver(stored_outcome(game.row))

    @staticmethod
    def require_clock_started(game: GameSnapshot) -> None:
        """Refuse what needs the clock running (a move, time given) in a game whose clock
        waits for its first post. A move is refused rather than allowed to start the
        clock: the opponent could not see the game either, and their clock would then
        run for a game they have not seen, which is what waiting is there to prevent."""
        if game.row.clock_waits:
            raise ClockWaits(CLOCK_WAITS)

    # ----------------------------------------------------------------- endings

    async def time_out(self, game: GameSnapshot, deadline: datetime) -> GameSnapshot | None:
        """End the game on time, once; None if a move or another process got there first.
        Its post is queued in the same transaction (`bot.services.clock.outbox`).

        A player whose time runs out before their first move has not really played: the
        game is aborted without a result (as lishogi does), so an accepted challenge
        nobody plays cannot cost anyone a loss; but not in a tournament, where a player
        who never moves loses on time (the no-show rule), as the game was not their
        choice to begin with but the schedule's."""
        late = turn_of(game.row.sfen)
        if not both_have_moved(game.ply) and not await self.in_tournament(game.id):
            outcome = Outcome(Termination.ABORT, None)
        else:
            outcome = Outcome(Termination.TIME, late.opponent)
        ended = await self.finish(game, outcome, expected_ply=game.ply, at=deadline, queued=True)
        if ended is not None:
            result = "lost on time" if outcome.winner is not None else "never moved: aborted"
            log.info("game %s: %s %s", game.id, color_name(late), result)
            self.doorbell.ring()
        return ended

    async def in_tournament(self, game_id: int) -> bool:
        """Whether the game is one of a tournament's or a team match's (it then never
        ends without a result: see `time_out` and `Endings`)."""
        return await self.scheduled_by(game_id) is not None

    async def scheduled_by(self, game_id: int) -> Scheduler | None:
        """What scheduled the game: a tournament, a team match, or nothing (a challenge),
        so that a refusal can name it."""
        async with self.db.query() as q:
            if await q.tournaments.of_game(game_id) is not None:
                return Scheduler.TOURNAMENT
            if await q.team_matches.of_game(game_id) is not None:
                return Scheduler.TEAM_MATCH
            return None

    async def finish(
        self,
        game: GameSnapshot,
        outcome: Outcome,
        *,
        expected_ply: int | None,
        at: datetime,
        queued: bool = False,
    ) -> GameSnapshot | None:
        """Store the end of an active game; None if it had ended or moved on meanwhile
        (the conditional update is what makes the end happen exactly once). `queued`: its
        post goes through the outbox (an ending nobody's action brought about)."""
        row = game.row

        async def store(tx: Session) -> tuple[bool, tuple[RatingChange, ...]]:
            done = await tx.games.finish(
                row.id,
                termination=outcome.termination.value,
                winner=color_name(outcome.winner),
                at=at,
                expected_ply=expected_ply,
            )
            if done:
                await self.claim_ending(tx, row, self.now())
                if queued:
                    await queue_for_game(tx, Send.ENDING, row.id, self.now())
                await tx.deadlines.clear(row.id)
                await tx.takebacks.lapse(row.id, at)  # nothing is taken back in an ended game
                await tx.forecasts.clear(row.id)  # nor played by forecast
                await mirror_ending(tx, row.id, outcome)  # a tournament's, for its table
                # Rated with the ending, in its transaction: so exactly once.
                return True, await rate_ending(tx, row, outcome, at, plies=game.ply)
            return False, ()

        done, changes = await self.db.run(store)
        if not done:
            self._games.drop(row.id)
            return None
        self.ending_bell.ring()
        finished = replace(
            row,
            status="finished",
            termination=outcome.termination.value,
            winner=color_name(outcome.winner),
            finished_at=at,
            count_proposed_by=None,
            deadline=None,
        )
        ended = replace(with_outcome(game, finished, outcome), rating_changes=changes)
        self._games.put(ended)
        return ended

    async def claim_ending(self, tx: Session, row: GameRow, now: datetime) -> None:
        """In the transaction that ends a game: this process will post the ending, and
        holds it for `ENDING_LEASE`; another process takes it over only if this one dies
        before posting it (see `Deadlines.post_left_over_endings`). Every transaction
        that ends a game calls this, so what is kept of every finished game is written
        here, with the ending: its moves in the explorer's index (`explorer.ending`) and
        its scan for mate problems queued (`bot.services.problems`)."""
        await tx.ending_claims.claim(row.id, self.worker, now, now + ENDING_LEASE)
        await index_ending(tx, row.id)
        await tx.problems.queue_scan(row.id, row.guild_id, now)

    async def finish_or_refuse(
        self, game: GameSnapshot, outcome: Outcome, *, expected_ply: int | None
    ) -> GameSnapshot:
        """`finish` for a player's request; a lost race becomes the right refusal."""
        ended = await self.finish(game, outcome, expected_ply=expected_ply, at=self.now())
        if ended is not None:
            return ended
        fresh = await self.load(game.id)
        self.require_active(fresh)
        raise PositionChanged(MOVED_ON)
