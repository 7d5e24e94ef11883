"""Team matches: the match's row, its players with their team and board, and its games.

As a tournament's (`bot.db.tournaments`), every write that decides something once is
conditional and says whether it landed: a game tied to its board (`WHERE game_id IS
NULL`), a result mirrored (`WHERE result IS NULL`, in the transaction that ends the game),
a result acted on (`WHERE settled = 0`), the end (`WHERE state = 'running'`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import Terms, from_us, from_us_or_none, to_us
from .terms import TERMS_COLUMNS, TERMS_WIDTH, terms_columns, terms_of, terms_params


@dataclass(frozen=True, slots=True)
class NewTeamMatch:
    """A match as its organizer set it up: where, the two teams' names, its games' terms."""

    guild_id: int
    channel_id: int
    first_team: str
    second_team: str
    terms: Terms
    organizer_id: int
    created_at: datetime


@dataclass(frozen=True, slots=True)
class TeamMatchRow:
    """A stored match: as set up, its id, state (running, finished), announcement, end."""

    id: int
    setup: NewTeamMatch
    state: str
    message_id: int | None
    finished_at: datetime | None


@dataclass(frozen=True, slots=True)
class TeamPlayerRow:
    """A player entered: their team (first, second), the rating they were lined up by and
    their board (None: they sit out)."""

    user_id: int
    side: str
    rating: float
    board: int | None


@dataclass(frozen=True, slots=True)
class TeamGameRow:
    """One game of a board: its board and number (1, 2), players, game once created,
    result once mirrored (sente, gote, draw, void) and whether the match acted on it."""

    id: int
    match_id: int
    board: int
    game_number: int
    sente_id: int
    gote_id: int
    game_id: int | None
    result: str | None
    settled: bool


_MATCH = (
    "m.id, m.guild_id, m.channel_id, m.first_team, m.second_team, "
    + terms_columns("m")
    + ", m.organizer_id, m.created_at, m.state, m.message_id, m.finished_at FROM team_matches m"
)
_GAME = (
    "id, match_id, board, game_number, sente_id, gote_id, game_id, result, settled"
    " FROM team_match_games"
)


def _match_of(row: Row) -> TeamMatchRow:
    after = 5 + TERMS_WIDTH
    organizer, created, state, message_id, finished = row[after : after + 5]
    setup = NewTeamMatch(
        row[1], row[2], row[3], row[4], terms_of(row, 5), organizer, from_us(created)
    )
    return TeamMatchRow(row[0], setup, state, message_id, from_us_or_none(finished))


def _game_of(row: Row) -> TeamGameRow:
    game_id, match_id, board, number, sente_id, gote_id, played, result, settled = row[:9]
    return TeamGameRow(
        game_id, match_id, board, number, sente_id, gote_id, played, result, bool(settled)
    )


class TeamMatchRepository(Repository):
    async def create(self, new: NewTeamMatch, players: Sequence[TeamPlayerRow]) -> int:
        match_id = await self._insert(
            "INSERT INTO team_matches (guild_id, channel_id, first_team, second_team,"
            f" {TERMS_COLUMNS}, organizer_id, created_at, state) VALUES (?, ?, ?, ?, ?, ?, ?,"
            " ?, ?, ?, ?, ?, 'running') RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.first_team,
                new.second_team,
                *terms_params(new.terms),
                new.organizer_id,
                to_us(new.created_at),
            ),
        )
        await self._write_many(
            "INSERT INTO team_match_players (match_id, user_id, side, rating, board)"
            " VALUES (?, ?, ?, ?, ?)",
            [(match_id, p.user_id, p.side, p.rating, p.board) for p in players],
        )
        return match_id

    async def get(self, match_id: int) -> TeamMatchRow | None:
        row = await self._one(f"SELECT {_MATCH} WHERE m.id = ?", (match_id,))
        return None if row is None else _match_of(row)

    async def hold(self, match_id: int) -> TeamMatchRow | None:
        """The match, its row held until this write transaction ends: acting on results
        holds it first, so two processes take turns."""
        rows = await self._hold(f"SELECT {_MATCH} WHERE m.id = ?", (match_id,))
        return _match_of(rows[0]) if rows else None

    async def players(self, match_id: int) -> list[TeamPlayerRow]:
        rows = await self._all(
            "SELECT user_id, side, rating, board FROM team_match_players WHERE match_id = ?"
            " ORDER BY side, board, rating DESC, user_id",
            (match_id,),
        )
        return [TeamPlayerRow(*row) for row in rows]

    async def player(self, match_id: int, user_id: int) -> TeamPlayerRow | None:
        """The member's place in the match, if they play in it."""
        row = await self._one(
            "SELECT user_id, side, rating, board FROM team_match_players"
            " WHERE match_id = ? AND user_id = ?",
            (match_id, user_id),
        )
        return None if row is None else TeamPlayerRow(*row)

    async def latest_in_guild(self, guild_id: int, state: str, limit: int) -> list[TeamMatchRow]:
        """The server's newest `limit` matches in one state, newest first: read along the
        index on (server, state) and stopped at `limit`, however many the server has."""
        rows = await self._all(
            f"SELECT {_MATCH} WHERE m.guild_id = ? AND m.state = ? ORDER BY m.id DESC LIMIT ?",
            (guild_id, state, limit),
        )
        return [_match_of(row) for row in rows]

    async def add_game(
        self, match_id: int, board: int, game_number: int, sente_id: int, gote_id: int, game_id: int
    ) -> None:
        await self._write(
            "INSERT INTO team_match_games (match_id, board, game_number, sente_id, gote_id,"
            " game_id) VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, board, game_number, sente_id, gote_id, game_id),
        )

    async def games(self, match_id: int) -> list[TeamGameRow]:
        rows = await self._all(
            f"SELECT {_GAME} WHERE match_id = ? ORDER BY game_number, board", (match_id,)
        )
        return [_game_of(row) for row in rows]

    async def of_game(self, game_id: int) -> TeamGameRow | None:
        row = await self._one(f"SELECT {_GAME} WHERE game_id = ?", (game_id,))
        return None if row is None else _game_of(row)

    async def mirror_result(self, game_id: int, result: str) -> bool:
        """In the transaction that ends game `game_id`: its result on its board's game, if
        it is a team match's; True if it is."""
        return await self._landed(
            "UPDATE team_match_games SET result = ? WHERE game_id = ? AND result IS NULL",
            (result, game_id),
        )

    async def settle(self, team_game_id: int) -> bool:
        """Note that the match acted on this game's result; False if it had."""
        return await self._landed(
            "UPDATE team_match_games SET settled = 1"
            " WHERE id = ? AND settled = 0 AND result IS NOT NULL",
            (team_game_id,),
        )

    async def finish(self, match_id: int, at: datetime) -> bool:
        return await self._landed(
            "UPDATE team_matches SET state = 'finished', finished_at = ?"
            " WHERE id = ? AND state = 'running'",
            (to_us(at), match_id),
        )

    async def set_message(self, match_id: int, message_id: int | None) -> bool:
        """Remember the announcement message (the scoreboard is edited into it)."""
        return await self._landed(
            "UPDATE team_matches SET message_id = ? WHERE id = ?", (message_id, match_id)
        )

    async def count_running(self, guild_id: int) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM team_matches WHERE guild_id = ? AND state = 'running'",
            (guild_id,),
        )
        return 0 if row is None else int(row[0])
