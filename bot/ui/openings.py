"""Event games' threads, opened in the background at a steady pace.

A tournament's start, a round or a team match creates its games in the database at once
(hundreds of them); their threads are opened here, one game at a time, `interval` seconds
apart, so that a start never bursts past Discord's limits on creating threads and posting
(a few requests a game, well under the global limit and the per-channel buckets) and
never holds the command or the clock's listener: they only `wake` the opener. Each game
is opened by one function (`bot.ui.event_games.open_event_game`) that finds the event it
belongs to and heads its first post with it.

There is one path: the event games being played whose first post is not made yet (their
clocks wait for it), as the database lists them (`awaiting_first_post`, scoped to this
process's shards, the servers in turn so that one server's big start holds up no other's). A
restart in the middle loses none, since the next ready bot wakes the opener and it finds the
rest; the database is the queue, so no outbox row of its own is needed. A stop lets the game
being opened finish (its thread stored) rather than cut it between Discord's thread and the
database's note of it, which would give the game a second thread after the restart.

When a server is at Discord's cap on active threads (error 160006), that server's games
wait in the database, their posts unsent, until one of its games ends (its thread is
archived) or `cap_wait` seconds pass; the other servers' games go on opening meanwhile.
A game whose opening failed otherwise (Discord or the database away for a moment) is tried
again later, each failure doubling the wait from `retry_wait` up to `MAX_RETRY_WAIT`:
its clock waits for its first post, so a game given up on could never be played.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from bot.services import GameSnapshot

from .homes import ThreadCapReached

if TYPE_CHECKING:
    from .host import GameBot

log = logging.getLogger(__name__)
#: Seconds between two games opened: one thread a second is Discord's pace for creating
#: threads in a channel (5 every 5 s), and a game's posts add a few requests more.
OPEN_INTERVAL = 1.0
#: Seconds before trying a server's games again once it is at its cap on active threads,
#: should none of its games end meanwhile (a thread archived by hand frees a place too).
CAP_WAIT = 300.0
#: How many games are read from the database at a time.
BATCH = 50
#: Seconds a stop waits for the game being opened (a few requests, well under a second
#: unless Discord is slow) before cutting it: a small part of the 10 s `docker stop` gives
#: a stopping process before it kills it.
STOP_WAIT = 5.0
#: Seconds before a game whose opening failed is tried again (doubled at each failure).
RETRY_WAIT = 60.0
#: The longest wait between two tries of one game.
MAX_RETRY_WAIT = 3600.0

#: Open one game's thread and first post: False if it got no thread (posted in its
#: channel instead); raises `ThreadCapReached` at the cap.
OpenGame = Callable[[int], Awaitable[bool]]


class Opener:
    """The one task of a bot opening its event games' threads."""

    def __init__(self, bot: GameBot, open_game: OpenGame) -> None:
        self.bot = bot
        self._open_game = open_game
        self.interval = OPEN_INTERVAL
        self.cap_wait = CAP_WAIT
        self._wake = asyncio.Event()
        self._stopping = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self.retry_wait = RETRY_WAIT
        #: Games whose opening failed for another reason than the cap, each with how many
        #: times and the loop's time before which it is not tried again.
        self._failed: dict[int, tuple[int, float]] = {}
        #: Servers at their cap on active threads, each with the loop's time until which
        #: its games wait (unless one of its games ends first).
        self._capped: dict[int, float] = {}
        self.opened = 0

    @property
    def at_cap(self) -> frozenset[int]:
        """The servers whose games wait for a place under Discord's cap on active threads."""
        return frozenset(self._capped)

    def wake(self) -> None:
        """New games may be waiting: open what waits."""
        if self._stopping.is_set():
            return
        self._wake.set()
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(self._run(), name="opener")

    async def after_ending(self, game: GameSnapshot) -> None:
        """Once any game's ending is posted (its thread archived): a place under the cap
        of its server, whose waiting games may open now."""
        if self._capped.pop(game.guild_id, None) is not None:
            self.wake()

    async def stop(self) -> None:
        """Stop opening: the game being opened is finished first (at most `STOP_WAIT`
        seconds), so that no thread is left that the database does not know of."""
        self._stopping.set()
        self._wake.set()
        task, self._task = self._task, None
        if task is None:
            return
        await asyncio.wait({task}, timeout=STOP_WAIT)
        if not task.done():
            log.warning("the opener was cut in the middle of a game")
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    def _going(self) -> bool:
        return not self._stopping.is_set() and not self.bot.is_closed()

    async def _pause(self, seconds: float, event: asyncio.Event) -> None:
        """Wait `seconds`, or less if `event` is set."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), max(seconds, 0.0))

    async def _run(self) -> None:
        """Open what waits until nothing does; a failure to read the queue (the database
        gone away) ends this run, and the next wake starts another."""
        try:
            await self._open_waiting()
        except Exception:
            log.exception("the opener stopped: the next wake starts it again")

    async def _open_waiting(self) -> None:
        service = self.bot.service.tournaments
        scope = getattr(self.bot, "scope", None)
        loop = asyncio.get_running_loop()
        while self._going():
            self._wake.clear()
            now = loop.time()
            self._capped = {guild: until for guild, until in self._capped.items() if until > now}
            found = await service.awaiting_first_post(
                BATCH + len(self._failed), scope, skip_guilds=sorted(self._capped)
            )
            # A failed game no longer waiting (opened elsewhere, or ended) is forgotten.
            listed = {game for game, _ in found}
            self._failed = {g: failed for g, failed in self._failed.items() if g in listed}
            waiting = [
                (game, guild)
                for game, guild in found
                if game not in self._failed or self._failed[game][1] <= now
            ]
            if not waiting:
                if self._wake.is_set():
                    continue
                later = [*self._capped.values(), *(until for _, until in self._failed.values())]
                if not later:
                    return
                # Only capped servers' games or failed ones wait: until a game of a capped
                # server ends, or the earliest wait is over.
                await self._pause(min(later) - now, self._wake)
                continue
            for game_id, guild_id in waiting:
                if not self._going():
                    return
                if guild_id in self._capped:
                    continue  # reached its cap earlier in this batch
                try:
                    await self._open_game(game_id)
                except ThreadCapReached:
                    log.warning("server %s is at its cap on active threads: games wait", guild_id)
                    self._capped[guild_id] = loop.time() + self.cap_wait
                except Exception:
                    times = self._failed.get(game_id, (0, 0.0))[0] + 1
                    wait = min(self.retry_wait * 2 ** min(times - 1, 16), MAX_RETRY_WAIT)
                    log.exception(
                        "could not open event game %s: tried again in %.0f s", game_id, wait
                    )
                    self._failed[game_id] = (times, loop.time() + wait)
                else:
                    self.opened += 1
                    self._failed.pop(game_id, None)
                await self._pause(self.interval, self._stopping)
