"""Vacations: when each player's clocks stood still, and the one under way.

Starting is an insert that the partial unique index makes fail (`Conflict`) for a
player already on vacation; ending is a conditional update (`ended_at IS NULL`), so a
vacation ends exactly once, whether its player ends it or the allowance runs out.
Both run under `lock`, so a start reads what is left of the allowance whole.
"""

from __future__ import annotations

from datetime import datetime

from .base import Repository, Row
from .rows import VacationRow, from_us, from_us_or_none, to_us

_COLUMNS = "id, user_id, started_at, ends_by, ended_at FROM vacations"


def _vacation(row: Row) -> VacationRow:
    ended = from_us_or_none(row[4])
    return VacationRow(row[0], row[1], from_us(row[2]), from_us(row[3]), ended)


class VacationRepository(Repository):
    async def lock(self, user_id: int) -> None:
        """Keep the player's vacations from starting or ending in other transactions until
        this one ends: what is left of the allowance is summed from the vacations ended
        and the one under way, read in two statements, and a vacation ending between
        them would be counted in neither."""
        await self._statements.lock([f"vacations:{user_id}"])

    async def start(self, user_id: int, at: datetime, ends_by: datetime) -> int:
        """A new vacation; `Conflict` if the player is already on one."""
        row = await self._one(
            "INSERT INTO vacations (user_id, started_at, ends_by) VALUES (?, ?, ?) RETURNING id",
            (user_id, to_us(at), to_us(ends_by)),
        )
        assert row is not None
        return int(row[0])

    async def current(self, user_id: int) -> VacationRow | None:
        """The player's vacation under way, if any."""
        row = await self._one(
            f"SELECT {_COLUMNS} WHERE user_id = ? AND ended_at IS NULL", (user_id,)
        )
        return None if row is None else _vacation(row)

    async def last_ended(self, user_id: int) -> VacationRow | None:
        """The player's vacation that ended last, if any."""
        row = await self._one(
            f"SELECT {_COLUMNS} WHERE user_id = ? AND ended_at IS NOT NULL"
            " ORDER BY ended_at DESC, id DESC LIMIT 1",
            (user_id,),
        )
        return None if row is None else _vacation(row)

    async def started_between(
        self, user_id: int, since: datetime, until: datetime
    ) -> list[VacationRow]:
        """The player's vacations that began in [since, until), oldest first."""
        rows = await self._all(
            f"SELECT {_COLUMNS} WHERE user_id = ? AND started_at >= ? AND started_at < ?"
            " ORDER BY started_at",
            (user_id, to_us(since), to_us(until)),
        )
        return [_vacation(row) for row in rows]

    async def end(self, vacation_id: int, at: datetime) -> bool:
        """End a vacation under way; False if it had already ended."""
        return await self._landed(
            "UPDATE vacations SET ended_at = ? WHERE id = ? AND ended_at IS NULL",
            (to_us(at), vacation_id),
        )

    async def run_out(self, now: datetime) -> list[VacationRow]:
        """Vacations under way whose allowance has run out by `now`."""
        rows = await self._all(
            f"SELECT {_COLUMNS} WHERE ended_at IS NULL AND ends_by <= ? ORDER BY ends_by",
            (to_us(now),),
        )
        return [_vacation(row) for row in rows]

    async def next_end(self) -> datetime | None:
        """When the next vacation under way runs out."""
        row = await self._one("SELECT MIN(ends_by) FROM vacations WHERE ended_at IS NULL")
        return None if row is None else from_us_or_none(row[0])
