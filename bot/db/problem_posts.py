"""The daily problem: each server's schedule, the problems posted, members' answers.

A day's post is claimed with a conditional write on the schedule (`claim_day`: the last
moment claimed earlier than this one), in the transaction that picks the problem and
queues the post in the outbox: of several processes, or a process restarted, one posts
it. A post's solution is revealed once (`claim_reveal`, conditional too). A member's
answer is one row per post and member: a second one clashes (`Conflict`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .problems import ProblemRow, problem_row
from .rows import from_us, from_us_or_none, to_us
from .shards import ShardScope, scope_sql


@dataclass(frozen=True, slots=True)
class ScheduleRow:
    """Where and at what local hour a server's daily problem is posted; when it was
    chosen, and the moment of the last day claimed (None: never)."""

    guild_id: int
    channel_id: int
    hour: int
    chosen_at: datetime
    posted_for: datetime | None


@dataclass(frozen=True, slots=True)
class PostRow:
    """A problem posted: its number in the server (`id`), its channel and message (None
    until it is sent), the day it is for, when its solution was revealed."""

    id: int
    guild_id: int
    channel_id: int
    posted_for: datetime
    message_id: int | None
    revealed_at: datetime | None
    problem: ProblemRow


_SCHEDULE = "guild_id, channel_id, hour, chosen_at, posted_for"
_POST = (
    "o.id, o.guild_id, o.channel_id, o.posted_for, o.message_id, o.revealed_at,"
    " p.id, p.guild_id, p.game_id, p.ply, p.sfen, p.plies, p.line, p.found_at"
)
_POSTS = "problem_posts o JOIN problems p ON p.id = o.problem_id"


def _schedule(row: Row) -> ScheduleRow:
    return ScheduleRow(row[0], row[1], row[2], from_us(row[3]), from_us_or_none(row[4]))


def _post(row: Row) -> PostRow:
    return PostRow(
        row[0],
        row[1],
        row[2],
        from_us(row[3]),
        row[4],
        from_us_or_none(row[5]),
        problem_row(row[6:]),
    )


class ProblemPostRepository(Repository):
    async def set_schedule(self, guild_id: int, channel_id: int, hour: int, at: datetime) -> None:
        """Post the server's problem in `channel_id` at `hour` (from the next such hour)."""
        await self._write(
            "INSERT INTO problem_schedules (guild_id, channel_id, hour, chosen_at)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
            " channel_id = excluded.channel_id, hour = excluded.hour,"
            " chosen_at = excluded.chosen_at",
            (guild_id, channel_id, hour, to_us(at)),
        )

    async def stop(self, guild_id: int) -> bool:
        return await self._landed("DELETE FROM problem_schedules WHERE guild_id = ?", (guild_id,))

    async def schedule(self, guild_id: int) -> ScheduleRow | None:
        row = await self._one(
            f"SELECT {_SCHEDULE} FROM problem_schedules WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else _schedule(row)

    async def schedules(self, scope: ShardScope | None = None) -> list[ScheduleRow]:
        """Every server's schedule (of `scope`'s servers)."""
        mine, shards = scope_sql(scope, "guild_id")
        rows = await self._all(
            f"SELECT {_SCHEDULE} FROM problem_schedules WHERE 1 = 1{mine} ORDER BY guild_id",
            shards,
        )
        return [_schedule(row) for row in rows]

    async def claim_day(self, guild_id: int, slot: datetime) -> bool:
        """Claim the server's post of the day at `slot`, unless it (or a later one) was."""
        return await self._landed(
            "UPDATE problem_schedules SET posted_for = ?"
            " WHERE guild_id = ? AND (posted_for IS NULL OR posted_for < ?)",
            (to_us(slot), guild_id, to_us(slot)),
        )

    async def next_unused(self, guild_id: int) -> ProblemRow | None:
        """The server's oldest problem never posted."""
        row = await self._one(
            "SELECT p.id, p.guild_id, p.game_id, p.ply, p.sfen, p.plies, p.line, p.found_at"
            " FROM problems p WHERE p.guild_id = ? AND NOT EXISTS"
            " (SELECT 1 FROM problem_posts o WHERE o.problem_id = p.id) ORDER BY p.id LIMIT 1",
            (guild_id,),
        )
        return None if row is None else problem_row(row)

    async def add(self, problem: ProblemRow, channel_id: int, posted_for: datetime) -> int:
        return await self._insert(
            "INSERT INTO problem_posts (guild_id, problem_id, channel_id, posted_for)"
            " VALUES (?, ?, ?, ?) RETURNING id",
            (problem.guild_id, problem.id, channel_id, to_us(posted_for)),
        )

    async def get(self, post_id: int) -> PostRow | None:
        row = await self._one(f"SELECT {_POST} FROM {_POSTS} WHERE o.id = ?", (post_id,))
        return None if row is None else _post(row)

    async def hold(self, post_id: int) -> PostRow | None:
        """The post, held until the transaction ends: a reveal waits for an answer being
        counted, so an answer either counts before the reveal or is refused after it."""
        rows = await self._hold(f"SELECT {_POST} FROM {_POSTS} WHERE o.id = ?", (post_id,))
        return _post(rows[0]) if rows else None

    async def latest(self, guild_id: int) -> PostRow | None:
        """The server's last post."""
        row = await self._one(
            f"SELECT {_POST} FROM {_POSTS} WHERE o.guild_id = ? ORDER BY o.id DESC LIMIT 1",
            (guild_id,),
        )
        return None if row is None else _post(row)

    async def unrevealed(self, guild_id: int, before: int | None) -> list[PostRow]:
        """The server's posts whose solution is not revealed, older than post `before`."""
        rows = await self._all(
            f"SELECT {_POST} FROM {_POSTS} WHERE o.guild_id = ? AND o.revealed_at IS NULL"
            " AND o.id < ? ORDER BY o.id",
            (guild_id, (1 << 62) if before is None else before),
        )
        return [_post(row) for row in rows]

    async def claim_reveal(self, post_id: int, at: datetime) -> bool:
        return await self._landed(
            "UPDATE problem_posts SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL",
            (to_us(at), post_id),
        )

    async def set_message(self, post_id: int, message_id: int) -> None:
        await self._write(
            "UPDATE problem_posts SET message_id = ? WHERE id = ?", (message_id, post_id)
        )

    async def answer(
        self, post_id: int, user_id: int, answer: str, correct: bool, at: datetime
    ) -> None:
        """Count a member's answer (`Conflict` if they answered this post before)."""
        await self._write(
            "INSERT INTO problem_answers (post_id, user_id, answer, correct, answered_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (post_id, user_id, answer, int(correct), to_us(at)),
        )

    async def answered(self, post_id: int, user_id: int) -> bool:
        row = await self._one(
            "SELECT 1 FROM problem_answers WHERE post_id = ? AND user_id = ?", (post_id, user_id)
        )
        return row is not None

    async def solvers(self, post_id: int) -> list[int]:
        """Who answered the post right, first first."""
        rows = await self._all(
            "SELECT user_id FROM problem_answers WHERE post_id = ? AND correct = 1"
            " ORDER BY answered_at, user_id",
            (post_id,),
        )
        return [row[0] for row in rows]

    async def solved_posts(
        self, guild_id: int, user_id: int, limit: int
    ) -> tuple[list[int], set[int]]:
        """The server's last `limit` posts (newest first) and those the member solved."""
        posts = await self._all(
            "SELECT id FROM problem_posts WHERE guild_id = ? ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
        )
        solved = await self._all(
            "SELECT a.post_id FROM problem_answers a JOIN problem_posts o ON o.id = a.post_id"
            " WHERE o.guild_id = ? AND a.user_id = ? AND a.correct = 1",
            (guild_id, user_id),
        )
        return [row[0] for row in posts], {row[0] for row in solved}

    async def table(
        self, guild_id: int, since: datetime, until: datetime, limit: int
    ) -> list[tuple[int, int]]:
        """The members who solved most of the server's problems posted in [since, until):
        (user id, problems solved), most first."""
        rows = await self._all(
            "SELECT a.user_id, COUNT(*) FROM problem_answers a"
            " JOIN problem_posts o ON o.id = a.post_id"
            " WHERE o.guild_id = ? AND a.correct = 1 AND o.posted_for >= ? AND o.posted_for < ?"
            " GROUP BY a.user_id ORDER BY COUNT(*) DESC, MIN(a.answered_at), a.user_id LIMIT ?",
            (guild_id, to_us(since), to_us(until), limit),
        )
        return [(row[0], row[1]) for row in rows]
