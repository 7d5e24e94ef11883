"""The running deadlines of games: one per active game, the player to move's, with when
to remind them; the scheduler reads what is overdue or due a reminder.

A claimed reminder is conditional on being unclaimed, so it goes out once however many
processes try; a deadline of a player on vacation is not running.
"""

from __future__ import annotations

from datetime import datetime

from .base import Repository, Row
from .rows import DeadlineRow, from_us, from_us_or_none, to_us
from .shards import ShardScope, scope_sql

#: Deadlines first, then their games: the deadline task's queries walk a deadline index in
#: time order and stop early, so a wake-up costs the same with a thousand active games or a
#: hundred thousand. Left to choose, SQLite's planner read every active game through the
#: games' status index instead (`CROSS JOIN` is how SQLite is told the order; PostgreSQL
#: reads it as the plain join it is and plans by its statistics).
_DEADLINES_THEN_GAMES = " FROM deadlines d CROSS JOIN games g WHERE g.id = d.game_id"
_DEADLINE_COLUMNS = "d.game_id, d.player_id, d.due_at, d.remind_at, d.reminded_at"
#: A deadline whose player is on vacation is not running: no time-out, no reminder. Their
#: vacation's end writes their deadlines anew.
_RUNNING = (
    " AND NOT EXISTS (SELECT 1 FROM vacations v"
    " WHERE v.user_id = d.player_id AND v.ended_at IS NULL)"
)


def _deadline(row: Row) -> DeadlineRow:
    reminded = from_us_or_none(row[4])
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
        rows = await self._all(*_overdue(now, scope))
        return [_deadline(row) for row in rows]

    async def reminders_due(
        self, now: datetime, scope: ShardScope | None = None
    ) -> list[DeadlineRow]:
        rows = await self._all(*_reminders_due(now, scope))
        return [_deadline(row) for row in rows]

    async def claim_reminder(self, game_id: int, due_at: datetime, now: datetime) -> bool:
        """Mark the reminder for this deadline as sent; False if it already was (or the
        deadline moved), so that it goes out once however many processes try."""
        return await self._landed(
            "UPDATE deadlines SET reminded_at = ?"
            " WHERE game_id = ? AND due_at = ? AND reminded_at IS NULL",
            (to_us(now), game_id, to_us(due_at)),
        )

    async def still_reminded(self, game_id: int) -> bool:
        """Whether the game's running deadline is the one whose reminder was claimed (no
        move or new deadline since, which would have a reminder of its own)."""
        row = await self._one(
            "SELECT 1 FROM deadlines WHERE game_id = ? AND reminded_at IS NOT NULL", (game_id,)
        )
        return row is not None

    async def next_event(self, scope: ShardScope | None = None) -> datetime | None:
        """The earliest pending deadline or reminder of an active game (of `scope`)."""
        row = await self._one(*_next_event(scope))
        times = [] if row is None else [from_us(value) for value in row if value is not None]
        return min(times) if times else None

    async def plans(
        self, now: datetime, *, backend: str, scope: ShardScope | None = None
    ) -> dict[str, list[str]]:
        """How the database runs the queries of every wake-up of the deadline task, one
        line a step (`EXPLAIN`): for the scale benchmark, where a step that reads every
        deadline would make each wake-up grow with the active games."""
        explain = "EXPLAIN QUERY PLAN" if backend == "sqlite" else "EXPLAIN"
        queries = {
            "overdue": _overdue(now, scope),
            "reminders_due": _reminders_due(now, scope),
            "next_event": _next_event(scope),
        }
        plans: dict[str, list[str]] = {}
        for name, (sql, params) in queries.items():
            # EXPLAIN takes no parameters on PostgreSQL; these are all integers.
            for value in params:
                sql = sql.replace("?", str(int(value)), 1)
            rows = await self._all(f"{explain} {sql}")
            plans[name] = [str(row[-1]) for row in rows]
        return plans


def _overdue(now: datetime, scope: ShardScope | None) -> tuple[str, tuple[int, ...]]:
    mine, shards = scope_sql(scope, "g.guild_id")
    return (
        f"SELECT {_DEADLINE_COLUMNS}{_DEADLINES_THEN_GAMES} AND d.due_at <= ?"
        " AND g.status = 'active'"
        f"{_RUNNING}{mine} ORDER BY d.due_at, d.game_id",
        (to_us(now), *shards),
    )


def _reminders_due(now: datetime, scope: ShardScope | None) -> tuple[str, tuple[int, ...]]:
    mine, shards = scope_sql(scope, "g.guild_id")
    return (
        f"SELECT {_DEADLINE_COLUMNS}{_DEADLINES_THEN_GAMES}"
        " AND d.reminded_at IS NULL AND d.remind_at <= ?"
        f" AND d.due_at > ? AND g.status = 'active'{_RUNNING}{mine}"
        " ORDER BY d.remind_at, d.game_id",
        (to_us(now), to_us(now), *shards),
    )


def _next_event(scope: ShardScope | None) -> tuple[str, tuple[int, ...]]:
    """The earliest reminder not yet sent and the earliest deadline, each the first row
    of its index that belongs to a running deadline of an active game. The earlier of the
    two is the next event: a deadline whose reminder is pending is later than the
    reminder, so its own time never comes first."""
    mine, shards = scope_sql(scope, "g.guild_id")
    running = f" AND g.status = 'active'{_RUNNING}{mine}"
    return (
        f"SELECT (SELECT d.remind_at{_DEADLINES_THEN_GAMES} AND d.reminded_at IS NULL"
        f" AND d.remind_at < d.due_at{running} ORDER BY d.reminded_at, d.remind_at LIMIT 1),"
        f" (SELECT d.due_at{_DEADLINES_THEN_GAMES}{running} ORDER BY d.due_at LIMIT 1)",
        (*shards, *shards),
    )
