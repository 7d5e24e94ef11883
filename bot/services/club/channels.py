"""Channels and threads Discord says are gone (a moderator deleted a game's thread): the
bot does not post there again, nor ask Discord about them, from any process and after a
restart too. A post to a channel that is gone is answered 404 every time, each one a
request spent for nothing; the game's posts go to the channel it started in instead.
"""

from __future__ import annotations

from bot.db import Session

from ..play.store import GameStore


class LostChannels:
    """Which channels and threads are gone, in the database every process shares."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def lost(self, channel_id: int) -> bool:
        """Whether Discord said the channel or thread is gone."""
        async with self._store.db.query() as q:
            return await q.lost_channels.is_lost(channel_id)

    async def lose(self, channel_id: int) -> None:
        """Discord said the channel or thread is gone (404, Unknown Channel): nothing is
        posted there again."""
        now = self._store.now()

        async def store(tx: Session) -> None:
            await tx.lost_channels.mark_lost(channel_id, now)

        await self._store.db.run(store)
