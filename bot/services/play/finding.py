"""Finding games: one by id, the one a command means, a member's list, the legal moves."""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from datetime import datetime

from bot.db import GameRow, Session
from rules import Sentence

from ..choices import ChooseGame
from ..errors import NotFound, ServiceError
from ..records.replays import ReplayStep, step_at
from .game import GameSnapshot, MoveText
from .new_games import start_clock
from .snapshots import color_of, line_of
from .store import GameStore, no_such_game
from .summaries import GameList, GameSummary, ListedStatus

log = logging.getLogger(__name__)
THREADS_REMEMBERED = 4096
#: The most games `/games` lists at once (a message holds 2,000 characters).
LISTED = 15
#: The most games `to_move` gives (`/next` steps through them, a digest lists them): a
#: member may have any number of games, and what one look costs must not grow with them.
TO_MOVE_LISTED = 25
NO_ACTIVE_GAME = Sentence("You have no active games here; start one with /challenge.")
#: For a command that takes finished games too, used with no game where none is active.
NO_GAME_MEANT = Sentence(
    "You have no active games here. Find a finished game with `/games status:finished`"
    " and give its number in the `game` option, or use the command in the game's thread."
)


def _sorted_summaries(games: list[GameSummary]) -> list[GameSummary]:
    """Yours-to-move first, then the nearest deadline, games without one last."""

    def key(game: GameSummary) -> tuple[bool, bool, float, int]:
        deadline = game.deadline.timestamp() if game.deadline is not None else 0.0
        return (not game.your_turn, game.deadline is None, deadline, game.id)

    return sorted(games, key=key)


class Games:
    """The questions about games that change nothing."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._threads: OrderedDict[int, tuple[int, int]] = OrderedDict()

    async def get(self, game_id: int, *, guild_id: int | None = None) -> GameSnapshot:
        """The game now (ended on time first if its deadline passed). With `guild_id`, a
        game of another server does not exist."""
        return await self._store.current(game_id, guild_id=guild_id)

    async def resolve_id(
        self,
        user_id: int,
        *,
        guild_id: int | None,
        game_id: int | None = None,
        thread_id: int | None = None,
        finished: bool = False,
    ) -> int:
        """Which game a command means: the `game` option, else the game of the thread,
        else the user's only game where it is their turn (or only active game). Only the
        id: in a game's thread, where nearly every move is typed, that asks the database
        nothing once the thread is known, and the command then loads its game once (in
        its server: `get` with `guild_id`). `finished`: the command takes finished games
        too, so a member without an active game is told how to find those.

        Example: in a game's thread, `await games.resolve_id(alice, guild_id=g,
        thread_id=t)` is that thread's game's id, whoever asks.
        """
        if game_id is not None:
            return game_id
        if thread_id is not None:
            found = await self._game_of_thread(thread_id)
            if found is not None:
                game, game_guild = found
                if guild_id is not None and game_guild != guild_id:
                    raise no_such_game(game)
                return game
        games = await self.active_for(user_id, guild_id=guild_id)
        if not games:
            raise NotFound(NO_GAME_MEANT if finished else NO_ACTIVE_GAME)
        mine = [game for game in games if game.your_turn]
        if len(mine) == 1:
            return mine[0].id
        if len(games) == 1:
            return games[0].id
        raise ChooseGame(Sentence("You have several games; say which one."), games)

    async def in_thread(self, thread_id: int, *, guild_id: int) -> int | None:
        """The id of the game played in a thread of this server, or None: what a message
        posted there (a move typed by mentioning the bot) means, whoever wrote it."""
        found = await self._game_of_thread(thread_id)
        if found is None or found[1] != guild_id:
            return None
        return found[0]

    async def _game_of_thread(self, thread_id: int) -> tuple[int, int] | None:
        """The game played in a thread, and its server. A thread belongs to one game for
        good, so once found it is remembered (the answer cannot go stale, even when other
        processes write the database)."""
        known = self._threads.get(thread_id)
        if known is not None:
            self._threads.move_to_end(thread_id)
            return known
        async with self._store.db.query() as q:
            row = await q.games.by_thread(thread_id)
        if row is None:
            return None
        self._threads[thread_id] = (row.id, row.guild_id)
        if len(self._threads) > THREADS_REMEMBERED:
            self._threads.popitem(last=False)
        return row.id, row.guild_id

    async def active_for(self, user_id: int, *, guild_id: int | None = None) -> list[GameSummary]:
        """The user's active games, theirs to move first, then by deadline."""
        async with self._store.db.query() as q:
            records = await q.games.active_for(user_id, guild_id)
        now = self._store.now()
        return _sorted_summaries([line_of(record, user_id, now) for record in records])

    async def to_move(self, user_id: int, *, limit: int = TO_MOVE_LISTED) -> GameList:
        """The member's games where it is their move, in every server: the nearest deadline
        first (a vacation under way moves theirs later, as it does the clock), games
        without a time limit last, at most `limit`; `more` counts those left out. `/next`,
        its Next button and the daily digest all read this list.

        Example: `(await games.to_move(alice)).games[0]` is the game alice must move in first.
        """

        async def read(tx: Session) -> tuple[list[GameRow], int]:
            rows = await tx.games.to_move_for(user_id, limit=limit)
            total = len(rows) if len(rows) < limit else await tx.games.count_to_move(user_id)
            return rows, total

        rows, total = await self._store.db.run(read, write=False)
        listed = _sorted_summaries([line_of(row, user_id) for row in rows])
        return GameList(listed, total - len(listed))

    async def listed(
        self, user_id: int, *, guild_id: int, status: ListedStatus, limit: int = LISTED
    ) -> GameList:
        """The member's games in this server for `/games`: active ones (theirs to move
        first), then finished ones, the latest first, at most `limit` in all. Finished games
        are read from their stored rows, never replayed.

        Example: `await games.listed(alice, guild_id=g, status=ListedStatus.FINISHED)`.
        """
        return await self._listing(user_id, guild_id, status, limit, count=True)

    async def choices(
        self, user_id: int, *, guild_id: int, finished: bool, limit: int
    ) -> list[GameSummary]:
        """The games a `game` option suggests: the member's active games (theirs to move
        first), then, with `finished`, their latest finished ones; at most `limit`."""
        status = ListedStatus.ALL if finished else ListedStatus.ACTIVE
        return (await self._listing(user_id, guild_id, status, limit, count=False)).games

    async def _listing(
        self, user_id: int, guild_id: int, status: ListedStatus, limit: int, *, count: bool
    ) -> GameList:
        """The games `listed` and `choices` show, read in one snapshot and one round trip;
        with `count`, how many finished games are left out is counted in that snapshot too,
        so that it agrees with the list."""

        async def read(tx: Session) -> tuple[list[GameRow], list[GameRow], int]:
            active: list[GameRow] = []
            if status is not ListedStatus.FINISHED:
                active = await tx.games.active_for(user_id, guild_id)
            if status is ListedStatus.ACTIVE:
                return active, [], 0
            room = max(limit - len(active), 0)
            finished = await tx.games.finished_for(user_id, guild_id, limit=room) if room else []
            if not count:
                return active, finished, len(finished)
            return active, finished, await tx.games.count_for(user_id, guild_id, "finished")

        active_rows, finished_rows, finished_total = await self._store.db.run(read, write=False)
        now = self._store.now()
        active = _sorted_summaries([line_of(row, user_id, now) for row in active_rows])
        shown = active[:limit] + [line_of(row, user_id) for row in finished_rows]
        return GameList(shown, len(active) + finished_total - len(shown))

    async def at_ply(self, game_id: int, ply: int, *, guild_id: int | None) -> ReplayStep:
        """The game as it stood after `ply` moves (brought between its start and its
        current move), with the moves around it. Anyone in the game's server may look:
        every position it shows was posted in the game's thread already.

        Example: `(await games.at_ply(12, 0, guild_id=g)).board` is game 12's start.
        """
        return step_at(await self.get(game_id, guild_id=guild_id), ply)

    async def at_move(self, game_id: int, number: int, *, guild_id: int | None) -> ReplayStep:
        """The game as it stood after the move players call `number` (its start's own
        number for the start: 30 for a game set up after move 30); a number before the
        start is refused, one past the end shows the end.

        Example: `(await games.at_move(12, 31, guild_id=g)).ply` is 1 in a game from move 30.
        """
        game = await self.get(game_id, guild_id=guild_id)
        return step_at(game, game.numbering.ply(number))

    async def legal_moves(self, game_id: int, user_id: int | None = None) -> list[MoveText]:
        """Every legal move of the current position, for autocomplete (cached by
        position). With `user_id`, none unless that user is to move in this game: a
        spectator or the waiting player is offered nothing to type."""
        game = await self._store.load(game_id)
        if not game.is_active:
            return []
        if user_id is not None and color_of(game.row, user_id) is not game.turn:
            return []
        played = game.game.moves
        own_last = played[-2] if len(played) >= 2 else None
        return self._store.legal.get(game.game.position, game.last_move, own_last)

    async def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """Remember where the game is played as its first post is about to be made: its
        thread (its moves are typed there), or None for its channel (a thread recorded
        before is kept: only its clock is started, if it waits). A game whose clock
        waited for that post (an event's) starts it now, in the same transaction: from
        now, its first deadline and reminder set, and the deadline task told of them.
        Exactly once: a second call (a retry, a restart, another process) finds the clock
        running and leaves it so.

        Example: `await games.set_thread(game.id, thread.id)` before the start board."""

        async def store(tx: Session) -> datetime | None:
            if thread_id is not None and not await tx.games.set_thread(game_id, thread_id):
                raise no_such_game(game_id)
            return await start_clock(tx, game_id, self._store.now())

        due = await self._store.db.run(store)
        for old in [t for t, (game, _) in self._threads.items() if game == game_id]:
            del self._threads[old]
        if due is not None:
            self._store.deadline_set(due)

    async def move_thread(self, game_id: int, old_thread_id: int, new_thread_id: int) -> bool:
        """Move an active game from a thread that is gone to a new one; False if it had
        already moved (another process re-homed it first) or ended meanwhile."""
        async with self._store.db.transaction() as tx:
            moved = await tx.games.move_thread(game_id, old_thread_id, new_thread_id)
        self._threads.pop(old_thread_id, None)
        return moved

    async def warm_up(self, limit: int | None = None) -> int:
        """Replay the most recently moved active games into the cache, so that the first
        move in each after a start-up does not pay for replaying its whole record. Yields
        to other tasks between games; returns how many were loaded. Run it as a task after
        opening the database."""
        async with self._store.db.read() as tx:
            ids = await tx.games.recently_active(limit or self._store.cache_size)
        for game_id in ids:
            try:
                await self._store.load(game_id)
            except ServiceError:
                log.warning("game %s could not be loaded at start-up", game_id)
            await asyncio.sleep(0)
        return len(ids)
