"""Games, their moves, and the running deadlines.

Every write that depends on what the writer last saw is conditional
(`WHERE ply = ? AND status = 'active'`) and reports whether it landed, so two
coroutines or two processes racing on one game never both succeed: the loser
finds zero rows changed (or a primary-key clash on the move) and starts over.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from .base import Repository, Row
from .rows import (
    AwayRow,
    BulkGame,
    DeadlineRow,
    GameAdvance,
    GameRewind,
    GameRow,
    MoveRow,
    NewGame,
    PlayerRow,
    duration_us,
    from_duration_us,
    from_us,
    to_us,
)
from .shards import ShardScope, scope_sql

_GAME_COLUMNS = """
    g.id, g.guild_id, g.channel_id, g.thread_id, g.message_id,
    g.sente_id, s.name, s.is_bot, g.gote_id, o.name, o.is_bot,
    g.handicap, g.start_sfen, g.bank_us, g.period_us, g.impasse_rule,
    g.status, g.termination, g.winner, g.ply, g.sfen, g.sente_bank_us, g.gote_bank_us,
    g.turn_started_at, g.count_proposed_by, g.started_at, g.finished_at,
    d.player_id, d.due_at, d.remind_at, d.reminded_at, g.takebacks,
    vs.started_at, vs.ends_by, vo.started_at, vo.ends_by, g.rated
FROM games g
JOIN players s ON s.user_id = g.sente_id
JOIN players o ON o.user_id = g.gote_id
LEFT JOIN deadlines d ON d.game_id = g.id
LEFT JOIN vacations vs ON vs.user_id = g.sente_id AND vs.ended_at IS NULL
LEFT JOIN vacations vo ON vo.user_id = g.gote_id AND vo.ended_at IS NULL
"""


#: Gote is to move: an SFEN's second field is `b` or `w`, and no other field holds a `w`
#: (the board has no spaces, the hand is piece letters and digits, then the move number).
_GOTE_TO_MOVE = "g.sfen LIKE '% w %'"
#: The game waits for the player given twice as parameters.
_TO_MOVE = f"((g.sente_id = ? AND NOT {_GOTE_TO_MOVE}) OR (g.gote_id = ? AND {_GOTE_TO_MOVE}))"
#: The vacation under way of the player to move, and where their clock stopped for it.
_AWAY_START = f"(CASE WHEN {_GOTE_TO_MOVE} THEN vo.started_at ELSE vs.started_at END)"
_AWAY_END = f"(CASE WHEN {_GOTE_TO_MOVE} THEN vo.ends_by ELSE vs.ends_by END)"
_PAUSED_FROM = (
    f"(CASE WHEN {_AWAY_START} > g.turn_started_at THEN {_AWAY_START} ELSE g.turn_started_at END)"
)
#: The running deadline as `loading.deadline_of` computes it: moved past the vacation of
#: the player to move by the time their clock stands still, unless it had passed before
#: the vacation began.
_DUE_PAST_VACATION = (
    f"(d.due_at + CASE WHEN {_AWAY_START} IS NULL OR d.due_at <= {_AWAY_START}"
    f" OR {_AWAY_END} <= {_PAUSED_FROM} THEN 0 ELSE {_AWAY_END} - {_PAUSED_FROM} END)"
)


def _away(started: int | None, ends_by: int | None) -> AwayRow | None:
    if started is None or ends_by is None:
        return None
    return AwayRow(from_us(started), from_us(ends_by))


def _game(row: Row) -> GameRow:
    deadline = None
    if row[27] is not None:
        deadline = DeadlineRow(
            game_id=row[0],
            player_id=row[27],
            due_at=from_us(row[28]),
            remind_at=from_us(row[29]),
            reminded_at=None if row[30] is None else from_us(row[30]),
        )
    return GameRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        thread_id=row[3],
        message_id=row[4],
        sente=PlayerRow(row[5], row[6], bool(row[7])),
        gote=PlayerRow(row[8], row[9], bool(row[10])),
        handicap=row[11],
        start_sfen=row[12],
        bank=from_duration_us(row[13]),
        period=None if row[14] is None else from_duration_us(row[14]),
        impasse_rule=row[15],
        status=row[16],
        termination=row[17],
        winner=row[18],
        ply=row[19],
        sfen=row[20],
        sente_bank=from_duration_us(row[21]),
        gote_bank=from_duration_us(row[22]),
        turn_started_at=from_us(row[23]),
        count_proposed_by=row[24],
        started_at=from_us(row[25]),
        finished_at=None if row[26] is None else from_us(row[26]),
        deadline=deadline,
        takebacks=row[31],
        sente_away=_away(row[32], row[33]),
        gote_away=_away(row[34], row[35]),
        rated=bool(row[36]),
    )


_INSERT_GAME = (
    "INSERT INTO games (guild_id, channel_id, sente_id, gote_id, handicap, start_sfen,"
    " bank_us, period_us, impasse_rule, status, termination, winner, ply, sfen,"
    " sente_bank_us, gote_bank_us, turn_started_at, started_at, finished_at, takebacks, rated)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id"
)


def _insert_params(
    new: NewGame,
    *,
    ply: int = 0,
    sfen: str | None = None,
    turn_started_at: datetime | None = None,
    termination: str | None = None,
    winner: str | None = None,
) -> tuple[object, ...]:
    bank = duration_us(new.bank)
    turn_started = to_us(turn_started_at or new.started_at)
    return (
        new.guild_id,
        new.channel_id,
        new.sente_id,
        new.gote_id,
        new.handicap,
        new.start_sfen,
        bank,
        None if new.period is None else duration_us(new.period),
        new.impasse_rule,
        "active" if termination is None else "finished",
        termination,
        winner,
        ply,
        sfen or new.start_sfen,
        bank,
        bank,
        turn_started,
        to_us(new.started_at),
        None if termination is None else turn_started,
        new.takebacks,
        int(new.rated),
    )


class GameRepository(Repository):
    async def create(self, new: NewGame) -> int:
        """A new active game at ply 0, both banks full, the first player's clock running."""
        row = await self._one(_INSERT_GAME, _insert_params(new))
        assert row is not None
        return int(row[0])

    async def get(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} WHERE g.id = ?", (game_id,))
        return None if row is None else _game(row)

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
            f"SELECT {_GAME_COLUMNS} WHERE g.thread_id = ? ORDER BY g.id DESC LIMIT 1",
            (thread_id,),
        )
        return None if row is None else _game(row)

    async def active_for(self, user_id: int, guild_id: int | None = None) -> list[GameRow]:
        """A player's active games (in one guild, or everywhere), oldest first."""
        guild_clause = "" if guild_id is None else " AND g.guild_id = ?"
        params: tuple[object, ...] = (user_id, user_id)
        if guild_id is not None:
            params += (guild_id,)
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} WHERE g.status = 'active'"
            f" AND (g.sente_id = ? OR g.gote_id = ?){guild_clause} ORDER BY g.id",
            params,
        )
        return [_game(row) for row in rows]

    async def to_move_for(self, user_id: int, *, limit: int) -> list[GameRow]:
        """The player's active games, in every server, where it is their move: the nearest
        deadline first (as `deadline_of` puts it, past their vacation), games without one
        last, at most `limit`."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} WHERE g.status = 'active' AND {_TO_MOVE}"
            f" ORDER BY (d.due_at IS NULL), {_DUE_PAST_VACATION}, g.id LIMIT ?",
            (user_id, user_id, limit),
        )
        return [_game(row) for row in rows]

    async def count_to_move(self, user_id: int) -> int:
        """How many active games, in every server, wait for the player's move."""
        row = await self._one(
            f"SELECT COUNT(*) FROM games g WHERE g.status = 'active' AND {_TO_MOVE}",
            (user_id, user_id),
        )
        return 0 if row is None else int(row[0])

    async def finished_for(
        self, user_id: int, guild_id: int, *, limit: int, offset: int = 0
    ) -> list[GameRow]:
        """A player's finished games in one guild, the most recently finished first."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} WHERE g.status = 'finished'"
            " AND (g.sente_id = ? OR g.gote_id = ?) AND g.guild_id = ?"
            " ORDER BY g.finished_at DESC, g.id DESC LIMIT ? OFFSET ?",
            (user_id, user_id, guild_id, limit, offset),
        )
        return [_game(row) for row in rows]

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
        return await self._write(sql, (thread_id, game_id)) == 1

    async def set_message(self, game_id: int, message_id: int | None) -> bool:
        sql = "UPDATE games SET message_id = ? WHERE id = ?"
        return await self._write(sql, (message_id, game_id)) == 1

    async def advance(self, change: GameAdvance) -> bool:
        """Record a move on the game row, only if it is still active at `expected_ply`.
        A pending count proposal lapses with the move."""
        finished = change.termination is not None
        return (
            await self._write(
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
            == 1
        )

    async def rewind(self, change: GameRewind) -> bool:
        """Take the game back to an earlier ply (an accepted takeback), only if it is still
        active at `expected_ply`. A pending count proposal lapses, as with a move."""
        return (
            await self._write(
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
            == 1
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
        return await self._write(sql, params) == 1

    async def mark_end_announced(self, game_id: int, at: datetime) -> bool:
        """Note that the game's ending is posted; False if it was already (or is not over)."""
        return (
            await self._write(
                "UPDATE games SET end_announced_at = ?"
                " WHERE id = ? AND status = 'finished' AND end_announced_at IS NULL",
                (to_us(at), game_id),
            )
            == 1
        )

    async def count_active(self) -> int:
        """How many games are being played."""
        row = await self._one("SELECT COUNT(*) FROM games WHERE status = 'active'")
        return 0 if row is None else int(row[0])

    async def set_count_proposal(self, game_id: int, color: str | None, expected_ply: int) -> bool:
        return (
            await self._write(
                "UPDATE games SET count_proposed_by = ?"
                " WHERE id = ? AND ply = ? AND status = 'active'",
                (color, game_id, expected_ply),
            )
            == 1
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
        """Rewrite the clock state without a move (giving time)."""
        return (
            await self._write(
                "UPDATE games SET sente_bank_us = ?, gote_bank_us = ?, turn_started_at = ?"
                " WHERE id = ? AND ply = ? AND status = 'active'",
                (
                    duration_us(sente_bank),
                    duration_us(gote_bank),
                    to_us(turn_started_at),
                    game_id,
                    expected_ply,
                ),
            )
            == 1
        )

    async def repair_position(self, game_id: int, old_ply: int, ply: int, sfen: str) -> bool:
        """Overwrite the cached ply and position with what the move list gives."""
        sql = "UPDATE games SET ply = ?, sfen = ? WHERE id = ? AND ply = ?"
        return await self._write(sql, (ply, sfen, game_id, old_ply)) == 1

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
            params = _insert_params(
                bulk.game,
                ply=len(bulk.moves),
                sfen=bulk.sfen,
                turn_started_at=bulk.turn_started_at,
                termination=bulk.termination,
                winner=bulk.winner,
            )
            row = await self._one(_INSERT_GAME, params)
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
                None if move.sente_bank is None else duration_us(move.sente_bank),
                None if move.gote_bank is None else duration_us(move.gote_bank),
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
                None if r[5] is None else from_duration_us(r[5]),
                None if r[6] is None else from_duration_us(r[6]),
            )
            for r in rows
        ]


_DEADLINE_COLUMNS = (
    "d.game_id, d.player_id, d.due_at, d.remind_at, d.reminded_at"
    " FROM deadlines d JOIN games g ON g.id = d.game_id"
)
#: A deadline whose player is on vacation is not running: no time-out, no reminder. Their
#: vacation's end writes their deadlines anew.
_RUNNING = (
    " AND NOT EXISTS (SELECT 1 FROM vacations v"
    " WHERE v.user_id = d.player_id AND v.ended_at IS NULL)"
)


def _deadline(row: Row) -> DeadlineRow:
    reminded = None if row[4] is None else from_us(row[4])
    return DeadlineRow(row[0], row[1], from_us(row[2]), from_us(row[3]), reminded)


class DeadlineRepository(Repository):
    async def set(self, deadline: DeadlineRow) -> None:
        """The game's new running deadline; a new deadline has not been reminded of."""
        await self._write(
            "INSERT INTO deadlines (game_id, player_id, due_at, remind_at, reminded_at)"
            " VALUES (?, ?, ?, ?, NULL) ON CONFLICT (game_id) DO UPDATE SET"
            " player_id = excluded.player_id, due_at = excluded.due_at,"
            " remind_at = excluded.remind_at, reminded_at = NULL",
            (
                deadline.game_id,
                deadline.player_id,
                to_us(deadline.due_at),
                to_us(deadline.remind_at),
            ),
        )

    async def clear(self, game_id: int) -> None:
        await self._write("DELETE FROM deadlines WHERE game_id = ?", (game_id,))

    async def overdue(self, now: datetime, scope: ShardScope | None = None) -> list[DeadlineRow]:
        """Deadlines of active games that have passed, earliest first (not those of
        players on vacation: their clocks stand still); with `scope`, only its servers'."""
        mine, shards = scope_sql(scope, "g.guild_id")
        rows = await self._all(
            f"SELECT {_DEADLINE_COLUMNS} WHERE d.due_at <= ? AND g.status = 'active'"
            f"{_RUNNING}{mine} ORDER BY d.due_at, d.game_id",
            (to_us(now), *shards),
        )
        return [_deadline(row) for row in rows]

    async def reminders_due(
        self, now: datetime, scope: ShardScope | None = None
    ) -> list[DeadlineRow]:
        mine, shards = scope_sql(scope, "g.guild_id")
        rows = await self._all(
            f"SELECT {_DEADLINE_COLUMNS} WHERE d.reminded_at IS NULL AND d.remind_at <= ?"
            f" AND d.due_at > ? AND g.status = 'active'{_RUNNING}{mine}"
            " ORDER BY d.remind_at, d.game_id",
            (to_us(now), to_us(now), *shards),
        )
        return [_deadline(row) for row in rows]

    async def claim_reminder(self, game_id: int, due_at: datetime, now: datetime) -> bool:
        """Mark the reminder for this deadline as sent; False if it already was (or the
        deadline moved), so that it goes out once however many processes try."""
        return (
            await self._write(
                "UPDATE deadlines SET reminded_at = ?"
                " WHERE game_id = ? AND due_at = ? AND reminded_at IS NULL",
                (to_us(now), game_id, to_us(due_at)),
            )
            == 1
        )

    async def next_event(self, scope: ShardScope | None = None) -> datetime | None:
        """The earliest pending deadline or reminder of an active game (of `scope`)."""
        mine, shards = scope_sql(scope, "g.guild_id")
        row = await self._one(
            "SELECT MIN(CASE WHEN d.reminded_at IS NULL AND d.remind_at < d.due_at"
            " THEN d.remind_at ELSE d.due_at END)"
            " FROM deadlines d JOIN games g ON g.id = d.game_id WHERE g.status = 'active'"
            + _RUNNING
            + mine,
            shards,
        )
        return None if row is None or row[0] is None else from_us(row[0])
