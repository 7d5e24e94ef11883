"""Per-player preferences: confirming moves, and a direct message when a turn comes.

The Discord layer reads them at every `/move` (does this player confirm first?) and at
every new turn (do they want a message?). They are read from the database once, all of
them (one small row per player who ever chose), and then kept in memory, as the servers'
languages are; a player changes them only through this part. A query per `/move` would
cost a round trip to the database before the move is even loaded, and one for some
players but not others would change who wins when two moves of one game arrive together.
Several bot processes on one database cannot keep copies (a change made through one
would not be seen by the others): there (`read_through`) each use reads the player's
row, for every player alike.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.db import PreferencesRow, Session

from .servers import POST_LANGUAGES
from .store import GameStore
from .values import Preferences

DEFAULTS = Preferences()  # a player who never chose: no confirmation, no messages


class PlayerPreferences:
    """Each player's choices; a player who never chose has `Preferences()` (all off)."""

    def __init__(self, store: GameStore, *, read_through: bool = False) -> None:
        self._store = store
        self._read_through = read_through
        self._known: dict[int, Preferences] | None = None  # every player who chose any
        self._loading = asyncio.Lock()

    async def of(self, user_id: int) -> Preferences:
        """The player's preferences (the defaults if they never chose)."""
        if self._read_through:
            async with self._store.db.query() as q:
                return _preferences(await q.preferences.get(user_id))
        known = self._known if self._known is not None else await self._load()
        return known.get(user_id, DEFAULTS)

    async def _load(self) -> dict[int, Preferences]:
        async with self._loading:  # the first readers wait for one query, not one each
            if self._known is None:
                async with self._store.db.query() as q:
                    rows = await q.preferences.all()
                self._known = {row.user_id: _preferences(row) for row in rows}
            return self._known

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
        if not self._read_through:
            known = self._known if self._known is not None else await self._load()
            known[user_id] = chosen
        return chosen


def _preferences(row: PreferencesRow) -> Preferences:
    return Preferences(row.confirm_moves, row.turn_messages, row.language)
