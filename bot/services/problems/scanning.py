"""Scanning finished games for mate problems, off the event loop, each game once.

A game is queued for its scan in the transaction that ends it (`GameStore.claim_ending`),
or with the server's older games when an administrator asks (`queue_history`). The scan
task (a `DeadlineScheduler` over `ProblemScanner`) is woken when a game ends, takes the
queued games one at a time, each claimed on a lease first (so of two processes on one
database one scans it, and a process that dies mid-scan leaves it to another when the
lease runs out), searches its positions in a worker process (`find_problems`: pure Python
that holds the GIL, so never on the event loop, nor in a thread of it) and stores its
problems with the same claim's condition.

A game of a player who opted out is marked scanned without being searched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime, timedelta

from bot.db.problems import NewProblem, ScanProgress

from ..errors import ServiceError
from ..play.store import GameStore
from ..records.readers import ReaderPool
from .extract import find_problems

log = logging.getLogger(__name__)

SCAN_LEASE = timedelta(minutes=10)
"""How long a process holds a game's scan: far longer than a game's scan takes."""
SCAN_TIME_LIMIT = 120.0
"""Seconds a game's scan may take in its worker before the worker is killed: the node
budget (`GAME_NODES`) ends it long before on any machine the bot runs on."""
HISTORY_BATCH = 500
"""Older games queued by one request of an administrator (the next request queues more)."""
_LOOK = 20
"""Queued games read at a time."""


class ProblemScanner:
    """Scans the queued games; `check()` for the scheduler, `queue_history` for admins."""

    def __init__(self, store: GameStore, pool: ReaderPool | None = None) -> None:
        self._store = store
        self._pool = pool
        self._listeners: list[Callable[[datetime | None], None]] = []
        #: Games this process scanned (for tests and logs).
        self.scanned = 0
        store.ending_bell.listen(self._game_ended)

    def scan_with(self, pool: ReaderPool | None) -> None:
        """The worker processes to search in (None: no scanning; games stay queued)."""
        self._pool = pool

    def now(self) -> datetime:
        return self._store.now()

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
        self._listeners.append(listener)

    def _game_ended(self) -> None:
        for listener in self._listeners:
            listener(None)

    async def check(self) -> datetime | None:
        """Scan every queued game nobody holds; when a held one's lease runs out."""
        if self._pool is None:
            return None
        while True:
            async with self._store.db.query() as q:
                waiting = await q.problems.waiting(self.now(), _LOOK)
            if not waiting:
                break
            for game_id in waiting:
                try:
                    await self.scan(game_id)
                except ServiceError:  # its search overran the worker's time limit
                    log.warning("game %s: its scan overran; no problems from it", game_id)
                    await self._give_up(game_id)
                except Exception:  # the workers are closing, or a bug: tried after the lease
                    log.exception("could not scan game %s for problems", game_id)
        async with self._store.db.query() as q:
            return await q.problems.next_lease_end()

    async def scan(self, game_id: int) -> bool:
        """Claim, search and store one game; whether this process scanned it."""
        assert self._pool is not None
        store, worker = self._store, self._store.worker
        now = self.now()
        async with store.db.transaction() as tx:
            if not await tx.problems.claim_scan(game_id, worker, now, now + SCAN_LEASE):
                return False
            row = await tx.games.get(game_id)
            moves = await tx.moves.usi_list(game_id)
            players = [row.sente.user_id, row.gote.user_id] if row is not None else []
            opted_out = await tx.problems.opted_out(players)
        if row is None:
            return False
        found: list[NewProblem] = []
        if opted_out:
            log.info("game %s: a player opted out of problems; not scanned", game_id)
        else:
            problems = await self._pool.run(find_problems, row.start_sfen, moves)
            found = [NewProblem(p.ply, p.sfen, p.plies, p.line) for p in problems]
        async with store.db.transaction() as tx:
            stored = await tx.problems.finish_scan(game_id, row.guild_id, worker, found, self.now())
        if stored:
            self.scanned += 1
            log.info("game %s: %s problems found", game_id, len(found))
        return stored

    async def _give_up(self, game_id: int) -> None:
        """A game whose scan overran is marked scanned with nothing found: tried again, it
        would overrun again."""
        async with self._store.db.transaction() as tx:
            await tx.problems.finish_scan(game_id, 0, self._store.worker, (), self.now())

    async def queue_history(self, guild_id: int) -> ScanProgress:
        """Queue the next batch of the server's older games (an administrator's request);
        the server's progress after it."""
        async with self._store.db.transaction() as tx:
            await tx.problems.queue_history(guild_id, self.now(), HISTORY_BATCH)
            progress = await tx.problems.progress(guild_id)
        self._game_ended()
        return progress

    async def progress(self, guild_id: int) -> ScanProgress:
        async with self._store.db.query() as q:
            return await q.problems.progress(guild_id)

    async def opt_out(self, user_id: int, out: bool) -> None:
        """The player's choice: their games made into problems or not (from their next
        game's scan on; problems already found stay)."""
        async with self._store.db.transaction() as tx:
            if out:
                await tx.problems.opt_out(user_id, self.now())
            else:
                await tx.problems.opt_in(user_id)

    async def opted_out(self, user_id: int) -> bool:
        async with self._store.db.query() as q:
            return bool(await q.problems.opted_out([user_id]))
