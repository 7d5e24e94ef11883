"""One USI engine process: start it, set its options, ask it for a move, stop it.

Each search sends the whole position (`position sfen ... moves ...`), so a process keeps
no game state between searches and any process of the pool can answer any game. A search
that does not end within its time plus a grace period means the engine hangs: the process
is killed and `EngineError` raised, as for a process that died or printed no move; the
caller decides whether to try again on a fresh process.

The engine runs in a process group of its own, and killing it kills the whole group: an
`ENGINE_PATH` that is a wrapper script leaves no child behind, and a child that holds the
pipes open cannot keep the bot waiting. Every wait on the process is bounded.

USI gives a search no id, so an answer cannot say which search it belongs to. Two rules
keep a stray `bestmove` (a second one, or one printed late) from answering another game's
search: a process whose search failed, timed out or was cancelled is killed, never asked
again; and each search starts with `isready`, every line before `readyok` being discarded,
so whatever the engine printed before it read the new search's commands is never taken as
its answer. The round trip costs a fraction of a millisecond, against a process start per
search if processes were never reused.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from asyncio.subprocess import DEVNULL, PIPE, Process, SubprocessStreamProtocol
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

log = logging.getLogger(__name__)

#: How long an engine may take to start and answer `usi` / `isready`.
START_SECONDS = 10.0
#: How much longer than its time a search may take before the engine counts as hung
#: (engines overshoot a little; a loaded machine schedules them late).
GRACE_SECONDS = 5.0
#: How long a process is given to quit before it is killed.
QUIT_SECONDS = 1.0
#: How long a killed process is waited for (a warning, never a hang, if it overruns).
REAP_SECONDS = 2.0
#: Lines read in a row before the event loop gets a turn: a flood of short lines that are
#: all buffered already would otherwise be read without ever letting other members in.
LINES_PER_TURN = 64
#: The most an engine may print in one step (its start, or one search): hundreds of times
#: what a search of a few seconds prints, so a flood fails at once instead of keeping the
#: bot busy reading until the search's deadline.
OUTPUT_LIMIT = 1 << 20
#: The longest line an engine may print (a long principal variation fits easily).
LINE_LIMIT = 1 << 16


class EngineError(Exception):
    """The engine could not answer: it would not start, died, hung or printed nonsense."""


@dataclass(frozen=True, slots=True)
class Score:
    """An evaluation from the view of the side to move: centipawns, or moves to mate
    (`mate` > 0: the side to move mates; < 0, or 0 with no move: it is mated)."""

    cp: int | None = None
    mate: int | None = None

    def capped(self, cap: int) -> int:
        """The score in centipawns within ±`cap`; any mate counts as the cap itself.

        >>> Score(mate=-3).capped(3000), Score(cp=120).capped(3000)
        (-3000, 120)
        """
        if self.mate is not None:
            return cap if self.mate > 0 else -cap
        return max(-cap, min(cap, self.cp or 0))


@dataclass(frozen=True, slots=True)
class Search:
    """An engine's answer: its move in USI (or `resign` / `win`) and its last score."""

    best: str
    score: Score | None


def parse_score(line: str) -> Score | None:
    """The score of an `info` line, if it has one.

    >>> parse_score("info depth 3 score cp -202 nodes 139 pv 5a4b")
    Score(cp=-202, mate=None)
    >>> parse_score("info depth 9 score mate -4 pv 5a4b")
    Score(cp=None, mate=-4)
    """
    words = line.split()
    try:
        at = words.index("score")
        kind, value = words[at + 1], words[at + 2]
        number = int(value.lstrip("+")) if value not in ("+", "-") else (1 if value == "+" else -1)
    except (ValueError, IndexError):
        return None
    if kind == "cp":
        return Score(cp=number)
    if kind == "mate":
        return Score(mate=number)
    return None


class UsiEngine:
    """One engine process over pipes; `start()` it, then `search()` as often as needed.

    Example::

        engine = UsiEngine("/usr/games/fairy-stockfish")
        await engine.start()
        search = await engine.search("lnsgkgsnl/1r5b1/... b - 1", [], movetime_ms=200)
        search.best  # "2g2f"
    """

    def __init__(self, path: str, options: Mapping[str, str] | None = None) -> None:
        self.path = path
        self.options = dict(options or {})
        self.offered: set[str] = set()  # the options the engine says it has
        self._process: Process | None = None
        self._transport: asyncio.SubprocessTransport | None = None
        self._skill: int | None = None
        self._dying: Process | None = None  # killed, not yet waited for
        #: asyncio starting the process: a cancelled start leaves it to finish (see `start`)
        self._spawning: asyncio.Future[Any] | None = None

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def alive(self) -> bool:
        return self._process is not None and self._process.returncode is None

    async def start(self) -> None:
        """Start the process, say `usi`, set one thread and the owner's options. On any
        failure, a cancellation too, the process is killed: `close()` then waits for it
        (for a start cancelled while asyncio was still starting the process, `close()`
        first waits for that start to end, and the process is killed as it does)."""
        loop = asyncio.get_running_loop()
        self._spawning = spawning = asyncio.ensure_future(
            loop.subprocess_exec(
                lambda: SubprocessStreamProtocol(limit=LINE_LIMIT, loop=loop),
                self.path,
                stdin=PIPE,
                stdout=PIPE,
                stderr=DEVNULL,
                start_new_session=True,  # its own process group, killed as one
            )
        )
        try:
            transport, protocol = await asyncio.shield(spawning)
        except OSError as error:
            raise EngineError(f"cannot start {self.path}: {error}") from error
        except asyncio.CancelledError:
            # Cancelled while asyncio connects the pipes, it would wait for the process to
            # close them, which a child holding them never does: the start finishes on its
            # own instead, and the process group is killed as soon as it has.
            spawning.add_done_callback(self._kill_unwanted)
            raise
        self._transport = transport
        self._process = Process(transport, protocol, loop)
        try:
            await asyncio.wait_for(self._handshake(), START_SECONDS)
        except (TimeoutError, EngineError) as error:
            self.kill()
            raise EngineError(f"{self.path} did not start as a USI engine: {error}") from error
        except BaseException:
            self.kill()
            raise

    def _kill_unwanted(
        self, spawning: asyncio.Future[tuple[asyncio.SubprocessTransport, SubprocessStreamProtocol]]
    ) -> None:
        """Kill a process whose start was cancelled, once asyncio has finished starting it."""
        if spawning.cancelled() or spawning.exception() is not None:
            return
        transport, protocol = spawning.result()
        self._transport = transport
        self._process = Process(transport, protocol, asyncio.get_running_loop())
        self.kill()

    async def _handshake(self) -> None:
        self._send("usi")
        async for line in self._lines():
            if line.startswith("option name "):
                self.offered.add(line[len("option name ") :].split(" type ")[0])
            if line == "usiok":
                break
        # One thread, whatever the machine: the bot shares it with everything else. An
        # engine of many variants (Fairy-Stockfish) is told it plays shogi, whatever its
        # default; options the engine does not offer are not sent, except the owner's.
        defaults = {"Threads": "1", "USI_Ponder": "false", "UCI_Variant": "shogi"}
        settings = {**defaults, **self.options}
        for name, value in settings.items():
            if name in self.offered or name in self.options:
                self._send(f"setoption name {name} value {value}")
        await self._ready()
        self._send("usinewgame")

    async def _ready(self) -> None:
        self._send("isready")
        async for line in self._lines():
            if line == "readyok":
                return

    async def search(
        self,
        sfen: str,
        moves: Sequence[str],
        *,
        movetime_ms: int,
        skill: int | None = None,
    ) -> Search:
        """The engine's move in the position `sfen` after `moves` (USI), thinking for
        `movetime_ms`; `skill` sets its `Skill Level` where it has one."""
        if not self.alive:
            raise EngineError("the engine is not running")
        try:
            return await asyncio.wait_for(
                self._search(sfen, moves, movetime_ms, skill),
                movetime_ms / 1000 + GRACE_SECONDS,
            )
        except TimeoutError:
            self.kill()
            raise EngineError(f"no move within {movetime_ms} ms (killed)") from None
        except BaseException:  # failed, or cancelled: its answer would come to a later search
            self.kill()
            raise

    async def _search(
        self, sfen: str, moves: Sequence[str], movetime_ms: int, skill: int | None
    ) -> Search:
        if skill is not None and skill != self._skill and "Skill Level" in self.offered:
            self._send(f"setoption name Skill Level value {skill}")
            self._skill = skill
        await self._ready()  # whatever came before belongs to no search of ours
        position = f"position sfen {sfen}" + (f" moves {' '.join(moves)}" if moves else "")
        self._send(position)
        self._send(f"go movetime {movetime_ms}")
        score: Score | None = None
        async for line in self._lines():
            if line.startswith("info ") and " score " in line:
                score = parse_score(line) or score
            elif line.startswith("bestmove"):
                words = line.split()
                if len(words) < 2:
                    raise EngineError(f"a bestmove without a move: {line!r}")
                return Search(words[1], score)
        raise EngineError("the engine stopped before answering")  # pragma: no cover

    def _send(self, command: str) -> None:
        process = self._process
        if process is None or process.stdin is None or process.returncode is not None:
            raise EngineError("the engine is not running")
        try:
            process.stdin.write(command.encode() + b"\n")
        except (BrokenPipeError, ConnectionResetError) as error:
            raise EngineError(f"the engine closed its input: {error}") from error

    async def _lines(self) -> AsyncIterator[str]:
        """The engine's lines until it closes its output (then `EngineError`)."""
        process = self._process
        assert process is not None and process.stdout is not None
        read = size = 0
        while True:
            try:
                raw = await process.stdout.readline()
            except (ValueError, asyncio.LimitOverrunError) as error:
                raise EngineError(f"an overlong line from the engine: {error}") from error
            if not raw:
                raise EngineError(f"the engine closed its output (code {process.returncode})")
            read, size = read + 1, size + len(raw)
            if size > OUTPUT_LIMIT:
                raise EngineError(f"more than {OUTPUT_LIMIT} bytes of output (a flood)")
            if read % LINES_PER_TURN == 0:
                await asyncio.sleep(0)  # a buffered line is read without waiting
            yield raw.decode(errors="replace").strip()

    def kill(self) -> None:
        """Kill the process and everything it started (its process group) at once, and
        close our ends of the pipes, so that no child holding them open keeps anyone
        waiting; `close()` then waits for it, within `REAP_SECONDS`."""
        process, transport = self._process, self._transport
        self._process = None
        if process is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            self._dying = process
        if transport is not None:
            # The pipes only: closing the whole transport now would poll, and so reap, a
            # process the child watcher is about to wait for (it then logs an unknown
            # child); `close()` closes the transport once the process is gone.
            for fd in (0, 1):
                pipe = transport.get_pipe_transport(fd)
                if pipe is not None:
                    pipe.close()

    async def close(self) -> None:
        """Ask the engine to quit, kill its process group if it does not (and the
        children it leaves in any case), and wait for it within `REAP_SECONDS`."""
        spawning = self._spawning
        if spawning is not None and not spawning.done():
            await asyncio.wait({spawning}, timeout=START_SECONDS)
        process = self._process
        try:
            if process is not None and process.returncode is None:
                with contextlib.suppress(TimeoutError, EngineError, OSError):
                    await asyncio.wait_for(self._quit(process), QUIT_SECONDS)
        finally:  # cancelled while it quits (a shutdown cut short), it is killed all the same
            self.kill()
        dying, self._dying = self._dying, None
        try:
            if dying is not None:
                try:
                    await asyncio.wait_for(dying.wait(), REAP_SECONDS)
                except TimeoutError:
                    log.warning("engine %s (pid %s) outlived its kill", self.path, dying.pid)
        finally:
            transport, self._transport = self._transport, None
            if transport is not None:
                transport.close()

    async def _quit(self, process: Process) -> None:
        self._send("quit")
        if process.stdin is not None:
            await process.stdin.drain()
        await process.wait()
