"""Tournaments: the tournament's row, its entrants, its scheduled games and a server's
tournament settings.

Every write that decides something once is conditional and says whether it landed: the
start (`WHERE state = 'registration'`), a game created for a scheduled row (`WHERE
game_id IS NULL`), a result mirrored (`WHERE result IS NULL`, in the transaction that
ends the game), a result acted on (`WHERE settled = 0`). A scheduled game's place
(tournament, round, group, board, attempt) is unique, so two processes pairing the same
next round or replay clash (`Conflict`) instead of both writing it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime

from .base import Repository
from .rows import from_us_or_none, to_us
from .shards import ShardScope, scope_sql
from .terms import TERMS_COLUMNS, terms_params
from .tournament_rows import (
    ENTRANT,
    SCHEDULED,
    TOURNAMENT,
    EntrantRow,
    NewScheduledGame,
    NewTournament,
    ScheduledGameRow,
    TournamentRow,
    entrant_of,
    scheduled_of,
    tournament_of,
)


class TournamentRepository(Repository):
    # ----------------------------------------------------------------- tournaments

    async def create(self, new: NewTournament) -> int:
        return await self._insert(
            "INSERT INTO tournaments (guild_id, channel_id, name, format, group_size,"
            f" match_games, {TERMS_COLUMNS}, win_points, draw_points, loss_points, start_at,"
            " registration_closes_at, max_players, min_rating, max_rating, handicap_table,"
            " organizer_id, created_at, state) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
            " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'registration') RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.name,
                new.format,
                new.group_size,
                new.match_games,
                *terms_params(new.terms),
                *new.scoring,
                to_us(new.start_at),
                to_us(new.registration_closes_at),
                new.max_players,
                new.min_rating,
                new.max_rating,
                new.handicap_table,
                new.organizer_id,
                to_us(new.created_at),
            ),
        )

    async def get(self, tournament_id: int) -> TournamentRow | None:
        row = await self._one(f"SELECT {TOURNAMENT} WHERE t.id = ?", (tournament_id,))
        return None if row is None else tournament_of(row)

    async def hold(self, tournament_id: int) -> TournamentRow | None:
        """The tournament, its row held until this write transaction ends: whatever
        changes a tournament (an entrant, the start, acting on a result) holds it first,
        so those of one tournament take turns across processes."""
        rows = await self._hold(f"SELECT {TOURNAMENT} WHERE t.id = ?", (tournament_id,))
        return tournament_of(rows[0]) if rows else None

    async def in_guild(self, guild_id: int, states: Sequence[str]) -> list[TournamentRow]:
        marks = ", ".join("?" * len(states))
        rows = await self._all(
            f"SELECT {TOURNAMENT} WHERE t.guild_id = ? AND t.state IN ({marks}) ORDER BY t.id",
            (guild_id, *states),
        )
        return [tournament_of(row) for row in rows]

    async def latest_in_guild(self, guild_id: int, state: str, limit: int) -> list[TournamentRow]:
        """The server's newest `limit` tournaments in one state, newest first: read along
        the index on (server, state) and stopped at `limit`, however many the server has."""
        rows = await self._all(
            f"SELECT {TOURNAMENT} WHERE t.guild_id = ? AND t.state = ? ORDER BY t.id DESC LIMIT ?",
            (guild_id, state, limit),
        )
        return [tournament_of(row) for row in rows]

    async def change_state(self, tournament_id: int, before: str, after: str, at: datetime) -> bool:
        """Move the tournament from state `before` to `after` at `at` (the start time of
        a running one, the end of a finished or cancelled one); False if it was not in
        `before` any more."""
        moment = "started_at" if after == "running" else "finished_at"
        return await self._landed(
            f"UPDATE tournaments SET state = ?, {moment} = ? WHERE id = ? AND state = ?",
            (after, to_us(at), tournament_id, before),
        )

    async def set_message(self, tournament_id: int, message_id: int | None) -> bool:
        """Remember the announcement message (standings are edited into it)."""
        return await self._landed(
            "UPDATE tournaments SET message_id = ? WHERE id = ?", (message_id, tournament_id)
        )

    async def due(self, now: datetime, scope: ShardScope | None = None) -> list[int]:
        """Tournaments still in registration whose start time has come (of `scope`)."""
        clause, params = scope_sql(scope, "guild_id")
        rows = await self._all(
            "SELECT id FROM tournaments WHERE state = 'registration' AND start_at <= ?"
            + clause
            + " ORDER BY start_at, id",
            (to_us(now), *params),
        )
        return [row[0] for row in rows]

    async def next_start(self, scope: ShardScope | None = None) -> datetime | None:
        clause, params = scope_sql(scope, "guild_id")
        row = await self._one(
            "SELECT MIN(start_at) FROM tournaments WHERE state = 'registration'" + clause,
            params,
        )
        return None if row is None else from_us_or_none(row[0])

    # ----------------------------------------------------------------- entrants

    async def join(self, tournament_id: int, user_id: int, at: datetime) -> None:
        """Enter a member (a second entry is a `Conflict`)."""
        await self._write(
            "INSERT INTO tournament_entrants (tournament_id, user_id, joined_at) VALUES (?, ?, ?)",
            (tournament_id, user_id, to_us(at)),
        )

    async def leave(self, tournament_id: int, user_id: int) -> bool:
        return await self._landed(
            "DELETE FROM tournament_entrants WHERE tournament_id = ? AND user_id = ?",
            (tournament_id, user_id),
        )

    async def entrants(self, tournament_id: int) -> list[EntrantRow]:
        """The entrants in the order they joined (by seed once seeded)."""
        rows = await self._all(
            f"SELECT {ENTRANT} WHERE tournament_id = ? ORDER BY seed, joined_at, user_id",
            (tournament_id,),
        )
        return [entrant_of(row) for row in rows]

    async def count_entrants(self, tournament_id: int) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM tournament_entrants WHERE tournament_id = ?", (tournament_id,)
        )
        return 0 if row is None else int(row[0])

    async def seed(self, tournament_id: int, seeds: Sequence[tuple[int, float, int, int]]) -> None:
        """Store each entrant's (user id, rating, seed, group) at the start."""
        await self._write_many(
            "UPDATE tournament_entrants SET rating = ?, seed = ?, group_number = ?"
            " WHERE tournament_id = ? AND user_id = ?",
            [(rating, seed, group, tournament_id, user) for user, rating, seed, group in seeds],
        )

    async def withdraw(self, tournament_id: int, user_id: int, at: datetime) -> bool:
        """Mark an entrant withdrawn at `at`; False if they were not playing on."""
        return await self._landed(
            "UPDATE tournament_entrants SET withdrawn_at = ?"
            " WHERE tournament_id = ? AND user_id = ? AND withdrawn_at IS NULL",
            (to_us(at), tournament_id, user_id),
        )

    # ----------------------------------------------------------------- scheduled games

    async def schedule(self, games: Sequence[NewScheduledGame]) -> None:
        """Store scheduled games (without their games yet); a place taken is a `Conflict`."""
        await self._write_many(
            "INSERT INTO tournament_games (tournament_id, round, group_number, board, attempt,"
            " sente_id, gote_id, handicap, replay_of) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    g.tournament_id,
                    g.round,
                    g.group_number,
                    g.board,
                    g.attempt,
                    g.sente_id,
                    g.gote_id,
                    g.handicap,
                    g.replay_of,
                )
                for g in games
            ],
        )

    async def scheduled(self, tournament_id: int) -> list[ScheduledGameRow]:
        """Every scheduled game of the tournament, in schedule order."""
        rows = await self._all(
            f"SELECT {SCHEDULED} WHERE s.tournament_id = ?"
            " ORDER BY s.round, s.group_number, s.board, s.attempt",
            (tournament_id,),
        )
        return [scheduled_of(row) for row in rows]

    async def of_game(self, game_id: int) -> ScheduledGameRow | None:
        """The scheduled game a game was created for, if it is a tournament's."""
        row = await self._one(f"SELECT {SCHEDULED} WHERE s.game_id = ?", (game_id,))
        return None if row is None else scheduled_of(row)

    async def awaiting_first_post(
        self,
        limit: int,
        scope: ShardScope | None = None,
        *,
        skip_guilds: Collection[int] = (),
    ) -> list[tuple[int, int]]:
        """Up to `limit` event games still being played that wait for their thread and
        first post (their clock waits with them), as (game id, server id): the games of
        running tournaments and of team matches under way (of `scope`, leaving out the
        servers `skip_guilds`), just created, or whose process stopped before it opened
        them. A game that got no thread and was posted in its channel instead has its clock
        started, so it is not posted again after a restart. The servers take turns,
        each oldest first (every server's first game, then every server's second, ...), so
        that one server's thousand games hold up no other server's few."""
        clause, params = scope_sql(scope, "g.guild_id")
        if skip_guilds:
            clause += f" AND g.guild_id NOT IN ({', '.join('?' * len(skip_guilds))})"
            params = (*params, *skip_guilds)
        waiting = " AND g.status = 'active' AND g.clock_waits = 1" + clause
        rows = await self._all(
            "SELECT id, guild_id FROM (SELECT w.id, w.guild_id, ROW_NUMBER() OVER"
            " (PARTITION BY w.guild_id ORDER BY w.id) AS turn FROM ("
            "SELECT g.id AS id, g.guild_id AS guild_id FROM tournament_games s"
            " JOIN games g ON g.id = s.game_id JOIN tournaments t ON t.id = s.tournament_id"
            " WHERE t.state = 'running'" + waiting + " UNION ALL"
            " SELECT g.id AS id, g.guild_id AS guild_id FROM team_match_games s"
            " JOIN games g ON g.id = s.game_id JOIN team_matches m ON m.id = s.match_id"
            " WHERE m.state = 'running'" + waiting + ") w) r ORDER BY turn, id LIMIT ?",
            (*params, *params, limit),
        )
        return [(row[0], row[1]) for row in rows]

    async def waiting(self, guild_id: int, limit: int) -> list[ScheduledGameRow]:
        """Up to `limit` scheduled games of the server's running tournaments that have no
        game yet and no withdrawn player, the earliest tournament's earliest round first."""
        rows = await self._all(
            f"SELECT {SCHEDULED} JOIN tournaments t ON t.id = s.tournament_id"
            " WHERE t.guild_id = ? AND t.state = 'running' AND s.game_id IS NULL"
            " AND s.result IS NULL AND NOT EXISTS (SELECT 1 FROM tournament_entrants e"
            " WHERE e.tournament_id = s.tournament_id AND e.withdrawn_at IS NOT NULL"
            " AND e.user_id IN (s.sente_id, s.gote_id))"
            " ORDER BY s.tournament_id, s.round, s.group_number, s.board, s.attempt LIMIT ?",
            (guild_id, limit),
        )
        return [scheduled_of(row) for row in rows]

    async def lock_server(self, guild_id: int) -> None:
        """Hold the server's tournament games until this write transaction ends: those
        that count and create them take turns (on SQLite the write lock does it)."""
        await self._statements.lock([f"tournament-games:{guild_id}"])

    async def count_under_way(self, guild_id: int) -> int:
        """The server's event games created and not yet ended: its tournaments' and its
        team matches' (each has a thread the bot opened, under the same cap)."""
        row = await self._one(
            "SELECT (SELECT COUNT(*) FROM tournament_games s JOIN tournaments t"
            " ON t.id = s.tournament_id WHERE t.guild_id = ? AND s.game_id IS NOT NULL"
            " AND s.result IS NULL) + (SELECT COUNT(*) FROM team_match_games s"
            " JOIN team_matches m ON m.id = s.match_id WHERE m.guild_id = ?"
            " AND s.game_id IS NOT NULL AND s.result IS NULL)",
            (guild_id, guild_id),
        )
        return 0 if row is None else int(row[0])

    async def set_game(self, scheduled_id: int, game_id: int) -> bool:
        """Tie the game created for a scheduled game to it, once."""
        return await self._landed(
            "UPDATE tournament_games SET game_id = ? WHERE id = ? AND game_id IS NULL",
            (game_id, scheduled_id),
        )

    async def mirror_result(self, game_id: int, result: str) -> bool:
        """In the transaction that ends game `game_id`: its result (sente, gote, draw or
        void) on its scheduled game, if it is a tournament's; True if it is."""
        return await self._landed(
            "UPDATE tournament_games SET result = ? WHERE game_id = ? AND result IS NULL",
            (result, game_id),
        )

    async def settle(self, scheduled_id: int) -> bool:
        """Note that the tournament acted on this game's result; False if it had."""
        return await self._landed(
            "UPDATE tournament_games SET settled = 1"
            " WHERE id = ? AND settled = 0 AND result IS NOT NULL",
            (scheduled_id,),
        )

    async def with_results_unsettled(self, scope: ShardScope | None = None) -> list[int]:
        """Running tournaments with a result not acted on yet (of `scope`)."""
        clause, params = scope_sql(scope, "t.guild_id")
        rows = await self._all(
            "SELECT DISTINCT s.tournament_id FROM tournament_games s JOIN tournaments t"
            " ON t.id = s.tournament_id WHERE s.result IS NOT NULL AND s.settled = 0"
            " AND t.state = 'running'" + clause + " ORDER BY s.tournament_id",
            params,
        )
        return [row[0] for row in rows]

    # ----------------------------------------------------------------- settings

    async def settings(self, guild_id: int) -> tuple[int | None, int | None]:
        """The server's organizer role and cap on tournament games under way (None: not
        chosen)."""
        row = await self._one(
            "SELECT organizer_role_id, game_cap FROM tournament_settings WHERE guild_id = ?",
            (guild_id,),
        )
        return (None, None) if row is None else (row[0], row[1])

    async def set_organizer_role(self, guild_id: int, role_id: int | None) -> None:
        await self._write(
            "INSERT INTO tournament_settings (guild_id, organizer_role_id) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET organizer_role_id = excluded.organizer_role_id",
            (guild_id, role_id),
        )

    async def set_game_cap(self, guild_id: int, cap: int | None) -> None:
        await self._write(
            "INSERT INTO tournament_settings (guild_id, game_cap) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET game_cap = excluded.game_cap",
            (guild_id, cap),
        )
