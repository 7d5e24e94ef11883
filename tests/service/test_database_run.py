"""`Database.run`: a whole transaction in one round trip to aiosqlite's thread, with the
same repositories and the same guarantees as `transaction()` and `read()`."""

from __future__ import annotations

import asyncio
import threading
from datetime import UTC, datetime, timedelta
from typing import Any, cast

import pytest

from bot.db import Conflict, Database, MoveRow, NewGame, PlayerRow, Session, Terms
from rules import Handicap

WHEN = datetime(2025, 3, 1, 12, 0, tzinfo=UTC)
ALICE, BOB = PlayerRow(1, "Alice"), PlayerRow(2, "Bob")


async def new_game(tx: Session) -> int:
    await tx.players.upsert(ALICE, WHEN)
    await tx.players.upsert(BOB, WHEN)
    return await tx.games.create(
        NewGame(
            10,
            20,
            ALICE.user_id,
            BOB.user_id,
            Terms(timedelta(days=3), timedelta(days=3), "even", "27"),
            Handicap.EVEN.sfen,
            WHEN,
        )
    )


def move(game_id: int, ply: int, usi: str) -> MoveRow:
    return MoveRow(game_id, ply, usi, ALICE.user_id, WHEN)


def count_round_trips(db: Database, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many functions the database's connection sends to its thread, from now on."""
    connection: Any = cast(Any, db)._connection  # the SQLite backend's aiosqlite connection
    original = connection._execute
    calls = [0]

    async def counting(*args: Any, **kwargs: Any) -> Any:
        calls[0] += 1
        return await original(*args, **kwargs)

    monkeypatch.setattr(connection, "_execute", counting)
    return calls


@pytest.mark.sqlite_only
async def test_a_transaction_is_one_round_trip_and_is_committed(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game_id = await db.run(new_game)
    calls = count_round_trips(db, monkeypatch)

    async def two_moves(tx: Session) -> list[str]:
        await tx.moves.insert(move(game_id, 1, "7g7f"))
        await tx.moves.insert(move(game_id, 2, "3c3d"))
        return await tx.moves.usi_list(game_id)

    assert await db.run(two_moves) == ["7g7f", "3c3d"]
    assert calls == [1]
    async with db.query() as q:  # and it is there for everyone else
        assert await q.moves.usi_list(game_id) == ["7g7f", "3c3d"]
    assert calls == [2]


async def test_an_error_rolls_everything_back_and_comes_back_to_the_caller(db: Database) -> None:
    game_id = await db.run(new_game)

    async def clash(tx: Session) -> None:
        await tx.moves.insert(move(game_id, 1, "7g7f"))
        await tx.players.upsert(PlayerRow(1, "Renamed"), WHEN)
        await tx.moves.insert(move(game_id, 1, "2g2f"))  # the same ply again

    with pytest.raises(Conflict):
        await db.run(clash)
    async with db.read() as tx:
        assert await tx.moves.usi_list(game_id) == []
        assert await tx.players.get(1) == ALICE

    async def fails(tx: Session) -> None:
        await tx.moves.insert(move(game_id, 1, "7g7f"))
        raise LookupError("the caller's own error")

    with pytest.raises(LookupError, match="caller's own"):
        await db.run(fails)
    assert await db.run(lambda tx: tx.moves.usi_list(game_id), write=False) == []


@pytest.mark.sqlite_only
async def test_work_that_awaits_anything_else_is_refused_and_rolled_back(db: Database) -> None:
    game_id = await db.run(new_game)
    pending: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    async def waits(tx: Session) -> None:
        await tx.moves.insert(move(game_id, 1, "7g7f"))
        await pending

    with pytest.raises(RuntimeError, match="awaited something other"):
        await db.run(waits)

    async def sleeps(tx: Session) -> None:
        await tx.moves.insert(move(game_id, 1, "7g7f"))
        await asyncio.sleep(0.01)  # no event loop in the database's thread

    with pytest.raises(RuntimeError):
        await db.run(sleeps)
    assert await db.run(lambda tx: tx.moves.usi_list(game_id), write=False) == []


@pytest.mark.sqlite_only
async def test_the_work_runs_in_the_database_thread_not_on_the_event_loop(db: Database) -> None:
    async def where(tx: Session) -> int:
        await tx.players.get(1)
        return threading.get_ident()

    assert await db.run(where, write=False) != threading.get_ident()


@pytest.mark.sqlite_only
async def test_runs_and_blocks_from_many_tasks_never_interleave(db: Database) -> None:
    """Each task reads the last ply and writes the next: interleaved transactions would
    read the same ply twice and clash."""
    game_id = await db.run(new_game)

    async def next_move(tx: Session) -> None:
        ply = len(await tx.moves.usi_list(game_id)) + 1
        await tx.moves.insert(move(game_id, ply, "1g1f"))

    async def with_block() -> None:
        async with db.transaction() as tx:
            await next_move(tx)

    await asyncio.gather(*(db.run(next_move) if i % 2 else with_block() for i in range(40)))
    async with db.query() as q:
        assert len(await q.moves.usi_list(game_id)) == 40


async def test_a_block_cancelled_at_any_step_leaves_the_database_usable(db: Database) -> None:
    """A task cancelled inside `transaction()` or `read()` (a send cut short as the bot
    stops), at whichever await it has reached, ends its transaction: the next block
    begins its own instead of failing inside a transaction left open."""
    game_id = await db.run(new_game)

    async def write() -> None:
        async with db.transaction() as tx:
            await tx.moves.insert(move(game_id, 1, "7g7f"))
            await tx.moves.delete_after(game_id, 0)

    async def read() -> None:
        async with db.read() as q:
            await q.moves.usi_list(game_id)

    for steps in range(12):
        for block in (write, read):
            task = asyncio.create_task(block())
            for _ in range(steps):
                await asyncio.sleep(0)
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            async with db.transaction() as tx:  # fails if the cancelled block left one open
                assert await tx.moves.usi_list(game_id) == []
