"""Openings and castles named in each game (`rules.openings`): stored once per side and
name by the move that made it clear, and the games named to their end.

A name is written with `ON CONFLICT DO NOTHING` and reported only where it landed, so of
two processes naming one game, one announces each name.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from .base import Repository
from .rows import to_us


@dataclass(frozen=True, slots=True)
class NamedOpening:
    """`name_id` (an id of `data/openings.toml`) became clear for `color` (0 sente, 1
    gote) at `ply`."""

    color: int
    name_id: str
    ply: int


@dataclass(frozen=True, slots=True)
class OpeningTally:
    """How a member's games went where they played `name_id`."""

    name_id: str
    won: int
    lost: int
    drawn: int


class OpeningRepository(Repository):
    async def add(self, game_id: int, names: Iterable[NamedOpening]) -> list[NamedOpening]:
        """Store the names; those that were not stored already, which the caller announces."""
        landed = []
        for name in names:
            if await self._landed(
                "INSERT INTO game_openings (game_id, color, name_id, ply) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (game_id, color, name_id) DO NOTHING",
                (game_id, name.color, name.name_id, name.ply),
            ):
                landed.append(name)
        return landed

    async def forget_after(self, game_id: int, ply: int) -> int:
        """Drop the names that became clear after `ply` (moves taken back); how many."""
        return await self._write(
            "DELETE FROM game_openings WHERE game_id = ? AND ply > ?", (game_id, ply)
        )

    async def of_games(self, game_ids: Sequence[int]) -> dict[int, list[NamedOpening]]:
        """The names of each game (none for a game without), in the order they became clear."""
        found: dict[int, list[NamedOpening]] = {game_id: [] for game_id in game_ids}
        if not game_ids:
            return found
        marks = ", ".join("?" * len(game_ids))
        rows = await self._all(
            "SELECT game_id, color, name_id, ply FROM game_openings"
            f" WHERE game_id IN ({marks}) ORDER BY game_id, ply, color, name_id",
            tuple(game_ids),
        )
        for game_id, color, name_id, ply in rows:
            found[int(game_id)].append(NamedOpening(int(color), str(name_id), int(ply)))
        return found

    async def mark_named(self, game_id: int, at: datetime) -> None:
        """Remember that a finished game was named to its end."""
        await self._write(
            "INSERT INTO named_games (game_id, named_at) VALUES (?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game_id, to_us(at)),
        )

    async def unnamed_finished(
        self, *, limit: int, guild_id: int | None = None, user_id: int | None = None
    ) -> list[int]:
        """Finished games not yet named to their end (the oldest first), at most `limit`,
        of one server and one player when given."""
        where = ["g.status = 'finished'", "n.game_id IS NULL"]
        params: list[int] = []
        if guild_id is not None:
            where.append("g.guild_id = ?")
            params.append(guild_id)
        if user_id is not None:
            where.append("(g.sente_id = ? OR g.gote_id = ?)")
            params += [user_id, user_id]
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN named_games n ON n.game_id = g.id"
            f" WHERE {' AND '.join(where)} ORDER BY g.id LIMIT ?",
            (*params, limit),
        )
        return [int(row[0]) for row in rows]

    async def unnamed_among(self, game_ids: Sequence[int]) -> list[int]:
        """Of these games, the finished ones not yet named to their end."""
        if not game_ids:
            return []
        marks = ", ".join("?" * len(game_ids))
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN named_games n ON n.game_id = g.id"
            f" WHERE g.id IN ({marks}) AND g.status = 'finished' AND n.game_id IS NULL"
            " ORDER BY g.id",
            tuple(game_ids),
        )
        return [int(row[0]) for row in rows]

    async def tallies(self, guild_id: int, user_id: int) -> list[OpeningTally]:
        """Per name a member's side had in their finished games in a server (aborted ones
        left out): won, lost, drawn."""
        rows = await self._all(
            "SELECT o.name_id,"
            " COUNT(*) FILTER (WHERE g.winner ="
            " CASE WHEN o.color = 0 THEN 'sente' ELSE 'gote' END),"
            " COUNT(*) FILTER (WHERE g.winner ="
            " CASE WHEN o.color = 0 THEN 'gote' ELSE 'sente' END),"
            " COUNT(*) FILTER (WHERE g.winner IS NULL)"
            " FROM game_openings o JOIN games g ON g.id = o.game_id"
            " WHERE g.guild_id = ? AND g.status = 'finished' AND g.termination <> 'abort'"
            " AND ((o.color = 0 AND g.sente_id = ?) OR (o.color = 1 AND g.gote_id = ?))"
            " GROUP BY o.name_id",
            (guild_id, user_id, user_id),
        )
        return [OpeningTally(str(r[0]), int(r[1]), int(r[2]), int(r[3])) for r in rows]
