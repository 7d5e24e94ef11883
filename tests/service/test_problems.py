"""Mate problems from finished games: a game that ends is queued in its ending's
transaction, scanned once in a worker process (of two processes one scans it), a player
who opted out keeps their games out, and an administrator queues older games."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import BulkGame, Database, MoveRow, NewGame, Terms
from bot.services import GameService, ReaderPool
from bot.services.problems.extract import find_problems
from bot.services.problems.scanning import SCAN_LEASE
from rules.notation.files import read_record
from tests.support.stall import LoopProbe

from .conftest import ALICE, BOB, CHANNEL, GUILD, FakeClock, RecordingEvents, play_all, start_game

RECORDS = Path(__file__).resolve().parents[1] / "data" / "records"
#: Sente mates in 3 with a unique first move: R*5b, K-6a, R-6b+ (found by the solver).
MATE_IN_3 = "4k4/9/3S5/9/9/9/9/9/4K4 b RS 1"
MATING_GAME = ["R*5b", "5a6a", "5b6b+"]


@pytest.fixture
async def pool() -> AsyncIterator[ReaderPool]:
    pool = ReaderPool(processes=1, time_limit=60.0)
    yield pool
    await pool.close()


@pytest.fixture
def scanning(service: GameService, pool: ReaderPool) -> GameService:
    service.problems.scan_with(pool)
    return service


def test_a_game_gives_one_problem_per_mating_sequence() -> None:
    found = find_problems(MATE_IN_3, ["R*5b", "5a6a", "5b6b+"])
    assert [(p.ply, p.plies, p.line) for p in found] == [(0, 3, ("R*5b", "5a6a", "5b6b+"))]
    assert found[0].sfen == MATE_IN_3
    # The same mate, both dithering first: one problem, at its first position.
    dithered = find_problems(MATE_IN_3, ["5i4i", "5a4a", "4i5i", "4a5a", *MATING_GAME])
    assert [(p.ply, p.plies) for p in dithered] == [(0, 3)]


def test_a_mate_in_one_and_a_game_without_mate_are_no_problems() -> None:
    assert find_problems("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", ["G*5b"]) == []
    start = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
    assert find_problems(start, ["7g7f", "3c3d", "2g2f"]) == []


def test_the_game_budget_bounds_the_search() -> None:
    # With no nodes to spend, nothing is searched, so nothing is found.
    assert find_problems(MATE_IN_3, MATING_GAME, game_nodes=0) == []


async def test_an_ended_game_is_scanned_once_and_its_problem_kept(
    scanning: GameService,
) -> None:
    game = await start_game(scanning, start_sfen=MATE_IN_3)
    await play_all(scanning, game.id, MATING_GAME)
    progress = await scanning.problems.progress(GUILD)
    assert (progress.finished, progress.queued, progress.scanned) == (1, 1, 0)
    await scanning.problems.check()
    progress = await scanning.problems.progress(GUILD)
    assert (progress.queued, progress.scanned, progress.problems) == (0, 1, 1)
    async with scanning.store.db.read() as tx:
        (problem,) = await tx.problems.of_server(GUILD)
    assert (problem.game_id, problem.ply, problem.plies) == (game.id, 0, 3)
    assert problem.line == ("R*5b", "5a6a", "5b6b+") and problem.sfen == MATE_IN_3
    await scanning.problems.check()  # nothing left: nothing scanned again
    assert scanning.problems.scanned == 1


async def test_a_player_who_opted_out_keeps_their_games_out(scanning: GameService) -> None:
    await scanning.problems.opt_out(BOB.user_id, True)
    assert await scanning.problems.opted_out(BOB.user_id)
    game = await start_game(scanning, start_sfen=MATE_IN_3)
    await play_all(scanning, game.id, MATING_GAME)
    await scanning.problems.check()
    progress = await scanning.problems.progress(GUILD)
    assert (progress.scanned, progress.problems) == (1, 0)
    await scanning.problems.opt_out(BOB.user_id, False)
    assert not await scanning.problems.opted_out(BOB.user_id)


async def test_older_games_are_queued_on_request(scanning: GameService, db: Database) -> None:
    await start_game(scanning)  # the players exist; this game goes on
    now = scanning.store.now()
    terms = Terms(timedelta(), timedelta(days=3), "even", "27")
    new = NewGame(GUILD, CHANNEL, ALICE.user_id, BOB.user_id, terms, MATE_IN_3, now)
    moves = tuple(
        MoveRow(0, ply, usi, (ALICE, BOB)[(ply - 1) % 2].user_id, now)
        for ply, usi in enumerate(MATING_GAME, 1)
    )
    async with db.transaction() as tx:  # a game that ended before problems were looked for
        await tx.games.bulk_insert([BulkGame(new, moves, MATE_IN_3, now, "checkmate", "sente")])
    assert (await scanning.problems.progress(GUILD)).queued == 0
    progress = await scanning.problems.queue_history(GUILD)
    assert (progress.finished, progress.queued) == (1, 1)
    again = await scanning.problems.queue_history(GUILD)  # queued once, not twice
    assert again.queued == 1
    await scanning.problems.check()
    assert (await scanning.problems.progress(GUILD)).problems == 1


async def test_two_processes_scan_a_game_once(
    db: Database, clock: FakeClock, events: RecordingEvents, pool: ReaderPool
) -> None:
    first = GameService(db, clock=clock, events=events, rng=random.Random(1))
    second = GameService(db, clock=clock, events=events, rng=random.Random(2))
    first.problems.scan_with(pool)
    other = ReaderPool(processes=1, time_limit=60.0)
    second.problems.scan_with(other)
    try:
        for _ in range(3):
            game = await start_game(first, start_sfen=MATE_IN_3)
            await play_all(first, game.id, MATING_GAME)
        await asyncio.gather(first.problems.check(), second.problems.check())
    finally:
        await other.close()
    assert first.problems.scanned + second.problems.scanned == 3
    progress = await first.problems.progress(GUILD)
    assert (progress.scanned, progress.problems) == (3, 3)


async def test_a_scan_left_by_a_stopped_process_is_taken_when_its_lease_runs_out(
    scanning: GameService, db: Database, clock: FakeClock
) -> None:
    game = await start_game(scanning, start_sfen=MATE_IN_3)
    await play_all(scanning, game.id, MATING_GAME)
    now = clock.now
    async with db.transaction() as tx:
        assert await tx.problems.claim_scan(game.id, "stopped", now, now + SCAN_LEASE)
    assert await scanning.problems.check() == now + SCAN_LEASE  # held: wake when it runs out
    assert scanning.problems.scanned == 0
    clock.advance(seconds=SCAN_LEASE.total_seconds())
    await scanning.problems.check()
    assert scanning.problems.scanned == 1
    async with db.transaction() as tx:  # the stopped process comes back too late
        assert not await tx.problems.finish_scan(game.id, GUILD, "stopped", (), now)
    assert (await scanning.problems.progress(GUILD)).problems == 1
    assert ALICE.user_id != BOB.user_id and timedelta(0) < SCAN_LEASE


async def test_scanning_a_real_game_never_stalls_the_event_loop(
    file_db: Database, clock: FakeClock, events: RecordingEvents, pool: ReaderPool
) -> None:
    """A professional game of 172 plies is scanned in the worker while the loop keeps
    waking on time; the same search on the loop itself stalls it (so the probe can tell)."""
    service = GameService(file_db, clock=clock, events=events, rng=random.Random(3))
    service.problems.scan_with(pool)
    await start_game(service)
    game = read_record((RECORDS / "kfjs_20091203.ki2u").read_bytes()).game
    start = game.position_at(0).sfen()
    usi = [move.usi() for move in game.moves]
    now = clock.now
    terms = Terms(timedelta(), timedelta(days=3), "even", "27")
    new = NewGame(GUILD, CHANNEL, ALICE.user_id, BOB.user_id, terms, start, now)
    moves = tuple(
        MoveRow(0, ply, text, (ALICE, BOB)[(ply - 1) % 2].user_id, now)
        for ply, text in enumerate(usi, 1)
    )
    final = game.position.sfen()
    async with file_db.transaction() as tx:
        await tx.games.bulk_insert([BulkGame(new, moves, final, now, "resign", "sente")])
    await service.problems.queue_history(GUILD)
    async with LoopProbe() as probe:
        await service.problems.check()
    assert service.problems.scanned == 1
    assert probe.worst < 0.1, probe.report()
    assert probe.wakes > 100  # the scan took a while: the loop ran all along
    async with LoopProbe() as inline:
        find_problems(start, usi, game_nodes=50_000)
        await asyncio.sleep(0.02)  # the probe wakes, late
    assert inline.worst > 0.1, inline.report()


async def test_a_scan_that_overruns_is_given_up_and_one_whose_workers_close_waits(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, start_sfen=MATE_IN_3)
    await play_all(service, game.id, MATING_GAME)
    closed = ReaderPool(processes=1)
    await closed.close()
    service.problems.scan_with(closed)  # the bot is stopping: the game waits for a later run
    assert await service.problems.check() == clock.now + SCAN_LEASE
    progress = await service.problems.progress(GUILD)
    assert (progress.queued, progress.scanned) == (1, 0)
    clock.advance(seconds=SCAN_LEASE.total_seconds())
    hasty = ReaderPool(processes=1, time_limit=0.001)  # no scan finishes in a millisecond
    service.problems.scan_with(hasty)
    try:
        assert await service.problems.check() is None
    finally:
        await hasty.close()
    progress = await service.problems.progress(GUILD)
    assert (progress.queued, progress.scanned, progress.problems) == (0, 1, 0)


async def test_the_workers_can_run_at_a_lower_priority() -> None:
    """The scan is background work: its workers yield the CPU to the bot's process."""
    base = os.nice(0)
    for niceness, expected in ((0, base), (5, min(base + 5, 19))):
        workers = ReaderPool(processes=1, niceness=niceness)
        try:
            assert await workers.run(os.nice, 0) == expected
        finally:
            await workers.close()
