"""Per-player preferences: what each player chose for themselves, in every server.

One row per player who ever changed a preference; a player without a row has the
defaults (`PreferencesRow(user_id)`): no confirmation before a move, no direct
message on their turn, no language stored.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository
from .rows import to_us


@dataclass(frozen=True, slots=True)
class PreferencesRow:
    """A player's choices; `language` is the one to write them direct messages in."""

    user_id: int
    confirm_moves: bool = False
    turn_messages: bool = False
    language: str | None = None


class PreferenceRepository(Repository):
    async def get(self, user_id: int) -> PreferencesRow:
        """The player's preferences, the defaults if they never chose any."""
        row = await self._one(
            "SELECT confirm_moves, turn_messages, language FROM player_preferences"
            " WHERE user_id = ?",
            (user_id,),
        )
        if row is None:
            return PreferencesRow(user_id)
        return PreferencesRow(user_id, bool(row[0]), bool(row[1]), row[2])

    async def all(self) -> list[PreferencesRow]:
        """Every player's preferences who ever chose any."""
        rows = await self._all(
            "SELECT user_id, confirm_moves, turn_messages, language FROM player_preferences"
        )
        return [PreferencesRow(row[0], bool(row[1]), bool(row[2]), row[3]) for row in rows]

    async def set(self, preferences: PreferencesRow, at: datetime) -> None:
        """Store all of the player's preferences at once (the row replaces the old one)."""
        await self._write(
            "INSERT INTO player_preferences"
            " (user_id, confirm_moves, turn_messages, language, updated_at)"
            " VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (user_id) DO UPDATE SET confirm_moves = excluded.confirm_moves,"
            " turn_messages = excluded.turn_messages, language = excluded.language,"
            " updated_at = excluded.updated_at",
            (
                preferences.user_id,
                int(preferences.confirm_moves),
                int(preferences.turn_messages),
                preferences.language,
                to_us(at),
            ),
        )
