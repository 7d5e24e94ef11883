"""Players and challenges."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import (
    ChallengeRow,
    NewChallenge,
    PlayerRow,
    from_us,
    from_us_or_none,
    to_us,
)
from .shards import ShardScope, scope_sql
from .terms import TERMS_COLUMNS, terms_columns, terms_of, terms_params


class PlayerRepository(Repository):
    async def upsert(self, player: PlayerRow, now: datetime) -> None:
        """Remember a player's current display name (names change; ids do not)."""
        await self._write(
            "INSERT INTO players (user_id, name, is_bot, updated_at) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET name = excluded.name,"
            " is_bot = excluded.is_bot, updated_at = excluded.updated_at",
            (player.user_id, player.name, int(player.is_bot), to_us(now)),
        )

    async def get(self, user_id: int) -> PlayerRow | None:
        row = await self._one(
            "SELECT user_id, name, is_bot FROM players WHERE user_id = ?", (user_id,)
        )
        return None if row is None else PlayerRow(row[0], row[1], bool(row[2]))


_CHALLENGE_COLUMNS = f"""
    c.id, c.guild_id, c.channel_id,
    c.challenger_id, a.name, a.is_bot, c.opponent_id, b.name, b.is_bot,
    c.color, {terms_columns("c")}, c.start_sfen, c.status,
    c.created_at, c.expires_at, c.message_id, c.game_id, c.rematch_of
FROM challenges c
JOIN players a ON a.user_id = c.challenger_id
LEFT JOIN players b ON b.user_id = c.opponent_id
"""


def _challenge(row: Row) -> ChallengeRow:
    return ChallengeRow(
        id=row[0],
        guild_id=row[1],
        channel_id=row[2],
        challenger=PlayerRow(row[3], row[4], bool(row[5])),
        opponent=None if row[6] is None else PlayerRow(row[6], row[7], bool(row[8])),
        color=row[9],
        terms=terms_of(row, 10),
        start_sfen=row[16],
        status=row[17],
        created_at=from_us(row[18]),
        expires_at=from_us(row[19]),
        message_id=row[20],
        game_id=row[21],
        rematch_of=row[22],
    )


@dataclass(frozen=True, slots=True)
class NamedRefusal:
    """Why a challenge naming a member was not stored: the member `"declined"` one of its
    author's `at` that time; the author already `"asked"` them that many times lately, the
    oldest of those counted `at` that time; or the author's open challenges are `"full"`."""

    reason: str
    at: datetime | None = None


class ChallengeRepository(Repository):
    async def create(self, new: NewChallenge) -> int:
        """Store an open challenge; `Conflict` if it is a rematch of a game that already
        has one open or accepted."""
        return await self._insert(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color,"
            f" {TERMS_COLUMNS}, start_sfen, status, created_at, expires_at, rematch_of)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?) RETURNING id",
            (
                new.guild_id,
                new.channel_id,
                new.challenger_id,
                new.opponent_id,
                new.color,
                *terms_params(new.terms),
                new.start_sfen,
                to_us(new.created_at),
                to_us(new.expires_at),
                new.rematch_of,
            ),
        )

    async def create_open(self, new: NewChallenge, *, limit: int) -> int | None:
        """Store a challenge to anyone unless its author already has `limit` of them open
        and unexpired in its server (None then). The author's lock makes their offers take
        turns: on PostgreSQL, under READ COMMITTED, two offers counting at once would each
        miss the other's uncommitted row and both go in over the limit."""
        if new.opponent_id is not None:
            raise ValueError("only a challenge to anyone counts towards the limit")
        await self._statements.lock([f"open-challenges:{new.guild_id}:{new.challenger_id}"])
        row = await self._one(
            "SELECT COUNT(*) FROM challenges WHERE guild_id = ? AND challenger_id = ?"
            " AND opponent_id IS NULL AND status = 'open' AND expires_at > ?",
            (new.guild_id, new.challenger_id, to_us(new.created_at)),
        )
        if row is not None and int(row[0]) >= limit:
            return None
        return await self.create(new)

    async def create_named(
        self, new: NewChallenge, *, limit: int, per_member: int, since: datetime
    ) -> int | NamedRefusal:
        """Store a challenge naming a member: its id; or, storing nothing, why not (a
        `NamedRefusal`): its member declined one of its author's in the server after
        `since`; or the author sent them `per_member` challenges there after `since` that
        did not become a game (withdrawn and sent again, each pinging them); or the author
        already has `limit` challenges naming a member open and unexpired there (those to
        the bot itself are not counted: they are answered at once). Under the author's
        lock, as `create_open`; all counted in one statement."""
        if new.opponent_id is None:
            raise ValueError("only a challenge naming a member counts towards this limit")
        await self._statements.lock([f"named-challenges:{new.guild_id}:{new.challenger_id}"])
        pair = (new.guild_id, new.challenger_id, new.opponent_id, to_us(since))
        row = await self._one(
            "SELECT (SELECT MAX(declined_at) FROM challenges WHERE guild_id = ?"
            " AND challenger_id = ? AND opponent_id = ? AND status = 'declined'"
            " AND declined_at > ?),"
            " (SELECT created_at FROM challenges WHERE guild_id = ? AND challenger_id = ?"
            " AND opponent_id = ? AND status <> 'accepted' AND created_at > ?"
            " ORDER BY created_at DESC LIMIT 1 OFFSET ?),"
            " (SELECT COUNT(*) FROM challenges c JOIN players b ON b.user_id = c.opponent_id"
            " WHERE c.guild_id = ? AND c.challenger_id = ? AND c.status = 'open'"
            " AND c.expires_at > ? AND b.is_bot = 0)",
            (
                *pair,
                *pair,
                per_member - 1,
                new.guild_id,
                new.challenger_id,
                to_us(new.created_at),
            ),
        )
        assert row is not None
        if row[0] is not None:
            return NamedRefusal("declined", from_us(row[0]))
        if row[1] is not None:
            return NamedRefusal("asked", from_us(row[1]))
        if int(row[2]) >= limit:
            return NamedRefusal("full")
        return await self.create(new)

    async def decline(self, challenge_id: int, at: datetime) -> bool:
        """Mark an open challenge declined `at`; False if it was no longer open (a race)."""
        return await self._landed(
            "UPDATE challenges SET status = 'declined', declined_at = ?"
            " WHERE id = ? AND status = 'open'",
            (to_us(at), challenge_id),
        )

    async def get(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(f"SELECT {_CHALLENGE_COLUMNS} WHERE c.id = ?", (challenge_id,))
        return None if row is None else _challenge(row)

    async def open_between(
        self, guild_id: int, first: int, second: int, now: datetime
    ) -> ChallengeRow | None:
        """An open, unexpired challenge between two players in a guild, either way round."""
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} WHERE c.guild_id = ? AND c.status = 'open'"
            " AND c.expires_at > ? AND ((c.challenger_id = ? AND c.opponent_id = ?)"
            " OR (c.challenger_id = ? AND c.opponent_id = ?)) ORDER BY c.id LIMIT 1",
            (guild_id, to_us(now), first, second, second, first),
        )
        return None if row is None else _challenge(row)

    async def rematch_of(self, game_id: int) -> ChallengeRow | None:
        """The rematch of a game that is open (perhaps past its expiry) or accepted, if any."""
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} WHERE c.rematch_of = ?"
            " AND c.status IN ('open', 'accepted')",
            (game_id,),
        )
        return None if row is None else _challenge(row)

    async def close(self, challenge_id: int, status: str, *, game_id: int | None = None) -> bool:
        """Move an open challenge to `status`; False if it was no longer open (a race)."""
        return await self._landed(
            "UPDATE challenges SET status = ?, game_id = ? WHERE id = ? AND status = 'open'",
            (status, game_id, challenge_id),
        )

    async def set_message(self, challenge_id: int, message_id: int | None) -> bool:
        return await self._landed(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    async def expired(self, now: datetime, scope: ShardScope | None = None) -> list[ChallengeRow]:
        """Open challenges whose week is over, oldest first (of `scope`'s servers)."""
        mine, shards = scope_sql(scope, "c.guild_id")
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} WHERE c.status = 'open' AND c.expires_at <= ?{mine}"
            " ORDER BY c.expires_at, c.id",
            (to_us(now), *shards),
        )
        return [_challenge(row) for row in rows]

    async def next_expiry(self, scope: ShardScope | None = None) -> datetime | None:
        mine, shards = scope_sql(scope, "guild_id")
        row = await self._one(
            f"SELECT MIN(expires_at) FROM challenges WHERE status = 'open'{mine}", shards
        )
        return None if row is None else from_us_or_none(row[0])
