"""Whose search runs next: a computer's move before any analysis, and members in turn,
seen from the order in which a fake engine was asked (no timing involved)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.engine import EnginePool, Search, SearchKind
from bot.engine.turns import MOVES_IN_A_ROW, Turns

from ..support.engines import engine_seen, fake_engine

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
#: Distinct positions, one per search, to tell the searches apart in the engine's log.
OPENINGS = [[first] for first in ("7g7f", "2g2f", "6g6f", "1g1f", "9g9f", "3g3f", "5g5f")]


def said(moves: list[str]) -> str:
    return f"position sfen {START} moves {' '.join(moves)}"


async def queued(pool: EnginePool, count: int) -> None:
    """Until `count` searches wait for the job."""
    async with asyncio.timeout(10):
        while pool.turns.waiting < count:
            await asyncio.sleep(0.01)


async def test_a_computer_move_passes_one_members_queued_analyses_and_members_take_turns(
    tmp_path: Path,
) -> None:
    program, _ = fake_engine(tmp_path, "gate")
    pool = EnginePool(program, jobs=1)
    try:
        holding = asyncio.create_task(pool.search(START, movetime_ms=10))
        async with asyncio.timeout(10):
            while not engine_seen(tmp_path):  # the job is taken, the engine searching
                await asyncio.sleep(0.01)

        def ask(moves: list[str], kind: SearchKind, asker: int) -> asyncio.Task[Search]:
            return asyncio.create_task(
                pool.search(START, moves, movetime_ms=10, kind=kind, asker=asker)
            )

        flood = [ask(moves, SearchKind.ANALYSIS, 1) for moves in OPENINGS[:4]]
        await queued(pool, 4)
        other = ask(OPENINGS[4], SearchKind.ANALYSIS, 2)
        await queued(pool, 5)
        move = ask(OPENINGS[5], SearchKind.MOVE, 3)
        await queued(pool, 6)
        (tmp_path / "gate").touch()
        await asyncio.wait_for(asyncio.gather(holding, *flood, other, move), 30)
    finally:
        await pool.close()
    expected = [
        f"position sfen {START}",
        said(OPENINGS[5]),  # the computer's move first,
        said(OPENINGS[0]),  # then member 1's first analysis search,
        said(OPENINGS[4]),  # member 2's, which came after all of member 1's,
        *(said(moves) for moves in OPENINGS[1:4]),  # and the rest of member 1's
    ]
    assert engine_seen(tmp_path) == expected
    assert pool.started == 1


async def test_a_cancelled_waiter_loses_its_place_and_a_cancelled_holder_passes_the_job() -> None:
    turns = Turns(1)
    order: list[str] = []

    async def hold(name: str, kind: SearchKind, asker: int, gate: asyncio.Event) -> None:
        async with turns.turn(kind, asker):
            order.append(name)
            await gate.wait()

    first_gate, second_gate, last_gate = asyncio.Event(), asyncio.Event(), asyncio.Event()
    first = asyncio.create_task(hold("first", SearchKind.MOVE, 1, first_gate))
    await asyncio.sleep(0)
    dropped = asyncio.create_task(hold("dropped", SearchKind.MOVE, 2, asyncio.Event()))
    second = asyncio.create_task(hold("second", SearchKind.ANALYSIS, 3, second_gate))
    last = asyncio.create_task(hold("last", SearchKind.ANALYSIS, 3, last_gate))
    await asyncio.sleep(0)
    assert turns.waiting == 3
    dropped.cancel()
    await asyncio.sleep(0)
    assert turns.waiting == 2
    first_gate.set()
    await asyncio.sleep(0)
    second.cancel()  # handed the job and cancelled before it ran: the job goes on to `last`
    last_gate.set()
    await asyncio.wait_for(asyncio.gather(first, last, return_exceptions=True), 5)
    assert order == ["first", "last"] and second.cancelled() and dropped.cancelled()
    async with asyncio.timeout(1), turns.turn(SearchKind.ANALYSIS):
        assert turns.waiting == 0  # the job came back: taken at once


async def test_a_stream_of_computer_moves_lets_one_analysis_search_through_now_and_then() -> None:
    turns = Turns(1)
    order: list[str] = []

    queued = asyncio.Event()

    async def search(name: str, kind: SearchKind, asker: int) -> None:
        async with turns.turn(kind, asker):
            order.append(name)
            await queued.wait()

    holder = asyncio.create_task(search("first", SearchKind.MOVE, 0))
    await asyncio.sleep(0)
    moves = MOVES_IN_A_ROW * 2 + 1
    waiting = [asyncio.create_task(search(f"a{n}", SearchKind.ANALYSIS, 1)) for n in range(2)]
    waiting += [asyncio.create_task(search(f"m{n}", SearchKind.MOVE, 2 + n)) for n in range(moves)]
    await asyncio.sleep(0)
    assert turns.waiting == len(waiting)
    queued.set()
    await asyncio.wait_for(asyncio.gather(holder, *waiting), 5)
    run = [f"m{n}" for n in range(MOVES_IN_A_ROW)]
    more = [f"m{n}" for n in range(MOVES_IN_A_ROW, 2 * MOVES_IN_A_ROW)]
    assert order == ["first", *run, "a0", *more, "a1", f"m{moves - 1}"]
