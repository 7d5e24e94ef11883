"""Per-player preferences: what each player chose for themselves, in every server.

One row per player who ever changed a preference; a player without a row has the
defaults (`PreferencesRow(user_id)`): no confirmation before a move, no direct
messages, a digest hour of 8 if they turn digests on, no zone, no quiet hours and no
language stored.

A member whose direct messages Discord refused (their inbox is closed) has a row in
`closed_inboxes` until they change their preferences.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from .base import Repository
from .rows import to_us

_COLUMNS = (
    "user_id, confirm_moves, notifications, language, digest_hour, time_zone,"
    " quiet_from, quiet_until"
)


@dataclass(frozen=True, slots=True)
class PreferencesRow:
    """A player's choices. `notifications` is 'each', 'digest' or 'none'; `language` is
    the one to write them direct messages in; hours are local to `time_zone`, and the
    quiet hours are both set or both None."""

    user_id: int
    confirm_moves: bool = False
    notifications: str = "none"
    language: str | None = None
    digest_hour: int = 8
    time_zone: str | None = None
    quiet_from: int | None = None
    quiet_until: int | None = None


def _row(values: Any) -> PreferencesRow:
    return PreferencesRow(
        values[0],
        bool(values[1]),
        values[2],
        values[3],
        values[4],
        values[5],
        values[6],
        values[7],
    )


class PreferenceRepository(Repository):
    async def get(self, user_id: int) -> PreferencesRow:
        """The player's preferences, the defaults if they never chose any."""
        row = await self._one(
            f"SELECT {_COLUMNS} FROM player_preferences WHERE user_id = ?", (user_id,)
        )
        return PreferencesRow(user_id) if row is None else _row(row)

    async def all(self) -> list[PreferencesRow]:
        """Every player's preferences who ever chose any."""
        return [_row(row) for row in await self._all(f"SELECT {_COLUMNS} FROM player_preferences")]

    async def set(self, preferences: PreferencesRow, at: datetime) -> None:
        """Store all of the player's preferences at once (the row replaces the old one)."""
        await self._write(
            f"INSERT INTO player_preferences ({_COLUMNS}, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET confirm_moves = excluded.confirm_moves,"
            " notifications = excluded.notifications, language = excluded.language,"
            " digest_hour = excluded.digest_hour, time_zone = excluded.time_zone,"
            " quiet_from = excluded.quiet_from, quiet_until = excluded.quiet_until,"
            " updated_at = excluded.updated_at",
            (
                preferences.user_id,
                int(preferences.confirm_moves),
                preferences.notifications,
                preferences.language,
                preferences.digest_hour,
                preferences.time_zone,
                preferences.quiet_from,
                preferences.quiet_until,
                to_us(at),
            ),
        )

    async def inbox_closed(self, user_id: int) -> bool:
        """Whether Discord refused the member's direct messages since they last changed
        their preferences."""
        row = await self._one("SELECT 1 FROM closed_inboxes WHERE user_id = ?", (user_id,))
        return row is not None

    async def close_inbox(self, user_id: int, at: datetime) -> None:
        """Remember that Discord refused the member's direct messages (at `at`; the first
        refusal is kept)."""
        await self._write(
            "INSERT INTO closed_inboxes (user_id, closed_at) VALUES (?, ?)"
            " ON CONFLICT (user_id) DO NOTHING",
            (user_id, to_us(at)),
        )

    async def reopen_inbox(self, user_id: int) -> None:
        """Forget the refusal: the member's direct messages are tried again."""
        await self._write("DELETE FROM closed_inboxes WHERE user_id = ?", (user_id,))
