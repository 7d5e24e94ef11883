"""Takeback requests: asked, then accepted, declined, or lapsed.

A request is pending until its game's opponent answers it, or until a move or the end of
the game makes it lapse. Every change of status is conditional on the request still being
pending, so an answer lands once however many presses race, and the partial unique index
keeps one pending request per game (a second one racing in is a `Conflict`).
"""

from __future__ import annotations

from datetime import datetime

from .base import Repository, Row
from .rows import NewTakeback, TakebackRow, from_us, from_us_or_none, to_us, usi_moves, usi_text

_COLUMNS = (
    "id, game_id, asked_by, ply, plies, moves, status, requested_at, answered_at FROM takebacks"
)


def _takeback(row: Row) -> TakebackRow:
    moves, requested, answered = usi_moves(row[5]), from_us(row[7]), from_us_or_none(row[8])
    return TakebackRow(row[0], row[1], row[2], row[3], row[4], moves, row[6], requested, answered)


class TakebackRepository(Repository):
    async def create(self, new: NewTakeback) -> int:
        """Store a pending request; `Conflict` if the game already has one pending."""
        return await self._insert(
            "INSERT INTO takebacks (game_id, asked_by, ply, plies, moves, status,"
            " requested_at) VALUES (?, ?, ?, ?, ?, 'pending', ?) RETURNING id",
            (
                new.game_id,
                new.asked_by,
                new.ply,
                new.plies,
                usi_text(new.moves),
                to_us(new.requested_at),
            ),
        )

    async def get(self, takeback_id: int) -> TakebackRow | None:
        row = await self._one(f"SELECT {_COLUMNS} WHERE id = ?", (takeback_id,))
        return None if row is None else _takeback(row)

    async def pending(self, game_id: int) -> TakebackRow | None:
        """The game's request still waiting for an answer, if any."""
        row = await self._one(
            f"SELECT {_COLUMNS} WHERE game_id = ? AND status = 'pending'", (game_id,)
        )
        return None if row is None else _takeback(row)

    async def answer(self, takeback_id: int, status: str, at: datetime) -> bool:
        """Accept or decline a pending request; False if it was no longer pending."""
        return await self._landed(
            "UPDATE takebacks SET status = ?, answered_at = ? WHERE id = ? AND status = 'pending'",
            (status, to_us(at), takeback_id),
        )

    async def lapse(self, game_id: int, at: datetime) -> int:
        """The game's pending request lapses (a move was played, or the game ended);
        how many did (0 or 1)."""
        return await self._write(
            "UPDATE takebacks SET status = 'lapsed', answered_at = ?"
            " WHERE game_id = ? AND status = 'pending'",
            (to_us(at), game_id),
        )

    async def for_game(self, game_id: int) -> list[TakebackRow]:
        """Every request of a game, oldest first: its takeback history."""
        rows = await self._all(f"SELECT {_COLUMNS} WHERE game_id = ? ORDER BY id", (game_id,))
        return [_takeback(row) for row in rows]
