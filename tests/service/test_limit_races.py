"""Limits that many requests at the same instant cannot overrun: notes per member per
game and forecast lines per player per game. Each is a count and a write in one
transaction, which SQLite's one writer keeps whole; on PostgreSQL (READ COMMITTED, one
connection per transaction) two counts could both see the room for one more, so the
count runs under a lock on the member's notes, or on the game's row for lines. The
requests here go through the service all at once, on a pool of connections on
PostgreSQL."""

from __future__ import annotations

import asyncio

from bot.db import Database
from bot.services import MAX_NOTES, Forecast, ForecastRefused, GameService, Note, NoteRefused
from bot.services.play.forecasts import MAX_LINES

from .conftest import ALICE, BOB, play_all, start_game

#: Requests sent at once: more than the room left, and more than a pool's connections.
AT_ONCE = 16
#: The room left under the limit when they are sent: one, so that any two of them
#: counting at the same time would overrun it.
ROOM = 1
#: Games the race is run in, each with its own limit to fill.
ROUNDS = 4


async def test_notes_sent_at_once_stop_exactly_at_the_limit(
    service: GameService, db: Database
) -> None:
    for _ in range(ROUNDS):
        game = await start_game(service)
        for i in range(MAX_NOTES - ROOM):
            await service.notes.add(game.id, ALICE.user_id, f"note {i}")
        results = await asyncio.gather(
            *(service.notes.add(game.id, ALICE.user_id, f"now {i}") for i in range(AT_ONCE)),
            return_exceptions=True,
        )
        landed = [r for r in results if isinstance(r, Note)]
        refused = [r for r in results if isinstance(r, NoteRefused)]
        assert (len(landed), len(refused)) == (ROOM, AT_ONCE - ROOM), results
        async with db.query() as q:
            assert await q.notes.count(game.id, ALICE.user_id) == MAX_NOTES
    # Another member's notes on the game are counted apart, and still find room.
    await service.notes.add(game.id, BOB.user_id, "mine")


async def test_forecast_lines_sent_at_once_stop_exactly_at_the_limit(
    service: GameService, db: Database
) -> None:
    for _ in range(ROUNDS):
        game = await start_game(service)
        view = await play_all(service, game.id, ["7g7f"])
        # Lines that part at the opponent's first move: none covers or replaces another.
        lines = [f"{move.usi()} 2g2f" for move in view.game.game.position.legal_moves()]
        assert len(lines) >= MAX_LINES - ROOM + AT_ONCE
        for line in lines[: MAX_LINES - ROOM]:
            await service.forecasts.add(game.id, ALICE.user_id, line)
        results = await asyncio.gather(
            *(service.forecasts.add(game.id, ALICE.user_id, line) for line in lines[-AT_ONCE:]),
            return_exceptions=True,
        )
        landed = [r for r in results if isinstance(r, Forecast)]
        refused = [r for r in results if isinstance(r, ForecastRefused)]
        assert (len(landed), len(refused)) == (ROOM, AT_ONCE - ROOM), results
        async with db.query() as q:
            assert len(await q.forecasts.for_game(game.id, ALICE.user_id)) == MAX_LINES
