"""Leases on posting endings: which process posts a stored ending, and until when.

A game's ending is stored first and posted after. With one process, a crash in
between leaves it unposted and the next start posts it. With several processes on
one database, "unposted" alone does not tell a dead process's ending from one a
live peer is posting right now; the lease does: the process that stores an ending
claims it in the same transaction, and another takes it over only once the lease
has run out. An ending waiting in the outbox (a time-out's) is not taken over while it
waits: the process that claims it from there renews the lease, and only an ending claimed
from there but never posted is one for the others to take over.
"""

from __future__ import annotations

from datetime import datetime

from .base import Repository
from .rows import from_us_or_none, to_us

#: The game's ending waits in the outbox, unclaimed: its sender will post it.
_QUEUED = (
    " AND NOT EXISTS (SELECT 1 FROM outbox o WHERE o.game_id = g.id"
    " AND o.kind = 'ending' AND o.claimed_by IS NULL)"
)


class EndingClaimRepository(Repository):
    async def claim(self, game_id: int, worker: str, now: datetime, until: datetime) -> bool:
        """Take the posting of `game_id`'s ending until `until`, unless another process
        holds a lease that has not run out at `now`; True if this process now holds it
        (a holder may renew its own lease)."""
        return await self._landed(
            "INSERT INTO ending_claims (game_id, claimed_by, claimed_until) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO UPDATE SET claimed_by = excluded.claimed_by,"
            " claimed_until = excluded.claimed_until"
            " WHERE ending_claims.claimed_until <= ? OR ending_claims.claimed_by = ?",
            (game_id, worker, to_us(until), to_us(now), worker),
        )

    async def unposted(self, now: datetime, worker: str) -> list[int]:
        """Finished games whose ending is not posted and that `worker` may take over:
        nobody claimed it, or another process did and its lease has run out at `now`; and
        it does not wait in the outbox. (An ending `worker` itself failed to post is not
        retried: its post was refused.)"""
        rows = await self._all(
            "SELECT g.id FROM games g LEFT JOIN ending_claims c ON c.game_id = g.id"
            " WHERE g.status = 'finished' AND g.end_announced_at IS NULL"
            " AND (c.claimed_until IS NULL OR (c.claimed_until <= ? AND c.claimed_by <> ?))"
            + _QUEUED
            + " ORDER BY g.id",
            (to_us(now), worker),
        )
        return [row[0] for row in rows]

    async def next_expiry(self, worker: str) -> datetime | None:
        """When the first lease of another process than `worker` on a still unposted
        ending not waiting in the outbox runs out (then `worker` may take it over)."""
        row = await self._one(
            "SELECT MIN(c.claimed_until) FROM ending_claims c JOIN games g ON g.id = c.game_id"
            " WHERE g.status = 'finished' AND g.end_announced_at IS NULL AND c.claimed_by <> ?"
            + _QUEUED,
            (worker,),
        )
        return None if row is None else from_us_or_none(row[0])
