"""Channels and threads Discord says are gone: a game's thread a moderator deleted is not
posted to again, by any process (a post there would only be refused)."""

from __future__ import annotations

from datetime import datetime

from .base import Repository
from .rows import to_us


class LostChannelRepository(Repository):
    async def is_lost(self, channel_id: int) -> bool:
        """Whether Discord said the channel or thread is gone."""
        row = await self._one("SELECT 1 FROM lost_channels WHERE channel_id = ?", (channel_id,))
        return row is not None

    async def mark_lost(self, channel_id: int, at: datetime) -> None:
        """Remember that the channel or thread is gone (the first time it was seen so)."""
        await self._write(
            "INSERT INTO lost_channels (channel_id, lost_at) VALUES (?, ?)"
            " ON CONFLICT (channel_id) DO NOTHING",
            (channel_id, to_us(at)),
        )
