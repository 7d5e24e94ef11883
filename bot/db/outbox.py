"""The queue of what the bot sends on its own: one row per pending send, claimed once.

A process claims a batch of the most urgent unclaimed rows of its servers (and those of no
server) in one transaction: it picks them (on PostgreSQL skipping the rows another
process is claiming right now) and marks them with its name, conditional on their being
unclaimed still, so that of two processes each row goes to one. A sent row is deleted;
a row claimed by a process that stopped before sending it is lost (deleted once it is
old), never sent twice.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import from_us, to_us
from .shards import ShardScope, scope_sql

_COLUMNS = "id, kind, urgency, guild_id, game_id, challenge_id, user_id, content, silent, queued_at"


@dataclass(frozen=True, slots=True)
class OutboxRow:
    """One pending send: its kind and urgency (smaller goes first), its server (None: any
    process's), its subject (a game, a challenge or a member), and for a direct message its
    text, written when it was decided, and whether it is sent silently."""

    id: int
    kind: str
    urgency: int
    guild_id: int | None
    game_id: int | None
    challenge_id: int | None
    user_id: int | None
    content: str | None
    silent: bool
    queued_at: datetime


def _row(row: Row) -> OutboxRow:
    return OutboxRow(
        row[0],
        row[1],
        row[2],
        row[3],
        row[4],
        row[5],
        row[6],
        row[7],
        bool(row[8]),
        from_us(row[9]),
    )


def _mine(scope: ShardScope | None) -> tuple[str, tuple[int, ...]]:
    """The rows a process of `scope` may take: its servers' and those of no server."""
    mine, shards = scope_sql(scope, "guild_id")
    return (f" AND (guild_id IS NULL OR (1 = 1{mine}))" if mine else ""), shards


class OutboxRepository(Repository):
    async def add(
        self,
        kind: str,
        urgency: int,
        now: datetime,
        *,
        guild_id: int | None = None,
        challenge_id: int | None = None,
        user_id: int | None = None,
        content: str | None = None,
        silent: bool = False,
    ) -> int:
        """Queue a send; its id."""
        return await self._insert(
            "INSERT INTO outbox (kind, urgency, guild_id, challenge_id, user_id, content,"
            " silent, queued_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
            (kind, urgency, guild_id, challenge_id, user_id, content, int(silent), to_us(now)),
        )

    async def add_for_game(self, kind: str, urgency: int, game_id: int, now: datetime) -> None:
        """Queue a send about a game, in its server."""
        await self._write(
            "INSERT INTO outbox (kind, urgency, guild_id, game_id, queued_at)"
            " SELECT ?, ?, guild_id, id, ? FROM games WHERE id = ?",
            (kind, urgency, to_us(now), game_id),
        )

    async def claim(
        self, worker: str, now: datetime, limit: int, scope: ShardScope | None = None
    ) -> list[OutboxRow]:
        """Claim for `worker` up to `limit` unclaimed rows of `scope`, most urgent first
        (then oldest first). Run it in a transaction of its own."""
        mine, shards = _mine(scope)
        picked = await self._statements.fetch_skipping_locked(
            f"SELECT id FROM outbox WHERE claimed_by IS NULL{mine} ORDER BY urgency, id LIMIT ?",
            (*shards, limit),
        )
        if not picked:
            return []
        ids = [row[0] for row in picked]
        marks = ", ".join("?" * len(ids))
        rows = await self._all(
            f"UPDATE outbox SET claimed_by = ?, claimed_at = ? WHERE id IN ({marks})"
            f" AND claimed_by IS NULL RETURNING {_COLUMNS}",
            (worker, to_us(now), *ids),
        )
        return sorted((_row(row) for row in rows), key=lambda row: (row.urgency, row.id))

    async def waiting(self, scope: ShardScope | None = None) -> int:
        """How many rows of `scope` wait unclaimed."""
        mine, shards = _mine(scope)
        row = await self._one(f"SELECT COUNT(*) FROM outbox WHERE claimed_by IS NULL{mine}", shards)
        return 0 if row is None else int(row[0])

    async def release(self, worker: str, row_ids: list[int]) -> None:
        """Put back rows `worker` claimed and did not begin to send (it is stopping)."""
        if row_ids:
            marks = ", ".join("?" * len(row_ids))
            await self._write(
                "UPDATE outbox SET claimed_by = NULL, claimed_at = NULL"
                f" WHERE claimed_by = ? AND id IN ({marks})",
                (worker, *row_ids),
            )

    async def sent(self, row_id: int) -> None:
        await self._write("DELETE FROM outbox WHERE id = ?", (row_id,))

    async def drop_claimed_before(self, moment: datetime) -> int:
        """Delete the rows claimed before `moment`: their process stopped before sending
        them (a live one sends within seconds). How many there were."""
        return await self._write(
            "DELETE FROM outbox WHERE claimed_at IS NOT NULL AND claimed_at < ?", (to_us(moment),)
        )
