"""The daily problem: posted at the hour a server chose, in the channel it chose, once a
day; answered privately; revealed with the next day's post.

A day's post is due at the server's last local hour that came after both the day last
claimed and the moment the schedule was chosen (so choosing 9:00 at 15:00 posts the first
one tomorrow at 9). It is claimed with a conditional write in the transaction that picks
the server's oldest unused problem and queues the post in the outbox, so of several
processes (or a process restarted) one posts it, paced with the bot's other sends. The
delivery reveals the posts before it (each reveal claimed once too) and posts the new one;
a day without a problem left still reveals the last one.

Answers are judged in a worker process (`judging.judge`, bounded), one counted per member
and post; a post revealed takes no more.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, tzinfo

from bot.db import Conflict, ShardScope
from bot.db.problem_posts import PostRow, ScheduleRow
from bot.db.problems import ProblemRow
from rules import Color, Move, Position, Sentence

from ..clock.digests import hour_due, hours_around
from ..clock.sends import URGENCY, Send
from ..errors import NotFound, ServiceError
from ..play.game import MoveText
from ..play.snapshots import move_text
from ..play.store import GameStore
from ..records.readers import ReaderPool
from .judging import Judged, Judgement, judge

log = logging.getLogger(__name__)
#: The zone of a server (by id), as the Discord layer knows it (`GameBot.server_zone`).
ServerZone = Callable[[int], Awaitable[tzinfo]]
#: Posts looked at for a member's streak: a streak longer than this shows as this.
STREAK_LOOKBACK = 366
TABLE_ROWS = 10

NO_SUCH_PROBLEM = Sentence("There is no such problem in this server.")
ALREADY_REVEALED = Sentence(
    "The answer to this problem is already revealed: answer today's problem instead."
)
ALREADY_ANSWERED = Sentence("You already answered this problem: one answer counts.")
NO_PROBLEM_YET = Sentence("There is no problem of the day in this server yet.")
STILL_JUDGING = Sentence("Your previous answer is still being judged: wait for it.")
#: The longest move text judged: any notation's move is far shorter; the rest is cut.
MOVE_TEXT = 100


@dataclass(frozen=True, slots=True)
class Delivery:
    """What one day's post of a server consists of: the posts to reveal now (with who
    solved each), and the new post (None: no problem was left)."""

    guild_id: int
    reveals: tuple[tuple[PostRow, tuple[int, ...]], ...]
    post: PostRow | None


@dataclass(frozen=True, slots=True)
class Answered:
    """A member's answer judged; `counted` is False for "unknown" (they may answer again)."""

    post: PostRow
    judgement: Judgement
    counted: bool


def month_bounds(now: datetime, zone: tzinfo) -> tuple[datetime, datetime]:
    """The start of `now`'s month in `zone` and of the next, in UTC.

    >>> from zoneinfo import ZoneInfo
    >>> [m.isoformat() for m in month_bounds(datetime(2026, 1, 31, 16, tzinfo=UTC),
    ...                                      ZoneInfo("Asia/Tokyo"))]
    ['2026-01-31T15:00:00+00:00', '2026-02-28T15:00:00+00:00']
    """
    local = now.astimezone(zone)
    start = datetime(local.year, local.month, 1, tzinfo=zone)
    following = datetime(local.year + local.month // 12, local.month % 12 + 1, 1, tzinfo=zone)
    return start.astimezone(UTC), following.astimezone(UTC)


class DailyProblems:
    """Schedules, the task's checks (`check`), deliveries, answers, streaks and tables."""

    def __init__(self, store: GameStore, *, scope: ShardScope | None = None) -> None:
        self._store = store
        self._scope = scope
        self._pool: ReaderPool | None = None
        self._server_zone: ServerZone | None = None
        self._listeners: list[Callable[[datetime | None], None]] = []
        self._judging: set[int] = set()  # members whose answer is being judged

    def run_with(self, pool: ReaderPool | None, server_zone: ServerZone | None) -> None:
        """The workers that judge answers, and how a server's zone is found (None: UTC)."""
        self._pool = pool
        self._server_zone = server_zone

    def now(self) -> datetime:
        return self._store.now()

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
        self._listeners.append(listener)

    async def _zone(self, guild_id: int) -> tzinfo:
        if self._server_zone is None:
            return UTC
        return await self._server_zone(guild_id)

    # ------------------------------------------------------------------ schedule

    async def schedule(self, guild_id: int, channel_id: int, hour: int) -> datetime:
        """Post the server's problem in `channel_id` each day at `hour` (its local time);
        when the first one comes."""
        if not 0 <= hour <= 23:
            raise ServiceError(Sentence("The hour is a number from 0 to 23."))
        now = self.now()
        async with self._store.db.transaction() as tx:
            await tx.problem_posts.set_schedule(guild_id, channel_id, hour, now)
        following = hours_around(now, hour, await self._zone(guild_id))[1]
        for listener in self._listeners:
            listener(following)
        return following

    async def unschedule(self, guild_id: int) -> bool:
        async with self._store.db.transaction() as tx:
            return await tx.problem_posts.stop(guild_id)

    async def schedule_of(self, guild_id: int) -> ScheduleRow | None:
        async with self._store.db.query() as q:
            return await q.problem_posts.schedule(guild_id)

    async def check(self) -> datetime | None:
        """Claim and queue every server's post that is due; when the next one is."""
        now = self.now()
        async with self._store.db.read() as tx:
            schedules = await tx.problem_posts.schedules(self._scope)
        upcoming: list[datetime] = []
        for index, schedule in enumerate(schedules):
            if index % 100 == 99:
                await asyncio.sleep(0)
            try:
                due, following = hour_due(
                    now,
                    schedule.hour,
                    await self._zone(schedule.guild_id),
                    schedule.chosen_at,
                    schedule.posted_for,
                )
                if due is not None:
                    await self._claim(schedule, due)
                upcoming.append(following)
            except Exception:
                log.exception("could not post the daily problem of server %s", schedule.guild_id)
        return min(upcoming, default=None)

    async def _claim(self, schedule: ScheduleRow, slot: datetime) -> None:
        now = self.now()
        async with self._store.db.transaction() as tx:
            if not await tx.problem_posts.claim_day(schedule.guild_id, slot):
                return  # another process (or an earlier check) took this day
            problem = await tx.problem_posts.next_unused(schedule.guild_id)
            if problem is not None:
                await tx.problem_posts.add(problem, schedule.channel_id, slot)
            await tx.outbox.add(
                Send.PROBLEM.value, URGENCY[Send.PROBLEM], now, guild_id=schedule.guild_id
            )
        self._store.doorbell.ring()

    # ------------------------------------------------------------------ delivery

    async def delivery(self, guild_id: int) -> Delivery:
        """What the server's queued post is: the reveals it claims now, and the new post
        (the server's last, if not sent yet)."""
        now = self.now()
        async with self._store.db.transaction() as tx:
            latest = await tx.problem_posts.latest(guild_id)
            post = latest if latest is not None and latest.message_id is None else None
            before = None if post is None else post.id
            reveals = []
            for old in await tx.problem_posts.unrevealed(guild_id, before):
                if await tx.problem_posts.claim_reveal(old.id, now):
                    solvers = tuple(await tx.problem_posts.solvers(old.id))
                    reveals.append((old, solvers))
        return Delivery(guild_id, tuple(reveals), post)

    async def posted(self, post_id: int, message_id: int) -> None:
        async with self._store.db.transaction() as tx:
            await tx.problem_posts.set_message(post_id, message_id)

    # ------------------------------------------------------------------ answers

    async def current(self, guild_id: int) -> PostRow:
        """The server's problem of the day (its last post)."""
        async with self._store.db.query() as q:
            post = await q.problem_posts.latest(guild_id)
        if post is None:
            raise NotFound(NO_PROBLEM_YET)
        return post

    async def open_for(self, guild_id: int, post_id: int, user_id: int) -> PostRow:
        """The post a member is about to answer (its box opens only then): of their
        server, not revealed, not answered by them yet."""
        async with self._store.db.read() as tx:
            post = await tx.problem_posts.get(post_id)
            answered = post is not None and await tx.problem_posts.answered(post.id, user_id)
        if post is None or post.guild_id != guild_id:
            raise NotFound(NO_SUCH_PROBLEM)
        if post.revealed_at is not None:
            raise ServiceError(ALREADY_REVEALED)
        if answered:
            raise ServiceError(ALREADY_ANSWERED)
        return post

    async def answer(self, guild_id: int, post_id: int | None, user_id: int, text: str) -> Answered:
        """Judge and count a member's answer to a post of their server (None: today's)."""
        async with self._store.db.read() as tx:
            post = (
                await tx.problem_posts.latest(guild_id)
                if post_id is None
                else await tx.problem_posts.get(post_id)
            )
            answered = post is not None and await tx.problem_posts.answered(post.id, user_id)
        if post is None or post.guild_id != guild_id:
            raise NotFound(NO_PROBLEM_YET if post_id is None else NO_SUCH_PROBLEM)
        if post.revealed_at is not None:
            raise ServiceError(ALREADY_REVEALED)
        if answered:
            raise ServiceError(ALREADY_ANSWERED)
        if self._pool is None:
            raise RuntimeError("answers are judged in worker processes none were given")
        if user_id in self._judging:
            raise ServiceError(STILL_JUDGING)
        problem = post.problem
        self._judging.add(user_id)
        try:
            judgement = await self._pool.run(judge, problem.sfen, problem.plies, text[:MOVE_TEXT])
        finally:
            self._judging.discard(user_id)
        if judgement.judged is Judged.UNKNOWN:
            return Answered(post, judgement, counted=False)
        async with self._store.db.transaction() as tx:
            fresh = await tx.problem_posts.hold(post.id)
            if fresh is None or fresh.revealed_at is not None:
                raise ServiceError(ALREADY_REVEALED)
            try:
                await tx.problem_posts.answer(
                    post.id, user_id, judgement.usi, judgement.judged is Judged.RIGHT, self.now()
                )
            except Conflict:
                raise ServiceError(ALREADY_ANSWERED) from None
        return Answered(post, judgement, counted=True)

    async def streak(self, guild_id: int, user_id: int) -> int:
        """How many of the server's daily problems in a row the member solved, up to the
        last one revealed (today's still open does not break it)."""
        async with self._store.db.read() as tx:
            posts, solved = await tx.problem_posts.solved_posts(guild_id, user_id, STREAK_LOOKBACK)
            latest = await tx.problem_posts.latest(guild_id)
        if latest is not None and latest.revealed_at is None and posts and posts[0] not in solved:
            posts = posts[1:]  # today's, still open
        count = 0
        for post_id in posts:
            if post_id not in solved:
                break
            count += 1
        return count

    async def table(self, guild_id: int) -> tuple[datetime, list[tuple[int, int]]]:
        """This month's solvers (in the server's zone): its start, and (member, solved)."""
        since, until = month_bounds(self.now(), await self._zone(guild_id))
        async with self._store.db.query() as q:
            return since, await q.problem_posts.table(guild_id, since, until, TABLE_ROWS)


@dataclass(frozen=True, slots=True)
class Solution:
    """A problem's solution as the reveal shows it: each move with its side, written in
    the position it is played in, and the final mate (with the mating move)."""

    line: tuple[tuple[Color, MoveText], ...]
    final: Position
    last_move: Move | None
    attacker: Color


def solution_of(problem: ProblemRow) -> Solution:
    """The solution stored with `problem`, written out.

    >>> row = ProblemRow(1, 1, 1, 0, "4k4/9/3S5/9/9/9/9/9/4K4 b RS 1", 3,
    ...                  ("R*5b", "5a6a", "5b6b+"), datetime(2026, 1, 1, tzinfo=UTC))
    >>> [move.japanese for _color, move in solution_of(row).line]
    ['５二飛', '６一玉', '６二飛成']
    """
    position = Position.from_sfen(problem.sfen)
    attacker = position.turn
    line: list[tuple[Color, MoveText]] = []
    last: Move | None = None
    for usi in problem.line:
        move = Move.from_usi(usi)
        line.append((position.turn, move_text(position, move, last)))
        position.push(move)
        last = move
    return Solution(tuple(line), position, last, attacker)
