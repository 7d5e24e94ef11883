"""The outbox: what the bot sends on its own (endings by the clock, reminders, expired
challenges, vacations that ran out, direct messages, daily digests), queued in the
database and delivered one row at a time by this process's sender
(`sender.OutboxSender`).

Exactly once, as the deadlines are: a row is claimed with a conditional update before it
is delivered and deleted after, so a crash between the two loses that one send rather
than repeating it; rows not yet claimed survive any restart. An ending is the exception
that loses nothing: the transaction that ends a game on time takes the lease on posting
it and queues its row; the process that claims the row renews the lease (or, if another
process took the ending over meanwhile, drops the row), and an ending claimed but never
posted is taken over when its lease runs out (`Deadlines.post_left_over_endings`),
which leaves alone the endings still waiting in the queue.

What a row says is checked again when it is delivered: a reminder whose deadline moved
on (a move was played meanwhile) is not sent, nor an ending already posted.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import timedelta

from bot.db import OutboxRow

from ..errors import ServiceError
from ..play.store import ENDING_LEASE
from .clockwork import Clockwork, Deliverer
from .sends import URGENCY, Send

log = logging.getLogger(__name__)
#: A row claimed longer ago than this was left by a process that stopped: deleted.
ABANDONED = timedelta(minutes=10)


class Outbox(Clockwork):
    """The queue of this process's sends (of its servers, and those of no server)."""

    def deliver_with(self, kind: Send, deliverer: Deliverer | None) -> None:
        """Who delivers the rows of `kind` (a feature's; None: nobody, so they are dropped)."""
        if deliverer is None:
            self._deliverers.pop(kind, None)
        else:
            self._deliverers[kind] = deliverer

    def listen(self, listener: Callable[[], None]) -> None:
        """`listener()` is called whenever this process queued a send."""
        self._store.doorbell.listen(listener)

    async def message(self, kind: Send, user_id: int, content: str, *, silent: bool) -> None:
        """Queue a direct message (`kind` says which: an event's, a turn's, a digest),
        written for its recipient; any process may send it."""
        async with self._store.db.transaction() as tx:
            await tx.outbox.add(
                kind.value,
                URGENCY[kind],
                self._store.now(),
                user_id=user_id,
                content=content,
                silent=silent,
            )
        self._store.doorbell.ring()

    async def claim(self, limit: int) -> list[OutboxRow]:
        """Claim up to `limit` rows for this process, most urgent first."""
        async with self._store.db.transaction() as tx:
            return await tx.outbox.claim(self._store.worker, self._store.now(), limit, self.scope)

    async def release(self, rows: list[OutboxRow]) -> None:
        """Put back claimed rows this process will not send (it is stopping)."""
        async with self._store.db.transaction() as tx:
            await tx.outbox.release(self._store.worker, [row.id for row in rows])

    async def waiting(self) -> int:
        """How many rows this process may claim."""
        async with self._store.db.query() as q:
            return await q.outbox.waiting(self.scope)

    async def done(self, row: OutboxRow) -> None:
        async with self._store.db.transaction() as tx:
            await tx.outbox.sent(row.id)

    async def drop_abandoned(self) -> int:
        """Delete the rows a stopped process claimed and never sent (logged)."""
        async with self._store.db.transaction() as tx:
            dropped = await tx.outbox.drop_claimed_before(self._store.now() - ABANDONED)
        if dropped:
            log.info("%s sends claimed by a process that stopped are lost", dropped)
        return dropped

    async def deliver(self, row: OutboxRow) -> None:
        """Hand a claimed row to the Discord layer (the store's events), checked again."""
        kind, events = Send(row.kind), self._store.events
        deliverer = self._deliverers.get(kind)
        if deliverer is not None:
            await deliverer(row)
        elif kind in (Send.MESSAGE, Send.TURN, Send.DIGEST):
            assert row.user_id is not None and row.content is not None
            await events.direct_message(row.user_id, row.content, silent=row.silent)
        elif kind is Send.EXPIRY:
            assert row.challenge_id is not None
            await events.challenge_expired(await self._challenges.get(row.challenge_id))
        elif kind is Send.VACATION:
            assert row.user_id is not None
            change = await self._vacations.ended(row.user_id)
            if change is not None:
                await events.vacation_ended(change)
        elif row.game_id is not None and await self._still_due(kind, row.game_id):
            game = await self._store.load(row.game_id)
            if kind is Send.ENDING and game.outcome is not None:
                await events.game_timed_out(game)
            elif kind is Send.REMINDER and game.is_active:
                await events.deadline_reminder(game)

    async def _still_due(self, kind: Send, game_id: int) -> bool:
        """Whether a game's send is still this process's to make: an ending whose lease it
        now holds, a reminder of the deadline still running."""
        now = self._store.now()
        async with self._store.db.transaction() as tx:
            if kind is Send.ENDING:
                until = now + ENDING_LEASE
                if await tx.ending_claims.claim(game_id, self._store.worker, now, until):
                    return True
                log.info("game %s: another process posts its ending", game_id)
                return False
            return await tx.deadlines.still_reminded(game_id)

    async def deliver_all(self) -> int:
        """Deliver every row this process may claim, now and unpaced (for tools and tests
        that have no sender running); how many."""
        count = 0
        while rows := await self.claim(100):
            for row in rows:
                try:
                    await self.deliver(row)
                except ServiceError:
                    log.info("outbox row %s: its subject is gone", row.id)
                finally:
                    await self.done(row)
                count += 1
        return count
