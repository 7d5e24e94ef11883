"""Mate problems: the games waiting to be scanned, the problems found, who opted out.

A finished game is queued for scanning in the transaction that ends it (`queue_scan`), so
no ending is missed by a process that stops right after it. A process claims a queued game
on a lease (`claim_scan`: a conditional update, so of two processes one scans it) and
stores what it found with the same condition (`finish_scan`): a game is scanned once; one
whose scanner died is taken again when its lease runs out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import from_us, to_us


@dataclass(frozen=True, slots=True)
class NewProblem:
    """A problem found in a game (after `ply` moves): its position, the length of its mate
    and its solution (USI)."""

    ply: int
    sfen: str
    plies: int
    line: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ProblemRow:
    id: int
    guild_id: int
    game_id: int
    ply: int
    sfen: str
    plies: int
    line: tuple[str, ...]
    found_at: datetime


@dataclass(frozen=True, slots=True)
class ScanProgress:
    """A server's finished games, how many of them are scanned and queued, its problems."""

    finished: int
    scanned: int
    queued: int
    problems: int


_PROBLEM = "id, guild_id, game_id, ply, sfen, plies, line, found_at"


def problem_row(row: Row) -> ProblemRow:
    return ProblemRow(
        row[0], row[1], row[2], row[3], row[4], row[5], tuple(row[6].split()), from_us(row[7])
    )


class ProblemRepository(Repository):
    async def queue_scan(self, game_id: int, guild_id: int, at: datetime) -> None:
        """Queue a finished game for scanning (nothing if it was queued before)."""
        await self._write(
            "INSERT INTO problem_scans (game_id, guild_id, queued_at) VALUES (?, ?, ?)"
            " ON CONFLICT (game_id) DO NOTHING",
            (game_id, guild_id, to_us(at)),
        )

    async def queue_history(self, guild_id: int, at: datetime, limit: int) -> int:
        """Queue up to `limit` of the server's finished games never queued, oldest first;
        how many."""
        return await self._write(
            "INSERT INTO problem_scans (game_id, guild_id, queued_at)"
            " SELECT g.id, g.guild_id, ? FROM games g"
            " WHERE g.guild_id = ? AND g.status = 'finished'"
            " AND NOT EXISTS (SELECT 1 FROM problem_scans s WHERE s.game_id = g.id)"
            " ORDER BY g.id LIMIT ?"
            " ON CONFLICT (game_id) DO NOTHING",
            (to_us(at), guild_id, limit),
        )

    async def waiting(self, now: datetime, limit: int) -> list[int]:
        """Games queued and not scanned that nobody holds a lease on, oldest first."""
        rows = await self._all(
            "SELECT game_id FROM problem_scans WHERE scanned_at IS NULL"
            " AND (claimed_until IS NULL OR claimed_until <= ?) ORDER BY queued_at, game_id"
            " LIMIT ?",
            (to_us(now), limit),
        )
        return [row[0] for row in rows]

    async def next_lease_end(self) -> datetime | None:
        """When the first lease on a game still unscanned runs out."""
        row = await self._one(
            "SELECT MIN(claimed_until) FROM problem_scans WHERE scanned_at IS NULL"
            " AND claimed_until IS NOT NULL"
        )
        return None if row is None or row[0] is None else from_us(row[0])

    async def claim_scan(self, game_id: int, worker: str, now: datetime, until: datetime) -> bool:
        """Take the game's scan for `worker` until `until`, unless it is scanned or
        another process holds it."""
        return await self._landed(
            "UPDATE problem_scans SET claimed_by = ?, claimed_until = ?"
            " WHERE game_id = ? AND scanned_at IS NULL"
            " AND (claimed_until IS NULL OR claimed_until <= ?)",
            (worker, to_us(until), game_id, to_us(now)),
        )

    async def finish_scan(
        self,
        game_id: int,
        guild_id: int,
        worker: str,
        found: Sequence[NewProblem],
        at: datetime,
    ) -> bool:
        """Store the game's problems and mark it scanned, if `worker` still holds its
        scan (False: another process took it over and stores its own)."""
        if not await self._landed(
            "UPDATE problem_scans SET scanned_at = ?, found = ?, claimed_until = NULL"
            " WHERE game_id = ? AND claimed_by = ? AND scanned_at IS NULL",
            (to_us(at), len(found), game_id, worker),
        ):
            return False
        await self._write_many(
            "INSERT INTO problems (guild_id, game_id, ply, sfen, plies, line, found_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, ply) DO NOTHING",
            [
                (guild_id, game_id, p.ply, p.sfen, p.plies, " ".join(p.line), to_us(at))
                for p in found
            ],
        )
        return True

    async def progress(self, guild_id: int) -> ScanProgress:
        row = await self._one(
            "SELECT (SELECT COUNT(*) FROM games WHERE guild_id = ? AND status = 'finished'),"
            " (SELECT COUNT(*) FROM problem_scans WHERE guild_id = ? AND scanned_at IS NOT NULL),"
            " (SELECT COUNT(*) FROM problem_scans WHERE guild_id = ? AND scanned_at IS NULL),"
            " (SELECT COUNT(*) FROM problems WHERE guild_id = ?)",
            (guild_id, guild_id, guild_id, guild_id),
        )
        assert row is not None
        return ScanProgress(row[0], row[1], row[2], row[3])

    async def of_server(self, guild_id: int) -> list[ProblemRow]:
        """The server's problems, oldest first."""
        rows = await self._all(
            f"SELECT {_PROBLEM} FROM problems WHERE guild_id = ? ORDER BY id", (guild_id,)
        )
        return [problem_row(row) for row in rows]

    async def get(self, problem_id: int) -> ProblemRow | None:
        row = await self._one(f"SELECT {_PROBLEM} FROM problems WHERE id = ?", (problem_id,))
        return None if row is None else problem_row(row)

    # ------------------------------------------------------------------ opting out

    async def opt_out(self, user_id: int, at: datetime) -> None:
        await self._write(
            "INSERT INTO problem_opt_outs (user_id, opted_out_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO NOTHING",
            (user_id, to_us(at)),
        )

    async def opt_in(self, user_id: int) -> None:
        await self._write("DELETE FROM problem_opt_outs WHERE user_id = ?", (user_id,))

    async def opted_out(self, user_ids: Sequence[int]) -> set[int]:
        """Those of `user_ids` who do not want their games made into problems."""
        if not user_ids:
            return set()
        marks = ", ".join("?" for _ in user_ids)
        rows = await self._all(
            f"SELECT user_id FROM problem_opt_outs WHERE user_id IN ({marks})", tuple(user_ids)
        )
        return {row[0] for row in rows}
