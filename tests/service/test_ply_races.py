"""Writes a player is told were stored for the position they saw, racing the move that
leaves that position: a forecast line, a takeback request, the clearing of one's lines.

Two processes on one database (two `Database` objects on one SQLite file or one
PostgreSQL schema): one is inside its write transaction, at the worst moment (it has
checked the game and not yet written, or the move has been written and the lines read),
when the other's request starts. The code holds the game's row there, so the other must
wait for this transaction (seen in the server's `pg_locks` on PostgreSQL; on SQLite it
has reached its own write transaction, which cannot begin until this one ends). Code
without the hold lets the other commit in between on PostgreSQL, and a request
acknowledged for a position the move then leaves is ignored by it; each test asserts
that whatever was acknowledged was seen by the move (played, lapsed, or gone), or that it
was refused as the position having changed.
"""

from __future__ import annotations

import asyncio
import random
import threading
import time
from collections.abc import AsyncIterator, Coroutine
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

from bot.db import Database, DeadlineRow, NewTakeback, open_database
from bot.db.deadlines import DeadlineRepository
from bot.db.forecasts import ForecastRepository
from bot.db.takebacks import TakebackRepository
from bot.services import (
    Forecast,
    GameService,
    PlayedMove,
    PositionChanged,
    Takeback,
)
from tests.support.postgres import raw

from .conftest import ALICE, BOB, FakeClock, RecordingEvents, play_all, start_game

#: How long the other request may take to finish or to be seen waiting: far longer than
#: either takes; reaching it means the test's own machinery is broken.
PATIENCE_S = 30.0


class Process:
    """One bot process: its own database connection(s) and service on the shared store."""

    def __init__(self, db: Database, clock: FakeClock) -> None:
        self.db = db
        self.service = GameService(db, clock=clock, events=RecordingEvents(), rng=random.Random(3))


class Meeting:
    """Starts the other process's request from inside this process's transaction, and
    returns once the request has gone as far as that transaction lets it: finished, or
    waiting for it. On PostgreSQL it waits for a lock (`pg_locks`). On SQLite this
    transaction runs whole in the database's thread, so the request is sent to the
    event loop from there, and it waits once it begins its write transaction (seen by a
    trace of its statements): SQLite's one writer lets it through only after this one."""

    def __init__(self, watcher: Any | None) -> None:
        self._watcher = watcher
        self._loop = asyncio.get_running_loop()
        self._writing = threading.Event()
        self._outcome: Future[object] | asyncio.Task[object] | None = None

    @classmethod
    async def on(cls, other: Process, watcher: Any | None) -> Meeting:
        meeting = cls(watcher)
        if watcher is None:

            def traced(sql: str) -> None:
                if sql.startswith("BEGIN IMMEDIATE"):
                    meeting._writing.set()

            connection = other.db._connection  # type: ignore[attr-defined]
            await connection.set_trace_callback(traced)
        return meeting

    async def start(self, request: Coroutine[Any, Any, object]) -> None:
        """Start `request` and return once it finished or waits for this transaction."""
        if self._watcher is None:
            future = asyncio.run_coroutine_threadsafe(request, self._loop)
            self._outcome = future
            deadline = time.monotonic() + PATIENCE_S
            while not (future.done() or self._writing.is_set()):
                if time.monotonic() > deadline:
                    raise AssertionError("the other request neither finished nor waited")
                time.sleep(0.001)
            return
        task = asyncio.create_task(request)
        self._outcome = task
        for _ in range(int(PATIENCE_S / 0.01)):
            if task.done():
                return
            if await self._watcher.fetchval("SELECT count(*) FROM pg_locks WHERE NOT granted"):
                return
            await asyncio.sleep(0.01)
        raise AssertionError("the other request neither finished nor waited for a lock")

    async def outcome(self) -> object:
        """What the other request returned, or the error it raised."""
        assert self._outcome is not None, "the request was never started"
        waiting = (
            asyncio.wrap_future(self._outcome)
            if isinstance(self._outcome, Future)
            else self._outcome
        )
        try:
            return await waiting
        except Exception as error:
            return error


@pytest.fixture
async def two(shared_location: str | Path) -> AsyncIterator[tuple[Process, Process, Any]]:
    """Two processes on one store, and (on PostgreSQL) a connection that sees its locks."""
    clock = FakeClock()
    first = Process(await open_database(shared_location), clock)
    second = Process(await open_database(shared_location), clock)
    watcher = await raw(str(shared_location)) if first.db.backend == "postgresql" else None
    try:
        yield first, second, watcher
    finally:
        if watcher is not None:
            await watcher.close()
        await first.db.close()
        await second.db.close()


async def opened(two: tuple[Process, Process, Any]) -> tuple[Process, Process, Meeting, int]:
    """Alice played 7g7f (in the first process); Bob is to move."""
    first, second, watcher = two
    game = await start_game(first.service)
    await play_all(first.service, game.id, ["7g7f"])
    await second.service.games.get(game.id)  # both processes have looked at the game
    return first, second, await Meeting.on(second, watcher), game.id


async def test_a_line_checked_before_the_move_is_played_by_it(
    two: tuple[Process, Process, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's line has been checked against the game at ply 1 and is about to be
    stored when Bob's move (3c3d, the line's first move) starts in the other process:
    the move must see the line and play Alice's reply, since she is told it is stored."""
    first, second, meeting, game_id = await opened(two)
    store = ForecastRepository.add
    started: list[bool] = []

    async def add(self: ForecastRepository, *args: Any) -> int:
        if not started:
            started.append(True)
            await meeting.start(second.service.moves.play(game_id, BOB.user_id, "3c3d"))
        return await store(self, *args)

    monkeypatch.setattr(ForecastRepository, "add", add)
    added = await first.service.forecasts.add(game_id, ALICE.user_id, "3c3d 2g2f")
    played = await meeting.outcome()
    monkeypatch.undo()
    assert isinstance(added, Forecast) and len(added.lines) == 1
    assert isinstance(played, PlayedMove), played
    assert played.forecast is not None and played.forecast.move.usi == "2g2f"
    view = await first.service.games.get(game_id)
    assert [move.usi() for move in view.game.moves] == ["7g7f", "3c3d", "2g2f"]


async def test_a_line_sent_while_the_move_is_stored_is_refused(
    two: tuple[Process, Process, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's move has been written and has read Alice's lines (none) when her line
    starts in the other process: the line must wait and be refused as the position
    having changed, not be stored for a ply the move has already left."""
    first, second, meeting, game_id = await opened(two)
    set_deadline = DeadlineRepository.set
    started: list[bool] = []

    async def deadline(self: DeadlineRepository, row: DeadlineRow) -> None:
        if not started:  # the move's last writes: its lines were read before
            started.append(True)
            await meeting.start(second.service.forecasts.add(game_id, ALICE.user_id, "8c8d 2g2f"))
        await set_deadline(self, row)

    monkeypatch.setattr(DeadlineRepository, "set", deadline)
    played = await first.service.moves.play(game_id, BOB.user_id, "3c3d")
    added = await meeting.outcome()
    monkeypatch.undo()
    assert played.forecast is None
    assert isinstance(added, PositionChanged), added
    async with first.db.query() as q:
        assert await q.forecasts.for_game(game_id) == []


async def test_lines_cleared_while_the_move_plays_one_are_found_used_up(
    two: tuple[Process, Process, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice clears her lines from the other process just after Bob's matching move read
    them to play her reply: the move, under way first, must end first, and the clear
    find the line used up. Told a line was cleared, Alice must never see it played."""
    first, second, meeting, game_id = await opened(two)
    await first.service.forecasts.add(game_id, ALICE.user_id, "3c3d 2g2f")
    read_lines = ForecastRepository.for_game
    started: list[bool] = []

    async def for_game(self: ForecastRepository, *args: Any) -> Any:
        lines = await read_lines(self, *args)
        if not started:  # the move has read the lines it is about to play
            started.append(True)
            await meeting.start(second.service.forecasts.clear(game_id, ALICE.user_id))
        return lines

    monkeypatch.setattr(ForecastRepository, "for_game", for_game)
    played = await first.service.moves.play(game_id, BOB.user_id, "3c3d")
    cleared = await meeting.outcome()
    monkeypatch.undo()
    assert played.forecast is not None and played.forecast.move.usi == "2g2f"
    assert cleared == 0, cleared


async def test_a_takeback_asked_before_the_move_lapses_with_it(
    two: tuple[Process, Process, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's takeback request has been checked and is about to be stored when Bob's
    move starts in the other process: the move must see it and let it lapse, not leave
    it pending for a position that is gone (unanswerable, and blocking her next one)."""
    first, second, meeting, game_id = await opened(two)
    create = TakebackRepository.create
    started: list[bool] = []

    async def ask(self: TakebackRepository, new: NewTakeback) -> int:
        if not started:
            started.append(True)
            await meeting.start(second.service.moves.play(game_id, BOB.user_id, "3c3d"))
        return await create(self, new)

    monkeypatch.setattr(TakebackRepository, "create", ask)
    asked = await first.service.takebacks.ask(game_id, ALICE.user_id)
    played = await meeting.outcome()
    monkeypatch.undo()
    assert isinstance(asked, Takeback) and isinstance(played, PlayedMove), played
    history = await first.service.takebacks.history(game_id)
    assert [(r.ply, r.status) for r in history] == [(1, "lapsed")]


async def test_a_takeback_asked_while_the_move_is_stored_is_refused(
    two: tuple[Process, Process, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's move has been written and has let pending requests lapse (none) when
    Alice's request starts in the other process: it must wait and be refused, not be
    stored pending for a ply the move has already left."""
    first, second, meeting, game_id = await opened(two)
    set_deadline = DeadlineRepository.set
    started: list[bool] = []

    async def deadline(self: DeadlineRepository, row: DeadlineRow) -> None:
        if not started:
            started.append(True)
            await meeting.start(second.service.takebacks.ask(game_id, ALICE.user_id))
        await set_deadline(self, row)

    monkeypatch.setattr(DeadlineRepository, "set", deadline)
    await first.service.moves.play(game_id, BOB.user_id, "3c3d")
    asked = await meeting.outcome()
    monkeypatch.undo()
    assert isinstance(asked, PositionChanged), asked
    assert await first.service.takebacks.history(game_id) == []
