"""Ratings per server, their history, and what a member's profile counts of their games.

`ratings` is the current state only; `rating_history` is the truth it can be rebuilt
from: one entry per rated game and player, read back in the order the games were rated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import from_us, to_us


@dataclass(frozen=True, slots=True)
class RatingRow:
    """A member's current rating in one server, after `games` rated games, the last one
    rated at `rated_at`."""

    guild_id: int
    user_id: int
    rating: float
    deviation: float
    volatility: float
    games: int
    rated_at: datetime


@dataclass(frozen=True, slots=True)
class RankedRow:
    """A leaderboard line: the rating and the member's name as last seen."""

    rating: RatingRow
    name: str


@dataclass(frozen=True, slots=True)
class RatingEntry:
    """One player's side of one rated game: the score (1, 0.5, 0) against whom, and the
    rating before the game (as stored, before any idle-time widening) and after it."""

    guild_id: int
    game_id: int
    user_id: int
    opponent_id: int
    score: float
    rated_at: datetime
    rating_before: float
    deviation_before: float
    volatility_before: float
    rating: float
    deviation: float
    volatility: float


@dataclass(frozen=True, slots=True)
class GameCounts:
    """A member's games in a server: finished (aborted ones not counted), won, lost,
    drawn, and still under way."""

    played: int
    won: int
    lost: int
    drawn: int
    current: int


def _rating(row: Row) -> RatingRow:
    return RatingRow(row[0], row[1], row[2], row[3], row[4], row[5], from_us(row[6]))


def _entry(row: Row) -> RatingEntry:
    return RatingEntry(row[0], row[1], row[2], row[3], row[4], from_us(row[5]), *row[6:12])


_RATING = "r.guild_id, r.user_id, r.rating, r.deviation, r.volatility, r.games, r.rated_at"
_ENTRY = (
    "guild_id, game_id, user_id, opponent_id, score, rated_at, rating_before,"
    " deviation_before, volatility_before, rating, deviation, volatility"
)
_PUT = (
    "INSERT INTO ratings (guild_id, user_id, rating, deviation, volatility, games, rated_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO UPDATE SET"
    " rating = excluded.rating, deviation = excluded.deviation,"
    " volatility = excluded.volatility, games = excluded.games, rated_at = excluded.rated_at"
)


def _put_params(row: RatingRow) -> tuple[object, ...]:
    return (
        row.guild_id,
        row.user_id,
        row.rating,
        row.deviation,
        row.volatility,
        row.games,
        to_us(row.rated_at),
    )


class RatingRepository(Repository):
    async def get(self, guild_id: int, user_id: int) -> RatingRow | None:
        """The member's rating in the server; None before their first rated game."""
        row = await self._one(
            f"SELECT {_RATING} FROM ratings r WHERE r.guild_id = ? AND r.user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else _rating(row)

    async def lock(self, guild_id: int, user_ids: Sequence[int]) -> None:
        """Keep other transactions from rating these members in this server until this
        one ends: a rating is read, computed on and written back, and two games ending
        at once for one member must not both start from the same rating. The server's
        key is taken first, shared (endings of other members go on meanwhile), so that
        a rebuild of the server's ratings (`lock_server`) waits for this one."""
        await self._statements.lock([f"ratings:{guild_id}"], shared=True)
        await self._statements.lock(f"rating:{guild_id}:{user_id}" for user_id in user_ids)

    async def lock_server(self, guild_id: int) -> None:
        """Keep every rating of the server from changing until this transaction ends:
        a rebuild reads the whole history and writes every rating back, and an ending
        rated in between would be overwritten by ratings that never saw it."""
        await self._statements.lock([f"ratings:{guild_id}"])

    async def put(self, row: RatingRow) -> None:
        await self._write(_PUT, _put_params(row))

    async def all(self, guild_id: int) -> list[RatingRow]:
        rows = await self._all(
            f"SELECT {_RATING} FROM ratings r WHERE r.guild_id = ? ORDER BY r.user_id",
            (guild_id,),
        )
        return [_rating(row) for row in rows]

    async def replace_all(self, guild_id: int, rows: Sequence[RatingRow]) -> None:
        """Make `rows` the server's ratings, dropping any others."""
        await self._write("DELETE FROM ratings WHERE guild_id = ?", (guild_id,))
        await self._write_many(_PUT, [_put_params(row) for row in rows])

    async def top(self, guild_id: int, limit: int) -> list[RankedRow]:
        """The server's highest ratings, best first (ties: the earlier rated first)."""
        rows = await self._all(
            f"SELECT {_RATING}, p.name FROM ratings r JOIN players p ON p.user_id = r.user_id"
            " WHERE r.guild_id = ? ORDER BY r.rating DESC, r.rated_at, r.user_id LIMIT ?",
            (guild_id, limit),
        )
        return [RankedRow(_rating(row), row[7]) for row in rows]

    async def above(self, guild_id: int, rating: float) -> int:
        """How many members of the server are rated higher than `rating`."""
        row = await self._one(
            "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND rating > ?", (guild_id, rating)
        )
        return 0 if row is None else int(row[0])

    async def record(self, entry: RatingEntry) -> None:
        """Add a game to the history; `Conflict` if that player's game was rated already."""
        await self._write(
            f"INSERT INTO rating_history ({_ENTRY}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                entry.guild_id,
                entry.game_id,
                entry.user_id,
                entry.opponent_id,
                entry.score,
                to_us(entry.rated_at),
                entry.rating_before,
                entry.deviation_before,
                entry.volatility_before,
                entry.rating,
                entry.deviation,
                entry.volatility,
            ),
        )

    async def history(self, guild_id: int, user_id: int | None = None) -> list[RatingEntry]:
        """The server's history (or one member's), in the order the games were rated."""
        if user_id is None:
            sql = f"SELECT {_ENTRY} FROM rating_history WHERE guild_id = ? ORDER BY id"
            rows = await self._all(sql, (guild_id,))
        else:
            rows = await self._all(
                f"SELECT {_ENTRY} FROM rating_history WHERE guild_id = ? AND user_id = ?"
                " ORDER BY id",
                (guild_id, user_id),
            )
        return [_entry(row) for row in rows]

    async def lengths(self, guild_id: int) -> dict[int, int]:
        """How many moves each game of the server's history had, by game id."""
        rows = await self._all(
            "SELECT id, ply FROM games WHERE id IN"
            " (SELECT game_id FROM rating_history WHERE guild_id = ?)",
            (guild_id,),
        )
        return {int(game_id): int(ply) for game_id, ply in rows}

    async def of_game(self, game_id: int) -> list[RatingEntry]:
        """How the game changed its players' ratings (nothing: it was not rated)."""
        rows = await self._all(
            f"SELECT {_ENTRY} FROM rating_history WHERE game_id = ? ORDER BY id", (game_id,)
        )
        return [_entry(row) for row in rows]


class ProfileRepository(Repository):
    """What a profile counts of a member's games in a server."""

    async def counts(self, guild_id: int, user_id: int) -> GameCounts:
        row = await self._one(
            # COUNT ... FILTER, not SUM of a comparison: PostgreSQL sums no booleans.
            "SELECT"
            " COUNT(*) FILTER (WHERE status = 'finished' AND termination <> 'abort'),"
            " COUNT(*) FILTER (WHERE winner = CASE WHEN sente_id = ? THEN 'sente' ELSE 'gote' END),"
            " COUNT(*) FILTER (WHERE winner = CASE WHEN sente_id = ? THEN 'gote' ELSE 'sente' END),"
            " COUNT(*) FILTER (WHERE status = 'finished' AND winner IS NULL"
            " AND termination <> 'abort'),"
            " COUNT(*) FILTER (WHERE status = 'active')"
            " FROM games WHERE guild_id = ? AND (sente_id = ? OR gote_id = ?)",
            (user_id, user_id, guild_id, user_id, user_id),
        )
        assert row is not None
        return GameCounts(*(int(value) for value in row))

    async def openings(
        self, guild_id: int, user_id: int, start_sfen: str, plies: int
    ) -> list[tuple[str, ...]]:
        """The first `plies` moves (USI) of each of the member's games in the server that
        began from `start_sfen` and got that far, oldest game first."""
        rows = await self._all(
            "SELECT m.game_id, m.usi FROM games g JOIN moves m ON m.game_id = g.id"
            " WHERE g.guild_id = ? AND (g.sente_id = ? OR g.gote_id = ?) AND g.start_sfen = ?"
            " AND g.ply >= ? AND m.ply <= ? ORDER BY m.game_id, m.ply",
            (guild_id, user_id, user_id, start_sfen, plies, plies),
        )
        games: dict[int, list[str]] = {}
        for game_id, usi in rows:
            games.setdefault(game_id, []).append(usi)
        return [tuple(moves) for moves in games.values()]
