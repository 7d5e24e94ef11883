"""The sender: one task per process that delivers the outbox's rows, most urgent first,
at most `rate` a second.

Discord allows a bot 50 requests a second across all its processes; what the bot sends
on its own (10,000 reminders falling due in one minute, say) must leave room for the
members' own requests, so it goes out at a pace of its own, well under that. Each send
starts `1 / rate` seconds after the one before (sends overlap: a post may take longer
than that to be answered), at most `2 × rate` at a time. Interaction answers never pass
here.

The sender claims a few rows at a time (a fifth of a second's worth: a more urgent row
queued meanwhile waits no longer than that, and a crash loses no more than that), is
woken at once when this process queues something, and otherwise looks every `poll` for
rows other processes queued or left. A row it cannot deliver is dropped with one log
line, never retried. Stopping it lets the sends under way finish; unclaimed rows stay
for the next start.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta

from bot.db import OutboxRow

from .outbox import Outbox

log = logging.getLogger(__name__)
#: How long an empty look waits before the next when rows wait that another process is
#: claiming right now (a batch claimed by a peer leaves the others nothing for a moment).
_CONTENDED = 0.05


class OutboxSender:
    """Delivers `outbox`'s rows at most `rate` a second; `start()`, `wake()`, `stop()`."""

    def __init__(
        self,
        outbox: Outbox,
        *,
        rate: float,
        poll: timedelta = timedelta(seconds=3),
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("the outbox's rate is a positive number of sends a second")
        self._outbox = outbox
        self._interval = 1 / rate
        self._batch = max(1, math.ceil(rate / 5))
        self._poll = poll.total_seconds()
        self._clock = clock
        self._sleep = sleep
        self._slots = asyncio.Semaphore(max(2, math.ceil(2 * rate)))
        self._next_at = -math.inf
        self._wakeup = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._sending: set[asyncio.Task[None]] = set()
        self._claimed: list[OutboxRow] = []  # claimed, not yet begun
        self._stopping = False
        self._looks = 0  # claims begun
        self._quiet_look = -1  # the last claim that found nothing, with nothing in flight
        self._quiet = asyncio.Event()
        self.sent = 0  # rows delivered (or dropped), for tests and metrics
        outbox.listen(self.wake)

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        if not self.running:
            self._stopping = False
            self._task = asyncio.get_running_loop().create_task(self._run(), name="outbox")

    def wake(self) -> None:
        """Look for rows now (this process just queued one)."""
        self._quiet.clear()
        self._wakeup.set()

    async def stop(self, *, grace: float = 10.0) -> None:
        """Stop claiming; put back the rows claimed and not yet begun, and let the sends
        under way finish (those still going after `grace` seconds are cancelled, and
        lost). Rows not yet claimed stay queued."""
        task, self._task = self._task, None
        if task is not None:  # it stops at its next step (a claim under way completes)
            self._stopping = True
            self._wakeup.set()
            with contextlib.suppress(asyncio.CancelledError):
                try:
                    await asyncio.wait_for(asyncio.shield(task), timeout=grace)
                except TimeoutError:
                    task.cancel()
                    await task
        unsent, self._claimed = self._claimed, []
        try:
            await self._outbox.release(unsent)
        except Exception:
            log.exception("could not put back %s claimed sends; they are lost", len(unsent))
        if self._sending:
            _, late = await asyncio.wait(set(self._sending), timeout=grace)
            for sending in late:
                sending.cancel()
            await asyncio.gather(*late, return_exceptions=True)

    async def settled(self) -> None:
        """Wait until a look begun after this call found nothing left to send and no send
        was under way: what was queued before the call has gone out."""
        while True:
            begun = self._looks
            self.wake()
            await self._quiet.wait()
            if self._quiet_look > begun:
                return

    async def _run(self) -> None:
        looked_for_abandoned = -math.inf
        while not self._stopping:
            self._wakeup.clear()
            look = self._looks = self._looks + 1
            try:
                if self._clock() - looked_for_abandoned >= self._poll:
                    looked_for_abandoned = self._clock()
                    await self._outbox.drop_abandoned()
                rows = await self._outbox.claim(self._batch)
                contended = not rows and await self._outbox.waiting() > 0
            except Exception:
                log.exception("could not claim from the outbox; trying again later")
                rows, contended = [], False
            self._claimed = list(rows)
            while self._claimed and not self._stopping:
                await self._pace()
                await self._slots.acquire()
                if self._stopping:
                    self._slots.release()
                    break
                row = self._claimed.pop(0)
                sending = asyncio.get_running_loop().create_task(self._send(row))
                self._sending.add(sending)
                sending.add_done_callback(self._sending.discard)
            if rows or self._stopping:
                continue
            if contended:
                await self._sleep(_CONTENDED)
                continue
            if self._sending:
                await asyncio.gather(*self._sending, return_exceptions=True)
                continue  # a send may have queued more (an ending's direct messages)
            self._quiet_look = look
            self._quiet.set()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wakeup.wait(), timeout=self._poll)

    async def _pace(self) -> None:
        """Wait for the next send's moment, `1 / rate` after the last one's moment. A send
        the loop let start a little late (less than half the interval) does not push the
        ones after it back, so the rate holds on a busy loop; one later than that, or the
        first after a quiet spell, starts a new count: no credit is saved up for a burst."""
        now = self._clock()
        if self._next_at < now - self._interval / 2:
            self._next_at = now
        elif self._next_at > now:
            await self._sleep(self._next_at - now)
        self._next_at += self._interval

    async def _send(self, row: OutboxRow) -> None:
        try:
            await self._outbox.deliver(row)
        except Exception as error:
            log.warning("dropped outbox row %s (%s): %r", row.id, row.kind, error)
        finally:
            self._slots.release()
            self.sent += 1
            try:
                await self._outbox.done(row)
            except Exception:
                log.exception("could not delete sent outbox row %s", row.id)
