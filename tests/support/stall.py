"""A probe of the event loop's stalls, for the tests of hostile members.

The bot and the fake Discord share one event loop in the end-to-end tests, so anything that
holds the loop (a regular expression backtracking, a render on the loop, a synchronous read)
delays every other member's answer and, past the gateway's heartbeat, drops the connection
for every server. The probe wakes up every few milliseconds and records how late it woke:
its worst lateness is the longest stall of the loop while it ran.

Example::

    async with LoopProbe() as probe:
        await club.fake.slash("board", {"position": hostile}, user=club.carol, ...)
    assert probe.worst < 0.1, probe.report()
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from types import TracebackType

#: How often the probe wakes: short enough to see a stall of a few tens of milliseconds.
INTERVAL = 0.005


class LoopProbe:
    """Measures the longest time the running event loop could not run a ready callback."""

    def __init__(self, interval: float = INTERVAL) -> None:
        self.interval = interval
        self.worst = 0.0
        self.wakes = 0
        self._paused = False
        self._epoch = 0
        self._task: asyncio.Task[None] | None = None

    async def _watch(self) -> None:
        while True:
            due = time.perf_counter() + self.interval
            epoch = self._epoch
            await asyncio.sleep(self.interval)
            if epoch == self._epoch and not self._paused:
                self.worst = max(self.worst, time.perf_counter() - due)
            self.wakes += 1

    @contextlib.asynccontextmanager
    async def paused(self) -> AsyncIterator[None]:
        """Not measuring while the block runs: for what the test itself does on the loop
        that no member can cause (stopping and starting the bot in its process)."""
        self._paused = True
        self._epoch += 1
        try:
            yield
        finally:
            self._paused = False
            self._epoch += 1

    async def __aenter__(self) -> LoopProbe:
        self._task = asyncio.get_running_loop().create_task(self._watch(), name="loop-probe")
        await asyncio.sleep(0)
        return self

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        assert self._task is not None
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task

    def report(self) -> str:
        """One line for an assertion's message."""
        return f"the loop stalled up to {self.worst * 1000:.0f} ms over {self.wakes} wakes"
