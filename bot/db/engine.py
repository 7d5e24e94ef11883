"""What the engine leaves in the database: the computer's seat in a game against the bot,
and the evaluations of analysed games (one row per position, kept as each is found, so an
analysis cut short by a restart goes on where it stopped)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .base import Repository


@dataclass(frozen=True, slots=True)
class ComputerRow:
    """The bot plays `user_id`'s seat of `game_id` at `level`."""

    game_id: int
    user_id: int
    level: int


@dataclass(frozen=True, slots=True)
class EvaluationRow:
    """The engine's view of the position after `ply` moves: a score from the side to
    move's view (centipawns, or moves to mate) and the move it would play."""

    game_id: int
    ply: int
    score_cp: int | None
    mate: int | None
    best_usi: str | None


class ComputerRepository(Repository):
    async def add(self, game_id: int, user_id: int, level: int) -> None:
        await self._write(
            "INSERT INTO computer_games (game_id, user_id, level) VALUES (?, ?, ?)",
            (game_id, user_id, level),
        )

    async def get(self, game_id: int) -> ComputerRow | None:
        row = await self._one(
            "SELECT game_id, user_id, level FROM computer_games WHERE game_id = ?", (game_id,)
        )
        return None if row is None else ComputerRow(int(row[0]), int(row[1]), int(row[2]))

    async def waiting(self) -> list[int]:
        """Active games against the computer, for a restart to see whose turn it is."""
        rows = await self._all(
            "SELECT c.game_id FROM computer_games c JOIN games g ON g.id = c.game_id"
            " WHERE g.status = 'active' ORDER BY c.game_id"
        )
        return [int(row[0]) for row in rows]


class AnalysisRepository(Repository):
    async def add(self, rows: Iterable[EvaluationRow]) -> None:
        """Store evaluations; one already there stays (two analyses of one game racing
        find the same thing)."""
        await self._write_many(
            "INSERT OR IGNORE INTO analyses (game_id, ply, score_cp, mate, best_usi)"
            " VALUES (?, ?, ?, ?, ?)",
            [(r.game_id, r.ply, r.score_cp, r.mate, r.best_usi) for r in rows],
        )

    async def of(self, game_id: int) -> list[EvaluationRow]:
        """The game's stored evaluations, by ply."""
        rows = await self._all(
            "SELECT game_id, ply, score_cp, mate, best_usi FROM analyses"
            " WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [EvaluationRow(int(r[0]), int(r[1]), r[2], r[3], r[4]) for r in rows]
