"""Daily digests: who asked for one, and the last one claimed for each player.

A digest is claimed before it is sent, in a transaction of its own, with a conditional
write (`claim`): of several bot processes on one database, or a process restarted, only
the first to claim a player's digest of a given day sends it.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository
from .rows import from_us, from_us_or_none, to_us

#: The server of the player's oldest game in progress: the oldest as sente and the oldest
#: as gote, each found through its own index (one condition on either colour would read
#: every game in progress for each player).
_OLDEST_GAMES_SERVER = (
    "(SELECT g.guild_id FROM games g WHERE g.id = (SELECT MIN(m.id) FROM ("
    " SELECT MIN(s.id) AS id FROM games s WHERE s.sente_id = p.user_id AND s.status = 'active'"
    " UNION ALL"
    " SELECT MIN(o.id) AS id FROM games o WHERE o.gote_id = p.user_id AND o.status = 'active'"
    ") m))"
)


@dataclass(frozen=True, slots=True)
class DigestSubscriber:
    """A player who chose a daily digest: its local hour, their zone (None: not chosen),
    their language, when they last changed their preferences, the moment of the last
    digest claimed for them (None: never), and the server of their oldest active game
    (None: they play none), whose zone is theirs while they chose none."""

    user_id: int
    hour: int
    time_zone: str | None
    language: str | None
    chosen_at: datetime
    last_sent_for: datetime | None
    guild_id: int | None


class DigestRepository(Repository):
    async def subscribers(self) -> list[DigestSubscriber]:
        """Every player whose notifications are a daily digest."""
        rows = await self._all(
            "SELECT p.user_id, p.digest_hour, p.time_zone, p.language, p.updated_at,"
            f" d.sent_for, {_OLDEST_GAMES_SERVER}"
            " FROM player_preferences p LEFT JOIN digests d ON d.user_id = p.user_id"
            " WHERE p.notifications = 'digest' ORDER BY p.user_id"
        )
        return [
            DigestSubscriber(
                row[0], row[1], row[2], row[3], from_us(row[4]), from_us_or_none(row[5]), row[6]
            )
            for row in rows
        ]

    async def claim(self, user_id: int, slot: datetime) -> bool:
        """Mark the player's digest due at `slot` as sent; False if that one (or a later
        one) already was, so that it goes out once however many processes try."""
        return await self._landed(
            "INSERT INTO digests (user_id, sent_for) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET sent_for = excluded.sent_for"
            " WHERE digests.sent_for < excluded.sent_for",
            (user_id, to_us(slot)),
        )
