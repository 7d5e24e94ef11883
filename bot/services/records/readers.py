"""Reading members' records in worker processes, each read with a time limit.

A record or SFEN a member pastes or uploads is read by pure Python (`read_position`), which
holds the GIL while it works: in a thread it would still stop the event loop, and every
other member's answer with it. So it is read in a separate process, and a read that
overruns `READ_TIME_LIMIT` is answered with one sentence while its process is killed and
replaced, so no later read waits behind it.

Supervised workers rather than a `ProcessPoolExecutor`: an executor cannot kill the one
worker that overran (only break the whole pool, failing the other reads in flight), and it
starts its processes by forking or through a forkserver that outlives it. Here each worker
is a plain `python -c` child the pool owns, talking over its stdin and stdout with the
event loop's own pipes (no thread waits on it), killed alone when it overruns, and gone
when the pool is closed. Workers start on the first read and stay warm; a killed one is
replaced in the background. What crosses the pipe is plain pickled values: the function
to call by name and its arguments, and its result (frozen dataclasses of `rules` values)
or the refusal's sentence.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import struct
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, BinaryIO, TypeVar

from rules import Sentence

from ..errors import ServiceError

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds a read may take: a real record of the largest size reads in well under one.
READ_TIME_LIMIT = 5.0
#: Reads at once, each in its own process: enough that one slow read leaves a worker free.
READER_PROCESSES = 2
#: Seconds a worker is given to exit by itself when the pool closes, before it is killed.
EXIT_GRACE = 2.0
#: Seconds a new worker may take to import the readers and say it is ready.
START_LIMIT = 30.0
_READY = b"ready\n"
_HEADER = struct.Struct("!Q")  # the length of the pickle that follows
_ROOT = str(Path(__file__).resolve().parents[2])  # where `bot` and `rules` are imported from
_WORKER = "from bot.services.records.readers import serve; serve()"


class ReadTooLong(ServiceError):
    """A record whose reading overran the time limit; its worker was killed."""

    def __init__(self) -> None:
        super().__init__(
            Sentence(
                "That record took too long to read: check that it is a record (KIF, KI2, CSA "
                "or USI) or an SFEN."
            )
        )


class _Worker:
    """One child process and its pipes."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        assert process.stdin is not None and process.stdout is not None
        self.requests = process.stdin
        self.replies = process.stdout

    async def call(self, request: bytes) -> bytes:
        self.requests.write(_HEADER.pack(len(request)) + request)
        await self.requests.drain()
        size = _HEADER.unpack(await self.replies.readexactly(_HEADER.size))[0]
        return await self.replies.readexactly(size)

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        await self.process.wait()

    async def stop(self) -> None:
        """Ask the worker to exit (end of its input), killing it if it does not."""
        self.requests.close()
        try:
            await asyncio.wait_for(self.process.wait(), EXIT_GRACE)
        except TimeoutError:
            await self.kill()


class ReaderPool:
    """A few warm worker processes that run a function on a member's text with a time
    limit: `await pool.run(read_position, data, move)`. `close()` when the bot stops."""

    def __init__(
        self,
        processes: int = READER_PROCESSES,
        time_limit: float = READ_TIME_LIMIT,
        *,
        niceness: int = 0,
    ) -> None:
        """`niceness` lowers the workers' priority (as `nice` does): work in the background
        (the scan of finished games) then takes the CPU only when the bot leaves it idle."""
        self.time_limit = time_limit
        self._worker = (
            _WORKER if niceness == 0 else f"import os; os.nice({int(niceness)}); {_WORKER}"
        )
        self._slots = asyncio.Semaphore(processes)
        self._idle: list[_Worker] = []
        self._busy: set[_Worker] = set()
        self._starting: set[asyncio.Task[None]] = set()
        self._closed = False
        #: Reads that overran and whose worker was killed (the operator may want to know).
        self.overruns = 0

    async def run(
        self, function: Callable[..., T], *args: Any, time_limit: float | None = None
    ) -> T:
        """`function(*args)` in a worker: its result, its `ServiceError` (as a plain
        `ServiceError` with the same sentence), or `ReadTooLong` past the time limit (the
        pool's, or `time_limit` for work whose size the bot chose, such as an archive).
        `function` must be importable by name (a module's top-level function)."""
        limit = self.time_limit if time_limit is None else time_limit
        if self._closed:
            raise RuntimeError("the reader pool is closed")
        request = pickle.dumps((function, args), protocol=pickle.HIGHEST_PROTOCOL)
        async with self._slots:
            if self._closed:  # waited for a worker while the pool closed: start none
                raise RuntimeError("the reader pool is closed")
            worker = self._idle.pop() if self._idle else await self._start()
            if self._closed:  # closed while this worker was starting: it never knew of it
                await worker.kill()
                raise RuntimeError("the reader pool is closed")
            self._busy.add(worker)
            try:
                reply = await asyncio.wait_for(worker.call(request), limit)
            except TimeoutError:
                self.overruns += 1
                log.warning("a read overran %.1f s: its worker is replaced", limit)
                await worker.kill()
                self._replace()
                raise ReadTooLong() from None
            except BaseException:  # cancelled, or the worker died: its pipe is unusable
                await asyncio.shield(worker.kill())
                raise
            finally:
                self._busy.discard(worker)
            if self._closed:
                await worker.stop()
            else:
                self._idle.append(worker)
        kind, value = pickle.loads(reply)
        if kind == "refused":
            raise ServiceError(value)
        if kind == "failed":
            raise RuntimeError(f"a reader failed in its worker: {value}")
        return value  # type: ignore[no-any-return]

    async def _start(self) -> _Worker:
        environment = dict(os.environ)
        paths = [_ROOT, *filter(None, environment.get("PYTHONPATH", "").split(os.pathsep))]
        environment["PYTHONPATH"] = os.pathsep.join(paths)
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-c",
            self._worker,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            env=environment,
            start_new_session=True,  # a Ctrl-C at the bot's terminal is the bot's to handle
        )
        worker = _Worker(process)
        try:  # ready once its imports are done: a cold start is not counted against a read
            await asyncio.wait_for(worker.replies.readexactly(len(_READY)), START_LIMIT)
        except BaseException:
            await asyncio.shield(worker.kill())
            raise
        return worker

    def _replace(self) -> None:
        """Start a worker in place of a killed one, so the next read finds one warm."""

        async def start() -> None:
            try:
                worker = await self._start()
            except Exception as error:  # nobody awaits this task: say it, the next read starts one
                log.warning("could not start a reader worker in place of a killed one: %r", error)
                return
            if self._closed:
                await worker.stop()
            else:
                self._idle.append(worker)

        task = asyncio.get_running_loop().create_task(start(), name="reader worker")
        self._starting.add(task)
        task.add_done_callback(self._starting.discard)

    async def close(self) -> None:
        """Stop every worker; reads still running are killed with theirs."""
        self._closed = True
        await asyncio.gather(*self._starting, return_exceptions=True)
        idle, self._idle = self._idle, []
        await asyncio.gather(
            *(worker.stop() for worker in idle), *(worker.kill() for worker in self._busy)
        )


def serve(requests: BinaryIO | None = None, replies: BinaryIO | None = None) -> None:
    """A worker's loop: read a request, run it, write the reply, until its input ends.
    Anything the work prints goes to stderr, so it cannot garble a reply. A bot killed
    while its worker starts or works leaves the worker a broken pipe to write to: the
    worker ends quietly then, as when its input ends (nobody is left to read a traceback
    but the log the two share)."""
    requests = requests or sys.stdin.buffer
    replies = replies or sys.stdout.buffer
    sys.stdout = sys.stderr
    try:
        _serve(requests, replies)
    except BrokenPipeError:
        with contextlib.suppress(OSError, ValueError):  # what is left unflushed goes nowhere
            os.dup2(os.open(os.devnull, os.O_WRONLY), replies.fileno())


def _serve(requests: BinaryIO, replies: BinaryIO) -> None:
    replies.write(_READY)
    replies.flush()
    while True:
        header = requests.read(_HEADER.size)
        if len(header) < _HEADER.size:
            return
        function, args = pickle.loads(requests.read(_HEADER.unpack(header)[0]))
        try:
            reply: tuple[str, object] = ("done", function(*args))
        except ServiceError as error:
            reply = ("refused", error.sentence)
        except Exception as error:  # a bug: said in the bot's log, not to a member
            reply = ("failed", repr(error)[:500])
        data = pickle.dumps(reply, protocol=pickle.HIGHEST_PROTOCOL)
        replies.write(_HEADER.pack(len(data)) + data)
        replies.flush()
