"""Per-player preferences: confirming moves, and a direct message when a turn comes.

The Discord layer reads them at every `/move` (does this player confirm first?) and at
every new turn (do they want a message?), so once read they are kept in memory, as the
servers' languages are; a player changes them only through this part. Several bot
processes on one database would each keep their own copy: a change made through one is
seen by the others after their restart.
"""

from __future__ import annotations

from dataclasses import replace

from bot.db import PreferencesRow, Session

from .servers import POST_LANGUAGES
from .store import GameStore
from .values import Preferences


class PlayerPreferences:
    """Each player's choices; a player who never chose has `Preferences()` (all off)."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._known: dict[int, Preferences] = {}

    async def of(self, user_id: int) -> Preferences:
        """The player's preferences (the defaults if they never chose)."""
        known = self._known.get(user_id)
        if known is None:
            async with self._store.db.query() as q:
                row = await q.preferences.get(user_id)
            known = self._known[user_id] = _preferences(row)
        return known

    async def change(
        self,
        user_id: int,
        *,
        confirm_moves: bool | None = None,
        turn_messages: bool | None = None,
        language: str | None = None,
    ) -> Preferences:
        """Change the preferences given (None keeps one as it is) and return them all.
        `language` is the one to write the player's direct messages in (one of the
        languages the bot speaks); nothing is written if nothing changed."""
        if language is not None and language not in POST_LANGUAGES:
            raise ValueError(f"no catalogs for language {language!r}")
        now = self._store.now()

        async def store(tx: Session) -> Preferences:
            # Read and write in one transaction: two changes at once (two devices) each
            # keep what the other changed.
            current = await tx.preferences.get(user_id)
            wanted = replace(
                current,
                confirm_moves=current.confirm_moves if confirm_moves is None else confirm_moves,
                turn_messages=current.turn_messages if turn_messages is None else turn_messages,
                language=current.language if language is None else language,
            )
            if wanted != current:
                await tx.preferences.set(wanted, now)
            return _preferences(wanted)

        chosen = await self._store.db.run(store)
        self._known[user_id] = chosen
        return chosen


def _preferences(row: PreferencesRow) -> Preferences:
    return Preferences(row.confirm_moves, row.turn_messages, row.language)
