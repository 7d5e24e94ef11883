"""What the engine leaves in the database: the computer's seat in a game against the bot,
and the evaluations of analysed games (one row per position, kept as each is found, so an
analysis cut short by a restart goes on where it stopped)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from .base import Repository
from .rows import to_us


@dataclass(frozen=True, slots=True)
class ComputerRow:
    """The bot plays `user_id`'s seat of `game_id` at `level`."""

    game_id: int
    user_id: int
    level: int


@dataclass(frozen=True, slots=True)
class EvaluationRow:
    """The engine's view of the position after `ply` moves: a score from the side to
    move's view (centipawns, or moves to mate) and the move it would play."""

    game_id: int
    ply: int
    score_cp: int | None
    mate: int | None
    best_usi: str | None


class ComputerRepository(Repository):
    async def add(self, game_id: int, user_id: int, level: int) -> None:
        await self._write(
            "INSERT INTO computer_games (game_id, user_id, level) VALUES (?, ?, ?)",
            (game_id, user_id, level),
        )

    async def get(self, game_id: int) -> ComputerRow | None:
        row = await self._one(
            "SELECT game_id, user_id, level FROM computer_games WHERE game_id = ?", (game_id,)
        )
        return None if row is None else ComputerRow(int(row[0]), int(row[1]), int(row[2]))

    async def lock(self, user_id: int) -> None:
        """Keep the member's other starts of games against the computer out until this
        transaction ends, so that a count taken now still holds when the game is offered:
        on PostgreSQL two starts counting at once would each miss the other's."""
        await self._statements.lock([f"computer-games:{user_id}"])

    async def in_progress(self, user_id: int, now: datetime) -> int:
        """The member's games against the computer under way, over every server: games in
        progress against a bot, and challenges to a bot still open (a start between its
        offer and its game)."""
        # One count per seat, so each reads the member's own games by its index.
        row = await self._one(
            "SELECT (SELECT COUNT(*) FROM games g JOIN players t ON t.user_id = g.gote_id"
            " WHERE g.sente_id = ? AND g.status = 'active' AND t.is_bot = 1)"
            " + (SELECT COUNT(*) FROM games g JOIN players s ON s.user_id = g.sente_id"
            " WHERE g.gote_id = ? AND g.status = 'active' AND s.is_bot = 1)"
            " + (SELECT COUNT(*) FROM challenges c JOIN players b ON b.user_id = c.opponent_id"
            " WHERE c.challenger_id = ? AND c.status = 'open' AND c.expires_at > ?"
            " AND b.is_bot = 1)",
            (user_id, user_id, user_id, to_us(now)),
        )
        return 0 if row is None else int(row[0])

    async def waiting(self) -> list[int]:
        """Active games against the computer, for a restart to see whose turn it is."""
        rows = await self._all(
            "SELECT c.game_id FROM computer_games c JOIN games g ON g.id = c.game_id"
            " WHERE g.status = 'active' ORDER BY c.game_id"
        )
        return [int(row[0]) for row in rows]


class AnalysisRepository(Repository):
    async def add(self, rows: Iterable[EvaluationRow]) -> None:
        """Store evaluations; one already there stays (two analyses of one game racing
        find the same thing)."""
        await self._write_many(
            # ON CONFLICT ... DO NOTHING, not SQLite's INSERT OR IGNORE: both databases
            # read it, and it ignores only the key clash, never another broken rule.
            "INSERT INTO analyses (game_id, ply, score_cp, mate, best_usi)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (game_id, ply) DO NOTHING",
            [(r.game_id, r.ply, r.score_cp, r.mate, r.best_usi) for r in rows],
        )

    async def claim(
        self,
        guild_id: int,
        user_id: int,
        game_id: int,
        *,
        now: datetime,
        until: datetime,
        per_member: int,
        per_server: int,
    ) -> int | str:
        """Claim a place for an analysis under way until `until`: its claim's id, or
        `"member"` / `"server"` when the member or the server already has that many
        claims unexpired. The member's and the server's locks make claims take turns
        (counted and written in one transaction); claims expire with their lease."""
        await self._statements.lock([f"analyses:{user_id}", f"server-analyses:{guild_id}"])
        full = await self.full(guild_id, user_id, now, per_member=per_member, per_server=per_server)
        if full is not None:
            return full
        await self._write("DELETE FROM analysis_claims WHERE claimed_until <= ?", (to_us(now),))
        return await self._insert(
            "INSERT INTO analysis_claims (guild_id, user_id, game_id, claimed_until)"
            " VALUES (?, ?, ?, ?) RETURNING id",
            (guild_id, user_id, game_id, to_us(until)),
        )

    async def full(
        self, guild_id: int, user_id: int, now: datetime, *, per_member: int, per_server: int
    ) -> str | None:
        """`"member"` or `"server"` if the member or the server has that many claims
        unexpired `now`, else None."""
        for column, key, limit, full in (
            ("user_id", user_id, per_member, "member"),
            ("guild_id", guild_id, per_server, "server"),
        ):
            row = await self._one(
                f"SELECT COUNT(*) FROM analysis_claims WHERE {column} = ? AND claimed_until > ?",
                (key, to_us(now)),
            )
            if row is not None and int(row[0]) >= limit:
                return full
        return None

    async def renew(self, claim_id: int, until: datetime) -> None:
        """Move a claim's lease on: its analysis is still going."""
        await self._write(
            "UPDATE analysis_claims SET claimed_until = ? WHERE id = ?", (to_us(until), claim_id)
        )

    async def release(self, claim_id: int) -> None:
        """The analysis is over (done, refused or failed): its place is free."""
        await self._write("DELETE FROM analysis_claims WHERE id = ?", (claim_id,))

    async def of(self, game_id: int) -> list[EvaluationRow]:
        """The game's stored evaluations, by ply."""
        rows = await self._all(
            "SELECT game_id, ply, score_cp, mate, best_usi FROM analyses"
            " WHERE game_id = ? ORDER BY ply",
            (game_id,),
        )
        return [EvaluationRow(int(r[0]), int(r[1]), r[2], r[3], r[4]) for r in rows]
