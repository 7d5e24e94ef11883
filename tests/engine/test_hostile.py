"""Engines that misbehave in every way we know of, through the pool: each search fails with
`EngineError` within its limit, the job comes back for the next search, and no process of
the engine (nor a child its wrapper script started) is left running. And a stray answer
never answers a later search."""

from __future__ import annotations

import asyncio
import time
import tracemalloc
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from bot.engine import EngineError, EnginePool, UsiEngine, usi

from ..support.engines import (
    all_gone,
    engine_pids,
    engine_seen,
    fake_engine,
    mute_engine,
    wrapper_engine,
)
from ..support.fake_engine import STRAY
from ..support.stall import LoopProbe

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: The search time of every test search, and the grace the tests give a search.
MOVETIME_MS = 20
GRACE = 0.5
#: What a failing search may take at most here: its time, its grace, and room for a loaded
#: machine; an engine that was waited for without a limit never comes back at all.
LIMIT = MOVETIME_MS / 1000 + GRACE + 4.0


@pytest.fixture(autouse=True)
def short_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(usi, "GRACE_SECONDS", GRACE)
    monkeypatch.setattr(usi, "START_SECONDS", 10.0)  # a loaded machine starts Python slowly
    monkeypatch.setattr(usi, "QUIT_SECONDS", 0.3)
    monkeypatch.setattr(usi, "REAP_SECONDS", 1.0)


@pytest.fixture
async def pools() -> AsyncIterator[list[EnginePool]]:
    opened: list[EnginePool] = []
    yield opened
    for pool in opened:
        await asyncio.wait_for(pool.close(), 10)


async def until(condition: Callable[[], bool], what: str, within: float = 10.0) -> None:
    """Wait for `condition`, failing the test (not hanging it) after `within` seconds."""
    deadline = time.monotonic() + within
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {within} s"
        await asyncio.sleep(0.01)


def first_move(moves: list[str]) -> str:
    """The fake engine's answer (the first legal move) after `moves` from the start."""
    from rules import Game

    return Game(START, moves).position.legal_moves()[0].usi()


Maker = Callable[[Path], str]
HOSTILE: dict[str, Maker] = {
    "silent": lambda folder: fake_engine(folder, "hang")[0],
    "flooding": lambda folder: fake_engine(folder, "flood")[0],
    "dying mid-search": lambda folder: fake_engine(folder, "crash")[0],
    "closing its output and living on": lambda folder: fake_engine(folder, "shut")[0],
    "wrapper whose child holds the pipes": lambda folder: wrapper_engine(folder, "hang")[0],
    "wrapper dying mid-search": lambda folder: wrapper_engine(folder, "crash")[0],
}


@pytest.mark.parametrize("name", HOSTILE)
async def test_a_hostile_engine_fails_in_time_frees_its_job_and_leaves_no_process(
    name: str, tmp_path: Path, pools: list[EnginePool]
) -> None:
    pool = EnginePool(HOSTILE[name](tmp_path))
    pools.append(pool)
    began = time.monotonic()
    with pytest.raises(EngineError):
        await asyncio.wait_for(pool.search(START, movetime_ms=MOVETIME_MS), LIMIT + 5)
    assert time.monotonic() - began < LIMIT
    hostile = engine_pids(tmp_path)
    assert hostile and await all_gone(tmp_path) == [], "killed at once, before the pool closes"
    # The plan is used up: the same program now answers, through the job just freed.
    answer = await asyncio.wait_for(pool.search(START, ["7g7f"], movetime_ms=10), LIMIT)
    assert answer.best == first_move(["7g7f"])
    await asyncio.wait_for(pool.close(), 5)
    assert await all_gone(tmp_path) == [] and len(engine_pids(tmp_path)) > len(hostile)


async def test_the_job_is_free_while_a_failed_process_is_still_being_stopped(
    tmp_path: Path, pools: list[EnginePool], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopping a process may take its time (a `REAP_SECONDS` at worst): nobody waits for
    it but the pool's `close()`, which leaves no stopping behind."""
    stopped = asyncio.Event()
    stopping: list[UsiEngine] = []
    close = UsiEngine.close

    async def slow_close(engine: UsiEngine) -> None:
        stopping.append(engine)
        await stopped.wait()
        await close(engine)

    monkeypatch.setattr(UsiEngine, "close", slow_close)
    pool = EnginePool(fake_engine(tmp_path, "crash")[0])
    pools.append(pool)
    with pytest.raises(EngineError):
        await asyncio.wait_for(pool.search(START, movetime_ms=MOVETIME_MS), LIMIT)
    answer = await asyncio.wait_for(pool.search(START, ["7g7f"], movetime_ms=10), LIMIT)
    assert answer.best == first_move(["7g7f"]) and len(stopping) == 1 and not stopped.is_set()
    closing = asyncio.create_task(pool.close())
    await asyncio.sleep(0.1)
    assert not closing.done(), "close() waits for the process still being stopped"
    stopped.set()
    await asyncio.wait_for(closing, 5)
    assert await all_gone(tmp_path) == []


async def test_closing_a_wrapper_that_outlives_quit_takes_its_time_and_no_more(
    tmp_path: Path,
) -> None:
    """At shutdown the wrapper's engine quits, but the wrapper waits for its other child:
    it is killed, whole, after `QUIT_SECONDS`."""
    pool = EnginePool(wrapper_engine(tmp_path)[0])
    await pool.search(START, movetime_ms=10)
    began = time.monotonic()
    await asyncio.wait_for(pool.close(), 10)
    assert time.monotonic() - began < usi.QUIT_SECONDS + usi.REAP_SECONDS + 2.0
    assert len(engine_pids(tmp_path)) == 3 and await all_gone(tmp_path) == []


async def test_a_close_cancelled_while_the_engine_quits_still_kills_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shutdown cut short while the wrapper outlives `quit` leaves nothing running."""
    monkeypatch.setattr(usi, "QUIT_SECONDS", 30.0)
    engine = UsiEngine(wrapper_engine(tmp_path)[0])
    await engine.start()
    closing = asyncio.create_task(engine.close())
    await asyncio.sleep(0.2)
    assert not closing.done()
    closing.cancel()
    with pytest.raises(asyncio.CancelledError):
        await closing
    assert await all_gone(tmp_path) == []
    await asyncio.wait_for(engine.close(), 5)


async def test_a_start_cancelled_in_the_handshake_leaves_no_process(
    tmp_path: Path, pools: list[EnginePool]
) -> None:
    pool = EnginePool(mute_engine(tmp_path))
    pools.append(pool)
    asking = asyncio.create_task(pool.search(START, movetime_ms=MOVETIME_MS))
    await until(lambda: len(engine_pids(tmp_path)) >= 2, "start of the program and its child")
    asking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asking
    assert await all_gone(tmp_path) == []
    pool.path = fake_engine(tmp_path)[0]
    answer = await asyncio.wait_for(pool.search(START, movetime_ms=10), LIMIT)
    assert answer.best == first_move([])


async def test_a_start_cancelled_while_its_pipes_connect_kills_the_process_once_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """asyncio cancelled while it connects a new process's pipes would wait for the process
    to close them, forever if a child holds them: the start is left to finish, and the
    process group is killed as soon as it has. Here the start is slowed after the process
    runs, so the cancellation always lands in it; closing the engine then waits for the
    start and kills what it started."""
    loop = asyncio.get_running_loop()
    spawn = loop.subprocess_exec

    async def slow_spawn(*args: Any, **kwargs: Any) -> Any:
        started = await spawn(*args, **kwargs)
        await asyncio.sleep(2.0)
        return started

    monkeypatch.setattr(loop, "subprocess_exec", slow_spawn)
    engine = UsiEngine(mute_engine(tmp_path))
    starting = asyncio.create_task(engine.start())
    await until(lambda: len(engine_pids(tmp_path)) >= 2, "start of the program and its child")
    starting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(starting, LIMIT)
    # Closing waits for the start to end and kills what it started: nothing is left once
    # it returns, well before the slowed start would have let anything else see it.
    await asyncio.wait_for(engine.close(), LIMIT)
    assert await all_gone(tmp_path, within=0.5) == []


async def test_a_handshake_that_never_ends_fails_in_time(
    tmp_path: Path, pools: list[EnginePool], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(usi, "START_SECONDS", 1.0)
    pool = EnginePool(mute_engine(tmp_path))
    pools.append(pool)
    began = time.monotonic()
    with pytest.raises(EngineError, match="did not start"):
        await asyncio.wait_for(pool.search(START, movetime_ms=MOVETIME_MS), LIMIT + 5)
    assert time.monotonic() - began < usi.START_SECONDS + 4.0
    assert await all_gone(tmp_path) == []


async def test_a_search_cancelled_midway_leaves_no_process_nor_a_late_answer(
    tmp_path: Path, pools: list[EnginePool]
) -> None:
    program, _ = wrapper_engine(tmp_path, "hang")
    pool = EnginePool(program)
    pools.append(pool)
    asking = asyncio.create_task(pool.search(START, movetime_ms=60_000))
    await until(lambda: bool(engine_seen(tmp_path)) or asking.done(), "search")
    asking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await asking
    assert await all_gone(tmp_path) == []
    answer = await asyncio.wait_for(pool.search(START, ["2g2f"], movetime_ms=10), LIMIT)
    assert answer.best == first_move(["2g2f"])


async def test_a_second_bestmove_never_answers_the_next_search(tmp_path: Path) -> None:
    engine = UsiEngine(fake_engine(tmp_path, "twice")[0])
    await engine.start()
    try:
        first = await engine.search(START, [], movetime_ms=10)
        assert first.best == first_move([])
        second = await engine.search(START, ["7g7f"], movetime_ms=10)
        third = await engine.search(START, ["2g2f"], movetime_ms=10)
    finally:
        await engine.close()
    assert second.best == first_move(["7g7f"]) != STRAY
    assert third.best == first_move(["2g2f"])


async def test_a_flood_neither_outlives_its_deadline_nor_stalls_the_loop_nor_grows(
    tmp_path: Path, pools: list[EnginePool]
) -> None:
    pool = EnginePool(fake_engine(tmp_path)[0])
    pools.append(pool)
    await pool.search(START, movetime_ms=10)  # started: the flood is the next search
    (tmp_path / "engine-plan.txt").write_text("flood")
    tracemalloc.start()
    try:
        async with LoopProbe() as probe:
            began = time.monotonic()
            with pytest.raises(EngineError, match=r"a flood|no move within"):
                await asyncio.wait_for(pool.search(START, movetime_ms=MOVETIME_MS), LIMIT + 5)
            took = time.monotonic() - began
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert took < LIMIT
    assert probe.wakes > 10 and probe.worst < 0.1, probe.report()
    assert peak < 4 << 20, f"{peak} bytes at the peak of the flood"
    assert await all_gone(tmp_path) == []


async def test_a_search_asked_or_waiting_when_the_pool_closes_starts_no_process(
    tmp_path: Path, pools: list[EnginePool]
) -> None:
    """The bot closes the engine before Discord's connection: a computer move asked in
    between, or one waiting its turn, must not start a process nobody will stop."""
    pool = EnginePool(fake_engine(tmp_path, "hang")[0], jobs=1)
    pools.append(pool)
    searching = asyncio.create_task(pool.search(START, movetime_ms=60_000))
    await until(lambda: bool(engine_seen(tmp_path)) or searching.done(), "search")
    waiting = asyncio.create_task(pool.search(START, ["7g7f"], movetime_ms=10))
    await until(lambda: pool.turns.waiting == 1, "a waiting search")
    await asyncio.wait_for(pool.close(), 5)
    for asked in (searching, waiting):
        with pytest.raises(EngineError):
            await asyncio.wait_for(asked, LIMIT)
    with pytest.raises(EngineError, match="closed"):
        await asyncio.wait_for(pool.search(START, movetime_ms=10), LIMIT)
    assert len(engine_pids(tmp_path)) == 1, "no process started after the close"
    assert await all_gone(tmp_path) == []
