"""The moves of games: stored one by one as they are played, removed after a ply by an
accepted takeback (with the banks each kept, which the takeback restores), and read back
in order for a replay.

A move's primary key is its game and ply, so two players racing to store a move at the
same ply never both succeed: the second is a `Conflict`.
"""

from __future__ import annotations

from datetime import timedelta

from .base import Repository
from .rows import (
    MoveRow,
    duration_us_or_none,
    from_duration_us,
    from_duration_us_or_none,
    from_us,
    to_us,
)


class MoveRepository(Repository):
    async def insert(self, move: MoveRow) -> None:
        """Store a move; `Conflict` if that ply of that game is already taken."""
        await self._write(
            "INSERT INTO moves (game_id, ply, usi, player_id, played_at, sente_bank_us,"
            " gote_bank_us) VALUES (?, ?, ?, ?, ?, ?, ?)",
            (
                move.game_id,
                move.ply,
                move.usi,
                move.player_id,
                to_us(move.played_at),
                duration_us_or_none(move.sente_bank),
                duration_us_or_none(move.gote_bank),
            ),
        )

    async def delete_after(self, game_id: int, ply: int) -> int:
        """Remove the moves after `ply` (an accepted takeback); how many went."""
        return await self._write("DELETE FROM moves WHERE game_id = ? AND ply > ?", (game_id, ply))

    async def banks_after(self, game_id: int, ply: int) -> tuple[timedelta, timedelta] | None:
        """Sente's and gote's banks once move `ply` was played, if they were kept."""
        row = await self._one(
            "SELECT sente_bank_us, gote_bank_us FROM moves WHERE game_id = ? AND ply = ?",
            (game_id, ply),
        )
        if row is None or row[0] is None or row[1] is None:
            return None
        return from_duration_us(row[0]), from_duration_us(row[1])

    async def usi_list(self, game_id: int) -> list[str]:
        """The game's moves in order, as USI: all a replay needs."""
        rows = await self._all("SELECT usi FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [row[0] for row in rows]

    async def for_game(self, game_id: int) -> list[MoveRow]:
        rows = await self._all(
            "SELECT game_id, ply, usi, player_id, played_at, sente_bank_us, gote_bank_us"
            " FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [
            MoveRow(
                r[0],
                r[1],
                r[2],
                r[3],
                from_us(r[4]),
                from_duration_us_or_none(r[5]),
                from_duration_us_or_none(r[6]),
            )
            for r in rows
        ]
