"""Forecasts (conditional moves): the lines a player stored for the opponent's next move.

A line belongs to one player of one game and holds from one ply: its moves alternate the
opponent's move and the player's reply, starting with the opponent's move at `ply + 1`.
The service reads, shortens and deletes them inside the transaction that stores a move,
so every change here is a plain statement; which lines still hold is the service's
decision (the rules are not known here).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import from_us, to_us, usi_moves, usi_text

_COLUMNS = "id, game_id, player_id, ply, moves, created_at FROM forecasts"


@dataclass(frozen=True, slots=True)
class ForecastRow:
    """One stored line: its moves as USI, the opponent's first, from the game's `ply`."""

    id: int
    game_id: int
    player_id: int
    ply: int
    moves: tuple[str, ...]
    created_at: datetime


def _forecast(row: Row) -> ForecastRow:
    return ForecastRow(row[0], row[1], row[2], row[3], usi_moves(row[4]), from_us(row[5]))


class ForecastRepository(Repository):
    async def add(
        self, game_id: int, player_id: int, ply: int, moves: Sequence[str], at: datetime
    ) -> int:
        """Store a line; its id."""
        row = await self._one(
            "INSERT INTO forecasts (game_id, player_id, ply, moves, created_at)"
            " VALUES (?, ?, ?, ?, ?) RETURNING id",
            (game_id, player_id, ply, usi_text(moves), to_us(at)),
        )
        assert row is not None
        return int(row[0])

    async def for_game(self, game_id: int, player_id: int | None = None) -> list[ForecastRow]:
        """The game's lines (one player's, with `player_id`), oldest first."""
        if player_id is None:
            rows = await self._all(f"SELECT {_COLUMNS} WHERE game_id = ? ORDER BY id", (game_id,))
        else:
            rows = await self._all(
                f"SELECT {_COLUMNS} WHERE game_id = ? AND player_id = ? ORDER BY id",
                (game_id, player_id),
            )
        return [_forecast(row) for row in rows]

    async def any_for(self, game_id: int, player_id: int) -> bool:
        """Whether the player has any line in the game (the cheap question every move asks)."""
        row = await self._one(
            "SELECT 1 FROM forecasts WHERE game_id = ? AND player_id = ? LIMIT 1",
            (game_id, player_id),
        )
        return row is not None

    async def shorten(self, forecast_id: int, ply: int, moves: Sequence[str]) -> bool:
        """What is left of a line once two of its moves were played, from `ply`."""
        return await self._landed(
            "UPDATE forecasts SET ply = ?, moves = ? WHERE id = ?",
            (ply, usi_text(moves), forecast_id),
        )

    async def delete(self, forecast_ids: Sequence[int]) -> int:
        """Drop these lines; how many went."""
        if not forecast_ids:
            return 0
        marks = ", ".join("?" * len(forecast_ids))
        return await self._write(f"DELETE FROM forecasts WHERE id IN ({marks})", forecast_ids)

    async def clear(self, game_id: int, player_id: int | None = None) -> int:
        """Drop the game's lines (one player's, with `player_id`); how many went."""
        if player_id is None:
            return await self._write("DELETE FROM forecasts WHERE game_id = ?", (game_id,))
        return await self._write(
            "DELETE FROM forecasts WHERE game_id = ? AND player_id = ?", (game_id, player_id)
        )
