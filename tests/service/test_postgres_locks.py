"""The reads that decide a write no conditional update guards, on PostgreSQL: a rebuild
of a server's ratings against a rated ending, and a vacation's start reading what is
left of the allowance against the end of the vacation before it. Each test puts the
other transaction at the worst moment, on a connection of its own: after the first
transaction read and before it wrote. The code holds a lock there, so the other must
wait for it (seen in the server's `pg_locks`); code without it lets the other commit
in between, and the first then writes from what it read before, which the test sees.
SQLite needs no such test: its one writer never lets two write transactions overlap."""

from __future__ import annotations

import asyncio
import random
from datetime import datetime, timedelta
from typing import Any

import pytest

from bot.db import RatingEntry, VacationRow, open_database
from bot.db.ratings import RatingRepository
from bot.db.vacations import VacationRepository
from bot.services import GameService, GameSnapshot, VacationChange, VacationRefused
from bot.services.clock.vacations import ALLOWANCE
from tests.support.postgres import raw

from .conftest import ALICE, BOB, GUILD, FakeClock, RecordingEvents, play_all, start_game

pytestmark = pytest.mark.postgres


async def ended_or_waiting(other: asyncio.Task[Any], watcher: Any) -> None:
    """Return once `other` is done, or waits for an advisory lock (as the `watcher`
    connection sees the server's locks): whichever comes first shows what the code under
    test lets happen."""
    for _ in range(1000):
        if other.done():
            return
        waiting = await watcher.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"
        )
        if waiting:
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the other transaction neither finished nor waited for a lock")


async def test_a_rebuild_of_ratings_racing_a_rated_ending_keeps_the_ending(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game ends after the rebuild read the history and before it wrote the ratings
    back: the ending must wait for the rebuild (and then rate from what it stored), or
    the rebuild would write ratings that never saw the ending over the ending's."""
    db = await open_database(postgres_url)
    service = GameService(db, clock=FakeClock(), events=RecordingEvents(), rng=random.Random(5))
    watcher = await raw(postgres_url)
    try:
        for _ in range(3):  # ratings to rebuild, and rows the ending updates
            earlier = await start_game(service, challenger=ALICE, opponent=BOB)
            await play_all(service, earlier.id, ["7g7f", "3c3d"])  # played by both: rated
            await service.endings.resign(earlier.id, BOB.user_id)
        game = await start_game(service, challenger=ALICE, opponent=BOB)
        await play_all(service, game.id, ["7g7f", "3c3d"])
        read_history = RatingRepository.history
        endings: list[asyncio.Task[GameSnapshot]] = []

        async def history(
            self: RatingRepository, guild_id: int, user_id: int | None = None
        ) -> list[RatingEntry]:
            entries = await read_history(self, guild_id, user_id)
            if not endings:  # the rebuild has read: the game ends now
                endings.append(asyncio.create_task(service.endings.resign(game.id, BOB.user_id)))
                await ended_or_waiting(endings[0], watcher)
            return entries

        monkeypatch.setattr(RatingRepository, "history", history)
        assert await service.ratings.rebuild(GUILD) == 2
        await endings[0]
        monkeypatch.undo()
        async with db.query() as q:
            stored = {row.user_id: row for row in await q.ratings.all(GUILD)}
        assert stored[ALICE.user_id].games == 4
        assert await service.ratings.recompute(GUILD) == stored
    finally:
        await watcher.close()
        await db.close()


async def test_a_vacation_starting_as_the_last_one_ends_counts_the_last_one(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's vacation of three days ends (her `/vacation end`) while she starts one
    again from another window, just after the start summed her ended vacations (the
    running one not among them) and before it looked for the one under way (gone by
    then): counted in neither, the three days would be given again."""
    clock = FakeClock()
    db = await open_database(postgres_url)
    service = GameService(db, clock=clock, events=RecordingEvents(), rng=random.Random(6))
    watcher = await raw(postgres_url)
    try:
        await service.vacations.start(ALICE.user_id)
        clock.advance(days=3)
        read_past = VacationRepository.started_between
        endings: list[asyncio.Task[VacationChange]] = []

        async def started_between(
            self: VacationRepository, user_id: int, since: datetime, until: datetime
        ) -> list[VacationRow]:
            past = await read_past(self, user_id, since, until)
            if not endings:  # the start has summed the year's vacations: the last one ends
                endings.append(asyncio.create_task(service.vacations.end(ALICE.user_id)))
                await ended_or_waiting(endings[0], watcher)
            return past

        monkeypatch.setattr(VacationRepository, "started_between", started_between)
        with pytest.raises(VacationRefused, match="already on vacation"):
            await service.vacations.start(ALICE.user_id)
        await endings[0]
        monkeypatch.undo()
        status = await service.vacations.status(ALICE.user_id)
        assert (status.used, status.current) == (timedelta(days=3), None)
        again = await service.vacations.start(ALICE.user_id)  # what is left, and no more
        assert again.vacation.ends_by == clock.now + ALLOWANCE - timedelta(days=3)
    finally:
        await watcher.close()
        await db.close()
