"""Deadlines: ending games on time, reminders, expiring challenges, and the task that waits.

Exactly once, across restarts and processes: each action first *claims* its
row with a conditional update (the game still active at the same ply; the
reminder of this very deadline not yet sent; the challenge still open; an
unposted ending's lease run out) and only the claimant reports the event. A
time-out, a reminder, an expired challenge and a vacation that ran out are reported by
queuing their post in the outbox in the claim's own transaction (`outbox`: sent paced,
each row claimed once again); a left-over ending is reported at once.
A claim is committed before the event is sent, so a crash in between loses that
one message rather than sending it twice, and a restart must never send
anything twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Protocol

from bot.db import ShardScope

from ..errors import ServiceError
from ..logcontext import about_server
from ..play.snapshots import current_deadline
from ..play.store import ENDING_LEASE
from .clockwork import Clockwork
from .sends import Send, queue_for_game

log = logging.getLogger(__name__)
_SLACK = timedelta(milliseconds=20)


class DueWork(Protocol):
    """More work the deadline check does for its servers (tournaments starting at their
    time): `run_due` at each check, `next_start` when it is next due."""

    async def run_due(self, scope: ShardScope | None = None) -> object: ...

    async def next_start(self, scope: ShardScope | None = None) -> datetime | None: ...


class Deadlines(Clockwork):
    """What falls due by itself: time-outs, reminders, expired challenges, endings a
    previous run stored but never posted, and the work added with `add_due_work`."""

    _due_work: tuple[DueWork, ...] = ()

    def add_due_work(self, work: DueWork) -> None:
        self._due_work += (work,)

    def now(self) -> datetime:
        return self._store.now()

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
        self._store.add_deadline_listener(listener)

    async def check(self) -> datetime | None:
        """End vacations whose allowance ran out, end overdue games, send due reminders,
        expire old challenges; returns when the next of these falls due (None: nothing
        pending). Vacations come first: their end writes the paused games' deadlines
        anew, and the deadlines of players still on vacation are never overdue.

        With a shard scope, only the games and challenges of the scope's servers: each
        process settles its own. Endings left unposted and vacations belong to no shard:
        any process takes them, each claimed once."""
        about_server(None)  # the lines of the last check's last game are behind us
        await self.post_left_over_endings()
        try:
            await self._vacations.run_out()  # each end queued in the outbox
        except Exception:
            log.exception("could not end the vacations that ran out")
        now = self.now()
        async with self._store.db.read() as tx:
            overdue = await tx.deadlines.overdue(now, self.scope)
            reminders = await tx.deadlines.reminders_due(now, self.scope)
            expired = await tx.challenges.expired(now, self.scope)
        for deadline in overdue:
            try:
                await self._end_if_overdue(deadline.game_id, now)
            except Exception:
                log.exception("could not end game %s on time", deadline.game_id)
        for deadline in reminders:
            try:
                await self._remind(deadline.game_id, deadline.due_at, deadline.remind_at, now)
            except Exception:
                log.exception("could not send the reminder of game %s", deadline.game_id)
        for challenge in expired:
            try:
                await self._challenges.expire(challenge)
            except Exception:
                log.exception("could not expire challenge %s", challenge.id)
        for work in self._due_work:  # after the time-outs: their results are acted on
            try:
                await work.run_due(self.scope)
            except Exception:
                log.exception("could not do %r's due work", work)
        return await self.next_wakeup()

    async def post_left_over_endings(self) -> int:
        """Report every ending that was stored but never posted and that nobody is
        posting: the process that stored it stopped in between and its lease ran out
        (a restart, or a peer process that died). Each is claimed with a lease first, so
        of several processes one posts it. Returns how many this process took."""
        now, worker = self.now(), self._store.worker
        async with self._store.db.query() as q:
            candidates = await q.ending_claims.unposted(now, worker)
        game_ids = []
        for game_id in candidates:
            async with self._store.db.transaction() as tx:
                if await tx.ending_claims.claim(game_id, worker, now, now + ENDING_LEASE):
                    game_ids.append(game_id)
        for game_id in game_ids:
            try:
                game = await self._store.load(game_id)
            except ServiceError:
                log.exception("could not load game %s to post its ending", game_id)
                continue
            log.info("game %s: its ending was never posted; posting it now", game_id)
            await self._store.events.ending_unannounced(game)
        return len(game_ids)

    async def ending_posted(self, game_id: int) -> None:
        """The game's ending is posted in its thread (called by whoever posted it), so
        `post_left_over_endings` will not post it again."""
        async with self._store.db.transaction() as tx:
            await tx.games.mark_end_announced(game_id, self.now())

    async def next_wakeup(self) -> datetime | None:
        """The earliest pending deadline, reminder, challenge expiry or end of a vacation
        (of this process's servers), or the end of a lease on an unposted ending."""
        async with self._store.db.read() as tx:
            times = [
                await tx.deadlines.next_event(self.scope),
                await tx.challenges.next_expiry(self.scope),
                await tx.vacations.next_end(),
                await tx.ending_claims.next_expiry(self._store.worker),
            ]
        times += [await work.next_start(self.scope) for work in self._due_work]
        pending = [moment for moment in times if moment is not None]
        return min(pending) if pending else None

    async def _end_if_overdue(self, game_id: int, now: datetime) -> None:
        loaded = await self._store.load(game_id)
        deadline = current_deadline(loaded.row)
        if deadline is None or now < deadline:
            return
        if await self._store.time_out(loaded, deadline) is not None:
            self._late("timeout", deadline)

    async def _remind(
        self, game_id: int, due: datetime, remind_at: datetime, now: datetime
    ) -> None:
        """Claim the reminder and queue its post, in one transaction."""
        async with self._store.db.transaction() as tx:
            claimed = await tx.deadlines.claim_reminder(game_id, due, now)
            if claimed:
                await queue_for_game(tx, Send.REMINDER, game_id, now)
        if claimed:
            self._late("reminder", remind_at)
            self._store.doorbell.ring()

    def _late(self, kind: str, moment: datetime) -> None:
        """Count how long after `moment` a time-out or reminder was claimed."""
        late = (self.now() - moment).total_seconds()
        self._store.stats.lateness[kind].observe(late)


class _Checker(Protocol):
    def now(self) -> datetime: ...

    async def check(self) -> datetime | None: ...

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None: ...


class DeadlineScheduler:
    """One task that sleeps until the next deadline, reminder or expiry, then acts.

    It checks once at start (games that ran out while the bot was down end then),
    is woken early by `wake()` (the service calls it whenever a deadline is set),
    and survives errors: they are logged and the check is retried later. The daily
    digests have a task of their own of this kind, over `Digests`.
    """

    def __init__(
        self,
        deadlines: _Checker,
        *,
        max_sleep: timedelta = timedelta(hours=1),
        retry_delay: timedelta = timedelta(seconds=30),
        name: str = "deadlines",
    ) -> None:
        self._deadlines = deadlines
        self._name = name
        self._max_sleep = max_sleep
        self._retry_delay = retry_delay
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._next: datetime | None = None
        self.checks = 0  # how many checks ran (for tests and logs)
        deadlines.add_deadline_listener(self.wake)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def lag(self) -> timedelta:
        """How far behind the task is: the time since it should have checked (the next
        deadline, reminder or expiry it planned for) without having finished a check
        since. Zero while it waits for a moment still to come; it grows when the task
        is stuck in a check or the loop is too busy to wake it."""
        planned = self._next
        if planned is None:
            return timedelta()
        return max(self._deadlines.now() - planned - _SLACK, timedelta())

    def start(self) -> None:
        if not self.running:
            self._task = asyncio.get_running_loop().create_task(self._run(), name=self._name)

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def wake(self, when: datetime | None = None) -> None:
        """Check again now if `when` comes before the planned wake-up (or is not given)."""
        if when is None or self._next is None or when < self._next:
            self._wakeup.set()

    async def _run(self) -> None:
        while True:
            self._wakeup.clear()
            try:
                upcoming = await self._deadlines.check()
                delay = self._delay(upcoming)
            except Exception:
                log.exception("%s check failed; retrying in %s", self._name, self._retry_delay)
                upcoming, delay = None, self._retry_delay
            self.checks += 1
            self._next = upcoming
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=delay.total_seconds())

    def _delay(self, upcoming: datetime | None) -> timedelta:
        if upcoming is None:
            return self._max_sleep
        delay = upcoming - self._deadlines.now()
        if delay <= timedelta():
            # Still due after a check: something failed there (and was logged); do not spin.
            return self._retry_delay
        # A little past the moment, so that the check finds it due rather than imminent.
        return min(delay + _SLACK, self._max_sleep)
