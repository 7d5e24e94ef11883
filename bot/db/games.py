"""Games: reading them by id, thread, player and turn, and every change of a game's row.

Every write that depends on what the writer last saw is conditional
(`WHERE ply = ? AND status = 'active'`) and reports whether it landed, so two
coroutines or two processes racing on one game never both succeed: the loser
finds zero rows changed (or a primary-key clash on the move) and starts over.
A game's moves are in `moves`, its running deadline in `deadlines`; the shape of
a game row in `game_rows`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from .base import Repository
from .game_rows import (
    DUE_PAST_VACATION,
    GAME_COLUMNS,
    INSERT_GAME,
    TO_MOVE,
    game_row,
    insert_params,
)
from .rows import BulkGame, GameAdvance, GameRewind, GameRow, NewGame, duration_us, to_us

#: The game's clock has started (it does not wait for the game's first post).
_CLOCK_RUNS = "g.clock_waits = 0"


class GameRepository(Repository):
    async def create(self, new: NewGame) -> int:
        """A new active game at ply 0, both banks full, the first player's clock running
        (or, with `new.clock_waits`, waiting for the game's first post)."""
        row = await self._one(INSERT_GAME, insert_params(new))
        assert row is not None
        return int(row[0])

    async def get(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} WHERE g.id = ?", (game_id,))
        return None if row is None else game_row(row)

    async def hold(self, game_id: int) -> bool:
        """Hold the game's row until this write transaction ends, for a write that
        depends on the game's position without changing the row (a forecast line, a
        takeback request, clearing one's lines): a move, takeback or ending of the game
        updates the row before it reads or lapses what was stored for the position, so
        it waits for this transaction and then sees its writes, and this one waits for
        any of them under way. Read the row after this to see it as they left it. (On
        SQLite the write transaction holds every row already.) False if there is no
        such game."""
        return bool(await self._hold("SELECT id FROM games WHERE id = ?", (game_id,)))

    async def by_thread(self, thread_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} WHERE g.thread_id = ? ORDER BY g.id DESC LIMIT 1",
            (thread_id,),
        )
        return None if row is None else game_row(row)

    async def active_for(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """A player's active games (in one guild, or everywhere), oldest first."""
        guild_clause = "" if guild_id is None else " AND g.guild_id = ?"
        params: tuple[object, ...] = (user_id, user_id)
        if guild_id is not None:
            params += (guild_id,)
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} WHERE g.status = 'active'"
            f" AND (g.sente_id = ? OR g.gote_id = ?){guild_clause} ORDER BY g.id",
            params,
        )
        return [game_row(row) for row in rows]

    async def to_move_for(self, user_id: int, *, limit: int) -> list[GameRow]:
        """The player's active games, in every server, where it is their move: the nearest
        deadline first (as `deadline_of` puts it, past their vacation), games without one
        last, at most `limit`. Not a game whose clock waits for its first post: no move
        can be made there yet."""
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} WHERE g.status = 'active' AND {TO_MOVE} AND {_CLOCK_RUNS}"
            f" ORDER BY (d.due_at IS NULL), {DUE_PAST_VACATION}, g.id LIMIT ?",
            (user_id, user_id, limit),
        )
        return [game_row(row) for row in rows]

    async def count_to_move(self, user_id: int) -> int:
        """How many active games, in every server, wait for the player's move (as
        `to_move_for` counts them)."""
        row = await self._one(
            f"SELECT COUNT(*) FROM games g WHERE g.status = 'active' AND {TO_MOVE}"
            f" AND {_CLOCK_RUNS}",
            (user_id, user_id),
        )
        return 0 if row is None else int(row[0])

    async def finished_for(
        self, user_id: int, guild_id: int, *, limit: int, offset: int = 0
    ) -> list[GameRow]:
        """A player's finished games in one guild, the most recently finished first."""
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} WHERE g.status = 'finished'"
            " AND (g.sente_id = ? OR g.gote_id = ?) AND g.guild_id = ?"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (user_id, user_id, guild_id, limit, offset),
        )
        return [game_row(row) for row in rows]

    async def count_for(self, user_id: int, guild_id: int, status: str) -> int:
        """How many games with `status` a player has in one guild."""
        row = await self._one(
            "SELECT COUNT(*) FROM games WHERE status = ? AND guild_id = ?"
            " AND (sente_id = ? OR gote_id = ?)",
            (status, guild_id, user_id, user_id),
        )
        return 0 if row is None else int(row[0])

    async def set_thread(self, game_id: int, thread_id: int | None) -> bool:
        sql = "UPDATE games SET thread_id = ? WHERE id = ?"
        return await self._landed(sql, (thread_id, game_id))

    async def start_clock(self, game_id: int, at: datetime) -> bool:
        """Start the clock of an active game that waits for its first post: its start and
        its first turn's are `at`. False if it was not waiting (started already, by this
        process or another, or never waited): so a clock starts once and never restarts."""
        return await self._landed(
            "UPDATE games SET clock_waits = 0, started_at = ?, turn_started_at = ?"
            " WHERE id = ? AND clock_waits = 1 AND status = 'active'",
            (to_us(at), to_us(at), game_id),
        )

    async def move_thread(self, game_id: int, old_thread_id: int, new_thread_id: int) -> bool:
        """Point an active game at a new thread, only if it still names `old_thread_id`:
        of two processes re-homing the same game, one lands."""
        sql = "UPDATE games SET thread_id = ? WHERE id = ? AND thread_id = ? AND status = 'active'"
        return await self._landed(sql, (new_thread_id, game_id, old_thread_id))

    async def set_message(self, game_id: int, message_id: int | None) -> bool:
        sql = "UPDATE games SET message_id = ? WHERE id = ?"
        return await self._landed(sql, (message_id, game_id))

    async def advance(self, change: GameAdvance) -> bool:
        """Record a move on the game row, only if it is still active at `expected_ply`.
        A pending count proposal lapses with the move."""
        finished = change.termination is not None
        return await self._landed(
            "UPDATE games SET ply = ply + 1, sfen = ?, sente_bank_us = ?, gote_bank_us = ?,"
            " turn_started_at = ?, count_proposed_by = NULL, status = ?, termination = ?,"
            " winner = ?, finished_at = ? WHERE id = ? AND ply = ? AND status = 'active'",
            (
                change.sfen,
                duration_us(change.sente_bank),
                duration_us(change.gote_bank),
                to_us(change.turn_started_at),
                "finished" if finished else "active",
                change.termination,
                change.winner,
                to_us(change.turn_started_at) if finished else None,
                change.game_id,
                change.expected_ply,
            ),
        )

    async def rewind(self, change: GameRewind) -> bool:
        """Take the game back to an earlier ply (an accepted takeback), only if it is still
        active at `expected_ply`. A pending count proposal lapses, as with a move."""
        return await self._landed(
            "UPDATE games SET ply = ?, sfen = ?, sente_bank_us = ?, gote_bank_us = ?,"
            " turn_started_at = ?, count_proposed_by = NULL"
            " WHERE id = ? AND ply = ? AND status = 'active'",
            (
                change.ply,
                change.sfen,
                duration_us(change.sente_bank),
                duration_us(change.gote_bank),
                to_us(change.turn_started_at),
                change.game_id,
                change.expected_ply,
            ),
        )

    async def finish(
        self,
        game_id: int,
        *,
        termination: str,
        winner: str | None,
        at: datetime,
        expected_ply: int | None = None,
    ) -> bool:
        """End an active game (resignation, time, abort, impasse). With `expected_ply`,
        only if no move landed since the caller looked; False if someone got there first."""
        sql = (
            "UPDATE games SET status = 'finished', termination = ?, winner = ?,"
            " finished_at = ?, count_proposed_by = NULL WHERE id = ? AND status = 'active'"
        )
        params: tuple[object, ...] = (termination, winner, to_us(at), game_id)
        if expected_ply is not None:
            sql += " AND ply = ?"
            params += (expected_ply,)
        return await self._landed(sql, params)

    async def mark_end_announced(self, game_id: int, at: datetime) -> bool:
        """Note that the game's ending is posted; False if it was already (or is not over)."""
        return await self._landed(
            "UPDATE games SET end_announced_at = ?"
            " WHERE id = ? AND status = 'finished' AND end_announced_at IS NULL",
            (to_us(at), game_id),
        )

    async def count_active(self) -> int:
        """How many games are being played."""
        row = await self._one("SELECT COUNT(*) FROM games WHERE status = 'active'")
        return 0 if row is None else int(row[0])

    async def set_count_proposal(self, game_id: int, color: str | None, expected_ply: int) -> bool:
        return await self._landed(
            "UPDATE games SET count_proposed_by = ? WHERE id = ? AND ply = ? AND status = 'active'",
            (color, game_id, expected_ply),
        )

    async def restart_clock(
        self,
        game_id: int,
        expected_ply: int,
        *,
        sente_bank: timedelta,
        gote_bank: timedelta,
        turn_started_at: datetime,
    ) -> bool:
        """Rewrite the clock state without a move (giving time, a vacation's end); never
        of a game whose clock waits for its first post (`start_clock` starts it)."""
        return await self._landed(
            "UPDATE games SET sente_bank_us = ?, gote_bank_us = ?, turn_started_at = ?"
            " WHERE id = ? AND ply = ? AND status = 'active' AND clock_waits = 0",
            (
                duration_us(sente_bank),
                duration_us(gote_bank),
                to_us(turn_started_at),
                game_id,
                expected_ply,
            ),
        )

    async def repair_position(self, game_id: int, old_ply: int, ply: int, sfen: str) -> bool:
        """Overwrite the cached ply and position with what the move list gives."""
        sql = "UPDATE games SET ply = ?, sfen = ? WHERE id = ? AND ply = ?"
        return await self._landed(sql, (ply, sfen, game_id, old_ply))

    async def count(self, status: str | None = None) -> int:
        if status is None:
            row = await self._one("SELECT COUNT(*) FROM games")
        else:
            row = await self._one("SELECT COUNT(*) FROM games WHERE status = ?", (status,))
        return 0 if row is None else int(row[0])

    async def recently_active(self, limit: int) -> list[int]:
        """Active games, the most recently moved first (what to load first after a start)."""
        rows = await self._all(
            "SELECT id FROM games WHERE status = 'active' ORDER BY turn_started_at DESC, id"
            " LIMIT ?",
            (limit,),
        )
        return [int(row[0]) for row in rows]

    async def ids(self, status: str) -> list[int]:
        rows = await self._all("SELECT id FROM games WHERE status = ? ORDER BY id", (status,))
        return [int(row[0]) for row in rows]

    async def bulk_insert(self, games: Sequence[BulkGame]) -> list[int]:
        """Store whole games at once (benchmarks, imports); returns their ids in order.
        The banks are stored full: bulk games are meant to have per-move periods only."""
        ids: list[int] = []
        moves: list[tuple[object, ...]] = []
        deadlines: list[tuple[object, ...]] = []
        for bulk in games:
            params = insert_params(
                bulk.game,
                ply=len(bulk.moves),
                sfen=bulk.sfen,
                turn_started_at=bulk.turn_started_at,
                termination=bulk.termination,
                winner=bulk.winner,
            )
            row = await self._one(INSERT_GAME, params)
            assert row is not None
            game_id = int(row[0])
            ids.append(game_id)
            moves.extend(
                (game_id, m.ply, m.usi, m.player_id, to_us(m.played_at)) for m in bulk.moves
            )
            if bulk.deadline is not None:
                d = bulk.deadline
                deadlines.append((game_id, d.player_id, to_us(d.due_at), to_us(d.remind_at)))
        await self._write_many(
            "INSERT INTO moves (game_id, ply, usi, player_id, played_at) VALUES (?, ?, ?, ?, ?)",
            moves,
        )
        await self._write_many(
            "INSERT INTO deadlines (game_id, player_id, due_at, remind_at) VALUES (?, ?, ?, ?)",
            deadlines,
        )
        return ids
