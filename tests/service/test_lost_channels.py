"""Channels and threads Discord said are gone: remembered in the database every bot
process shares, so none of them asks Discord about one again."""

from __future__ import annotations

from pathlib import Path

from bot.db import open_database
from bot.services import GameService


async def test_a_lost_channel_is_known_to_every_process(shared_location: str | Path) -> None:
    """A thread Discord said is gone, seen through one process, is gone for another and
    for a process started afterwards; other channels are not."""
    first, second = [await open_database(shared_location) for _ in range(2)]
    try:
        one, other = GameService(first, shared_database=True), GameService(second)
        assert not await other.lost_channels.lost(77)
        await one.lost_channels.lose(77)
        await one.lost_channels.lose(77)  # seen gone twice at once: one mark
        assert await other.lost_channels.lost(77) and not await other.lost_channels.lost(78)
        await first.close()
        first = await open_database(shared_location)
        assert await GameService(first).lost_channels.lost(77)
    finally:
        await first.close()
        await second.close()
