"""Tournament games' threads, opened in the background at a steady pace.

A tournament's start creates its games in the database at once (hundreds of them); their
threads are opened here, one game at a time, `interval` seconds apart, so that a start
never bursts past Discord's limits on creating threads and posting (a few requests a
game, well under the global limit and the per-channel buckets) and never holds the
command or the clock's listener: they only `wake` the opener.

There is one path: the games of running tournaments that have no thread yet, as the
database lists them (`without_thread`). A restart in the middle loses none, since the
next ready bot wakes the opener and it finds the rest; the database is the queue, so no
outbox row of its own is needed. When the server is at Discord's cap on active threads
(error 160006), the opener stops and the games wait in the database, their posts
unsent, until a game ends (its thread is archived) or `cap_wait` seconds pass.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from .homes import ThreadCapReached
from .host import GameBot

log = logging.getLogger(__name__)
#: Seconds between two games opened: one thread a second is Discord's pace for creating
#: threads in a channel (5 every 5 s), and a game's posts add a few requests more.
OPEN_INTERVAL = 1.0
#: Seconds before trying again once the server is at its cap on active threads, should
#: no game end meanwhile (a thread archived by hand frees a place too).
CAP_WAIT = 300.0
#: How many games are read from the database at a time.
BATCH = 50

#: Open one game's thread and first post: False if it got no thread (posted in its
#: channel instead); raises `ThreadCapReached` at the cap.
OpenGame = Callable[[int], Awaitable[bool]]


class Opener:
    """The one task of a bot opening its tournament games' threads."""

    def __init__(self, bot: GameBot, open_game: OpenGame) -> None:
        self.bot = bot
        self._open_game = open_game
        self.interval = OPEN_INTERVAL
        self.cap_wait = CAP_WAIT
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        #: Games whose opening failed for another reason than the cap (posted in their
        #: channel instead): not tried again before the next start of the bot.
        self._failed: set[int] = set()
        self.opened = 0
        self.at_cap = False

    def wake(self) -> None:
        """New games may be waiting, or a thread was archived: open what waits."""
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        task, self._task = self._task, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _run(self) -> None:
        service = self.bot.service.tournaments
        scope = getattr(self.bot, "scope", None)
        while not self.bot.is_closed():
            self._wake.clear()
            waiting = [
                game_id
                for game_id in await service.without_thread(BATCH + len(self._failed), scope)
                if game_id not in self._failed
            ]
            if not waiting:
                if self._wake.is_set():
                    continue
                return
            for game_id in waiting:
                if self.bot.is_closed():
                    return
                try:
                    threaded = await self._open_game(game_id)
                except ThreadCapReached:
                    self.at_cap = True
                    log.warning("the server is at its cap on active threads: games wait")
                    self._wake.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._wake.wait(), self.cap_wait)
                    break
                except Exception:
                    log.exception("could not open tournament game %s", game_id)
                    self._failed.add(game_id)
                else:
                    self.at_cap = False
                    self.opened += 1
                    if not threaded:
                        self._failed.add(game_id)
                await asyncio.sleep(self.interval)
