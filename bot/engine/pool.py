"""The bot's engine: a few USI processes behind one global limit on searches at once.

Searches wait their turn (`Turns`: computer moves before analyses, askers in turn) so
however many games and analyses ask at once, at most `jobs` engine processes think at a
time, each on one thread: the bot keeps the rest of the machine. A process that failed
is thrown away, and the next search starts a fresh one. Its job is free again at once:
killing and waiting for the old process goes on in a background task, which `close()`
awaits, so a process that is slow to die delays nobody's search.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Hashable, Mapping, Sequence

from .turns import SearchKind, Turns
from .usi import EngineError, Search, UsiEngine

log = logging.getLogger(__name__)


def parse_options(text: str) -> dict[str, str]:
    """`ENGINE_OPTIONS` as USI options: `Name=value` pairs separated by `;`.

    >>> parse_options("Hash=64; USI_OwnBook=false")
    {'Hash': '64', 'USI_OwnBook': 'false'}
    """
    options: dict[str, str] = {}
    for part in text.split(";"):
        if not part.strip():
            continue
        name, equals, value = part.partition("=")
        if not equals or not name.strip() or any(c in part for c in "\r\n"):
            raise ValueError(f"an engine option is written Name=value, not {part.strip()!r}")
        options[name.strip()] = value.strip()
    return options


class EnginePool:
    """Searches for the whole bot, at most `jobs` at once.

    Example::

        pool = EnginePool("/usr/games/fairy-stockfish", jobs=1)
        search = await pool.search(
            sfen, ["7g7f"], movetime_ms=300, skill=0, kind=SearchKind.MOVE, asker=member_id
        )
        await pool.close()
    """

    def __init__(
        self, path: str, options: Mapping[str, str] | None = None, *, jobs: int = 1
    ) -> None:
        if jobs < 1:
            raise ValueError("an engine pool needs at least one job")
        self.path = path
        self.options = dict(options or {})
        self.jobs = jobs
        self.turns = Turns(jobs)
        self._idle: list[UsiEngine] = []
        self._starting: set[UsiEngine] = set()
        self._busy: set[UsiEngine] = set()  # searching
        self._endings: set[asyncio.Task[None]] = set()  # processes being stopped
        self._closed = False
        self.started = 0  # processes started so far: a restart shows here

    async def search(
        self,
        sfen: str,
        moves: Sequence[str] = (),
        *,
        movetime_ms: int,
        skill: int | None = None,
        kind: SearchKind = SearchKind.MOVE,
        asker: Hashable = None,
    ) -> Search:
        """The engine's move, once a job is free for a search of this `kind` asked by
        `asker` (a member); `EngineError` if the process failed (it is gone, and the next
        search starts another)."""
        async with self.turns.turn(kind, asker):
            engine = await self._engine()
            try:
                search = await engine.search(sfen, moves, movetime_ms=movetime_ms, skill=skill)
            except BaseException:
                self._end(engine)
                raise
            self._busy.discard(engine)
            self._idle.append(engine)
            return search

    async def _engine(self) -> UsiEngine:
        if self._closed:  # asked, or waiting its turn, as the bot stops: nobody would stop it
            raise EngineError("the engine pool is closed")
        while self._idle:
            engine = self._idle.pop()
            if engine.alive:
                self._busy.add(engine)
                return engine
            self._end(engine)
        engine = UsiEngine(self.path, self.options)
        self._starting.add(engine)  # tracked from its start: a cancelled start is killed too
        try:
            await engine.start()
        except BaseException:
            self._end(engine)
            raise
        finally:
            self._starting.discard(engine)
        self._busy.add(engine)
        self.started += 1
        log.info("engine %s started (%d so far)", self.path, self.started)
        return engine

    def _end(self, engine: UsiEngine) -> None:
        """Stop the process in the background: its job is free for the next search now."""
        self._starting.discard(engine)
        self._busy.discard(engine)
        engine.kill()
        task = asyncio.get_running_loop().create_task(engine.close(), name="engine-end")
        self._endings.add(task)
        task.add_done_callback(self._endings.discard)

    async def restart(self) -> None:
        """Stop the idle processes (one answered nonsense): the next search starts afresh."""
        idle, self._idle = self._idle, []
        for engine in idle:
            self._end(engine)

    def processes(self) -> list[UsiEngine]:
        """The processes running now, searching or idle (for tests that kill one)."""
        return [e for e in (*self._busy, *self._idle) if e.alive]

    async def close(self) -> None:
        """Stop every process, and wait for those being stopped; a search asked later,
        or still waiting its turn, fails with `EngineError` instead of starting one."""
        self._closed = True
        engines, self._idle = [*self._idle, *self._busy, *self._starting], []
        self._busy.clear()
        self._starting.clear()
        await asyncio.gather(*(engine.close() for engine in engines), return_exceptions=True)
        while self._endings:
            await asyncio.gather(*self._endings, return_exceptions=True)


__all__ = ["EngineError", "EnginePool", "SearchKind", "parse_options"]
