"""Ratings: a member's rating, the server's leaderboard, what a game changed, profiles.

The ratings themselves change only where games end (`rated.rate_ending`, inside the
ending's transaction); this part reads them, and can rebuild a server's ratings from
their history alone (`recompute`, `rebuild`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from datetime import datetime

from bot.db import GameCounts, RatingEntry, RatingRow, Session
from rules import Game, Handicap, Position

from ..play.game import MoveText, RatingChange
from ..play.snapshots import moves_written
from ..play.store import GameStore
from .glicko2 import Rating, aged
from .rated import change_of, glicko, replay

#: Lines of `/leaderboard`.
LEADERBOARD_SIZE = 15
#: How many first plies name an opening on a profile, and how many openings it shows.
OPENING_PLIES = 2
OPENINGS_SHOWN = 3


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A member's rating in a server now (its deviation widened by the time since their
    last rated game), after `games` rated games, and their place on the leaderboard
    (None before their first rated game: they hold the starting rating)."""

    user_id: int
    rating: Rating
    games: int
    rank: int | None


@dataclass(frozen=True, slots=True)
class LeaderboardLine:
    """One line of the leaderboard."""

    rank: int
    user_id: int
    name: str
    rating: Rating
    games: int


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A point of a rating's history, for a profile's chart: the rating before the first
    rated game (at that game's end), or after one."""

    at: datetime
    rating: float


@dataclass(frozen=True, slots=True)
class Opening:
    """A member's games that began with these moves, and how many they were."""

    moves: tuple[MoveText, ...]
    count: int


@dataclass(frozen=True, slots=True)
class Profile:
    """A member's profile in a server: their games, rating, its history (the rating they
    started from, then after each rated game; empty before their first), their openings."""

    user_id: int
    games: GameCounts
    rating: PlayerRating
    history: tuple[RatingPoint, ...]
    openings: tuple[Opening, ...]


def _opening(usi: tuple[str, ...]) -> tuple[MoveText, ...]:
    return moves_written(Game(Position.initial(), usi), 0, len(usi))


def _history(entries: list[RatingEntry]) -> tuple[RatingPoint, ...]:
    if not entries:
        return ()
    start = RatingPoint(entries[0].rated_at, entries[0].rating_before)
    return (start, *(RatingPoint(entry.rated_at, entry.rating) for entry in entries))


class Ratings:
    """Ratings per server, read; rebuilt from their history on request."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    def _now_rating(self, row: RatingRow) -> Rating:
        return aged(glicko(row), self._store.now() - row.rated_at)

    async def of(self, guild_id: int, user_id: int) -> PlayerRating:
        """The member's rating in the server now.

        Example: `(await ratings.of(1, alice.user_id)).rating.points` is 1500 at first.
        """

        async def read(tx: Session) -> tuple[RatingRow | None, int]:
            row = await tx.ratings.get(guild_id, user_id)
            return row, 0 if row is None else await tx.ratings.above(guild_id, row.rating)

        row, above = await self._store.db.run(read, write=False)
        if row is None:
            return PlayerRating(user_id, glicko(None), 0, None)
        return PlayerRating(user_id, self._now_rating(row), row.games, above + 1)

    async def leaderboard(
        self, guild_id: int, limit: int = LEADERBOARD_SIZE
    ) -> list[LeaderboardLine]:
        """The server's best ratings, best first; provisional ones included (marked by
        the Discord layer), since a young club has few settled players."""
        async with self._store.db.query() as q:
            rows = await q.ratings.top(guild_id, limit)
        return [
            LeaderboardLine(
                rank, r.rating.user_id, r.name, self._now_rating(r.rating), r.rating.games
            )
            for rank, r in enumerate(rows, start=1)
        ]

    async def changes(self, game_id: int) -> tuple[RatingChange, ...]:
        """How the game changed its players' ratings; empty when it was not rated."""
        async with self._store.db.query() as q:
            entries = await q.ratings.of_game(game_id)
        return tuple(change_of(entry) for entry in entries)

    async def recompute(self, guild_id: int) -> dict[int, RatingRow]:
        """The server's ratings computed again from their history alone, by user id."""

        async def read(tx: Session) -> dict[int, RatingRow]:
            return replay(await tx.ratings.history(guild_id), await tx.ratings.lengths(guild_id))

        return await self._store.db.run(read, write=False)

    async def rebuild(self, guild_id: int) -> int:
        """Replace the server's ratings by those its history gives (after repairing the
        table by hand, say); how many members have one."""

        async def work(tx: Session) -> int:
            # Endings wait until the rebuild is stored, and it reads every ending stored
            # before it: none is lost between its reading and its writing.
            await tx.ratings.lock_server(guild_id)
            rebuilt = replay(await tx.ratings.history(guild_id), await tx.ratings.lengths(guild_id))
            await tx.ratings.replace_all(guild_id, list(rebuilt.values()))
            return len(rebuilt)

        return await self._store.db.run(work)

    async def profile(self, guild_id: int, user_id: int) -> Profile:
        """The member's games, rating, rating history and favourite openings (the first
        moves of their even games, the most played first)."""

        async def read(tx: Session) -> tuple[GameCounts, list[RatingEntry], list[tuple[str, ...]]]:
            return (
                await tx.profiles.counts(guild_id, user_id),
                await tx.ratings.history(guild_id, user_id),
                await tx.profiles.openings(guild_id, user_id, Handicap.EVEN.sfen, OPENING_PLIES),
            )

        counts, history, firsts = await self._store.db.run(read, write=False)
        ranked = Counter(firsts).most_common(OPENINGS_SHOWN)
        return Profile(
            user_id=user_id,
            games=counts,
            rating=await self.of(guild_id, user_id),
            history=_history(history),
            openings=tuple(Opening(_opening(usi), count) for usi, count in ranked),
        )
