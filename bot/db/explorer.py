"""The explorer's index: the moves of a server's finished games, by the position they were
played from (`bot.services.explorer` computes the rows; this module stores and reads them).

A game is indexed once: `claim` inserts its marker in `explorer_games` and the caller
writes its moves in the same transaction, so of two processes (the one ending the game
and a backfill, or two backfills) exactly one writes them; the other's insert finds the
marker and writes nothing. Lookups are one range scan of an index on (server, position):
of the counts per move (`explorer_tallies`, kept with the moves), or of the moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .base import Repository
from .rows import to_us


@dataclass(frozen=True, slots=True)
class ExplorerMoveRow:
    """One move of a finished game: from `position` (the key's hash), after `ply` plies of
    game `game_id`, with `result` for the side that played it (1 won, 0 drawn, -1 lost)."""

    position: int
    move: str
    game_id: int
    ply: int
    result: int


@dataclass(frozen=True, slots=True)
class MoveTally:
    """How often `move` was played from one position, and how those games ended for the
    side that played it."""

    move: str
    games: int
    wins: int
    draws: int
    losses: int


@dataclass(frozen=True, slots=True)
class PassingGame:
    """A game that passed through a position: the game, where its thread is, and the
    ply it stood there at."""

    game_id: int
    channel_id: int
    thread_id: int | None
    ply: int


class ExplorerRepository(Repository):
    async def claim(self, game_id: int, guild_id: int, at: datetime) -> bool:
        """Mark `game_id` indexed; False if it was already (its moves are then written, or
        being written by another transaction that holds the marker). Write the game's
        moves in this same transaction only when True."""
        return await self._landed(
            "INSERT INTO explorer_games (game_id, guild_id, indexed_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game_id, guild_id, to_us(at)),
        )

    async def add(self, guild_id: int, rows: Sequence[ExplorerMoveRow]) -> None:
        """Store a claimed game's moves, and add them to the counts of their positions.
        The counts are written in one order (by position, then move) whatever the game,
        so two games ending at once on PostgreSQL never wait for each other's rows in
        opposite orders (a deadlock)."""
        await self._write_many(
            "INSERT INTO explorer_moves (guild_id, position, move, game_id, ply, result)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            [(guild_id, r.position, r.move, r.game_id, r.ply, r.result) for r in rows],
        )
        counts: dict[tuple[int, str], list[int]] = {}
        for r in rows:
            count = counts.setdefault((r.position, r.move), [0, 0, 0])
            count[0] += 1
            count[1] += r.result > 0
            count[2] += r.result == 0
        await self._write_many(
            "INSERT INTO explorer_tallies (guild_id, position, move, games, wins, draws)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, position, move) DO UPDATE"
            " SET games = explorer_tallies.games + excluded.games,"
            " wins = explorer_tallies.wins + excluded.wins,"
            " draws = explorer_tallies.draws + excluded.draws",
            [(guild_id, *key, *counts[key]) for key in sorted(counts)],
        )

    async def tally(self, guild_id: int, position: int, *, limit: int) -> list[MoveTally]:
        """The moves played from `position` in the server's indexed games, most often
        first (then by move, so the order is stable), at most `limit`."""
        rows = await self._all(*_tally(guild_id, position, limit))
        return [
            MoveTally(str(r[0]), int(r[1]), int(r[2]), int(r[3]), int(r[1]) - int(r[2]) - int(r[3]))
            for r in rows
        ]

    async def games_at(self, guild_id: int, position: int, *, limit: int) -> list[PassingGame]:
        """The latest games (highest ids) that passed through `position`, at most `limit`,
        each once, at the first ply it stood there."""
        rows = await self._all(*_games_at(guild_id, position, limit))
        return [
            PassingGame(int(r[0]), int(r[1]), None if r[2] is None else int(r[2]), int(r[3]))
            for r in rows
        ]

    async def passed(self, guild_id: int, position: int, move: str) -> tuple[int, int] | None:
        """A game of the server that played `move` from `position`, and the ply it played
        it at (to rebuild the position from); None if none did."""
        row = await self._one(
            "SELECT game_id, ply FROM explorer_moves"
            " WHERE guild_id = ? AND position = ? AND move = ? LIMIT 1",
            (guild_id, position, move),
        )
        return None if row is None else (int(row[0]), int(row[1]))

    async def unindexed(self, guild_id: int, *, limit: int) -> list[int]:
        """Finished games of the server not indexed yet (games that ended before the index
        existed), oldest first, at most `limit`."""
        rows = await self._all(
            "SELECT g.id FROM games g WHERE g.guild_id = ? AND g.status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM explorer_games x WHERE x.game_id = g.id)"
            " ORDER BY g.id LIMIT ?",
            (guild_id, limit),
        )
        return [int(row[0]) for row in rows]

    async def count(self, guild_id: int) -> int:
        """How many of the server's games are indexed."""
        row = await self._one("SELECT COUNT(*) FROM explorer_games WHERE guild_id = ?", (guild_id,))
        return 0 if row is None else int(row[0])

    async def plans(self, guild_id: int, position: int, *, backend: str) -> dict[str, list[str]]:
        """How the database runs the two lookups of an answer, one line a step (`EXPLAIN`):
        for the benchmark, which shows each is a range scan of its index."""
        explain = "EXPLAIN QUERY PLAN" if backend == "sqlite" else "EXPLAIN"
        plans: dict[str, list[str]] = {}
        for name, (sql, params) in {
            "tally": _tally(guild_id, position, 25),
            "games_at": _games_at(guild_id, position, 5),
        }.items():
            for value in params:  # EXPLAIN takes no parameters on PostgreSQL; all integers
                sql = sql.replace("?", str(int(value)), 1)
            plans[name] = [str(row[-1]) for row in await self._all(f"{explain} {sql}")]
        return plans


def _tally(guild_id: int, position: int, limit: int) -> tuple[str, tuple[int, ...]]:
    return (
        "SELECT move, games, wins, draws FROM explorer_tallies"
        " WHERE guild_id = ? AND position = ? ORDER BY games DESC, move LIMIT ?",
        (guild_id, position, limit),
    )


def _games_at(guild_id: int, position: int, limit: int) -> tuple[str, tuple[int, ...]]:
    return (
        "SELECT x.game_id, g.channel_id, g.thread_id, x.ply FROM"
        " (SELECT game_id, MIN(ply) AS ply FROM explorer_moves"
        " WHERE guild_id = ? AND position = ? GROUP BY game_id"
        " ORDER BY game_id DESC LIMIT ?) x"
        " JOIN games g ON g.id = x.game_id ORDER BY x.game_id DESC",
        (guild_id, position, limit),
    )
