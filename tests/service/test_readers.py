"""The pool of worker processes that read members' records: results and refusals cross
as plain values, a read past the time limit is answered with `ReadTooLong` while its
worker is killed and replaced (the next read does not wait behind it), and closing the
pool leaves no process behind."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from typing import Any

import pytest

from bot.services import ReaderPool, ReadTooLong, ServiceError, ShownPosition, read_position
from rules import Role
from tests.support.slow_reads import fail, refuse, sleep_then, worker_pid


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def test_a_record_is_read_in_another_process() -> None:
    pool = ReaderPool(processes=1)
    try:
        shown = await pool.run(read_position, "▲７六歩 △３四歩 ▲２二角成 △同　銀", 3)
        assert isinstance(shown, ShownPosition)
        assert shown.position.hand(shown.position.turn.opponent) == {Role.BISHOP: 1}
        assert await pool.run(worker_pid) != os.getpid()
        with pytest.raises(ServiceError) as refused:
            await pool.run(refuse, "x")
        assert refused.value.sentence.template == "Give a position (an SFEN) or a record to show."
        with pytest.raises(RuntimeError, match="KeyError"):
            await pool.run(fail, "x")
        assert await pool.run(sleep_then, 0, "still serving") == "still serving"
    finally:
        await pool.close()


async def test_a_read_past_the_limit_is_refused_and_its_worker_replaced() -> None:
    pool = ReaderPool(processes=1, time_limit=1.0)
    try:
        first = await pool.run(worker_pid)
        started = time.perf_counter()
        with pytest.raises(ReadTooLong) as overran:
            await pool.run(sleep_then, 60, "never")
        assert time.perf_counter() - started < 10
        assert overran.value.sentence.template.startswith("That record took too long")
        assert pool.overruns == 1
        await asyncio.sleep(0)
        assert not _alive(first)
        assert await pool.run(sleep_then, 0, "next") == "next"
        assert await pool.run(worker_pid) != first
    finally:
        await pool.close()


async def test_work_the_bot_sized_runs_under_its_own_limit() -> None:
    """An archive is given more than a member's read: the pool's limit is only a default."""
    pool = ReaderPool(processes=1, time_limit=0.5)
    try:
        assert await pool.run(sleep_then, 1.5, "written", time_limit=30) == "written"
        assert pool.overruns == 0
        with pytest.raises(ReadTooLong):
            await pool.run(sleep_then, 60, "never", time_limit=1.0)
    finally:
        await pool.close()


async def test_a_cancelled_read_kills_its_worker_and_closing_leaves_nothing() -> None:
    pool = ReaderPool(processes=2)
    busy = asyncio.ensure_future(pool.run(sleep_then, 60, "never"))
    await asyncio.sleep(1.0)  # started, and reading
    busy.cancel()
    with pytest.raises(asyncio.CancelledError):
        await busy
    assert pool._idle == []  # its worker was not kept: its pipe holds a reply to nothing
    assert await asyncio.gather(pool.run(worker_pid), pool.run(worker_pid))
    pids = [worker.process.pid for worker in pool._idle]
    assert len(pids) == 2 and all(map(_alive, pids))
    await pool.close()
    assert not any(map(_alive, pids))
    with pytest.raises(RuntimeError):
        await pool.run(worker_pid)


async def test_closing_kills_a_read_in_progress() -> None:
    pool = ReaderPool(processes=1)
    pid = await pool.run(worker_pid)
    reading = asyncio.ensure_future(pool.run(sleep_then, 60, "never"))
    await asyncio.sleep(0.5)
    await pool.close()
    with pytest.raises(asyncio.IncompleteReadError):
        await reading
    assert not _alive(pid)


async def test_a_read_waiting_for_a_worker_when_the_pool_closes_starts_none() -> None:
    """`close()` has stopped every worker it knows of: a read that was waiting for one must
    not start another after it (the bot's event loop may be ending)."""
    pool = ReaderPool(processes=1)
    busy = asyncio.ensure_future(pool.run(sleep_then, 60, "never"))
    while not pool._busy:  # its worker started and took the read (slow on a busy machine)
        await asyncio.sleep(0.01)
    waiting = asyncio.ensure_future(pool.run(worker_pid))
    await asyncio.sleep(0)
    await pool.close()
    with pytest.raises(asyncio.IncompleteReadError):
        await busy
    with pytest.raises(RuntimeError, match="closed"):
        await waiting
    assert pool._idle == [] and pool._busy == set()


async def test_a_read_whose_worker_is_starting_when_the_pool_closes_runs_nowhere() -> None:
    """A worker still starting when `close()` stops the others is not known to it: the read
    that started it kills it once it is up, and is refused, so no process outlives the pool."""
    pool = ReaderPool(processes=1)
    starting = asyncio.ensure_future(pool.run(worker_pid))
    await asyncio.sleep(0)  # in `_start`, its process not yet ready
    await pool.close()
    with pytest.raises(RuntimeError, match="closed"):
        await starting
    assert pool._idle == [] and pool._busy == set()


async def test_a_replacement_that_cannot_start_is_said_once_and_the_next_read_starts_one(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A worker started in the background in place of a killed one may fail (no memory, no
    processes left): the operator reads one warning, not a traceback of a task nobody
    awaited, and the next read starts its own worker."""
    started = ReaderPool._start
    starts = 0

    async def second_fails(pool: ReaderPool) -> Any:
        nonlocal starts
        starts += 1
        if starts == 2:
            raise OSError("Resource temporarily unavailable")
        return await started(pool)

    monkeypatch.setattr(ReaderPool, "_start", second_fails)
    pool = ReaderPool(processes=1, time_limit=1.0)
    try:
        with pytest.raises(ReadTooLong):
            await pool.run(sleep_then, 60, "never")
        replacing = list(pool._starting)
        await asyncio.wait(replacing)
        assert [task.exception() for task in replacing] == [None]
        assert "could not start a reader worker" in caplog.text
        assert await pool.run(sleep_then, 0, "next") == "next" and starts == 3
    finally:
        await pool.close()


def test_a_worker_whose_bot_is_gone_ends_quietly() -> None:
    """A bot killed while its worker starts leaves the worker's replies a broken pipe: the
    worker ends as when its input ends, with nothing in the log the two share."""
    read_end, write_end = os.pipe()
    os.close(read_end)  # the bot is gone before its worker says it is ready
    try:
        ended = subprocess.run(
            [sys.executable, "-c", "from bot.services.records.readers import serve; serve()"],
            stdin=subprocess.DEVNULL,
            stdout=write_end,
            stderr=subprocess.PIPE,
            timeout=60,
            check=False,
        )
    finally:
        os.close(write_end)
    assert (ended.returncode, ended.stderr.decode()) == (0, "")
