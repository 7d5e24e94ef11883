"""Per-server settings: the language of the bot's posts in a server, and its time zone.

Every post in a game thread is worded in its server's language; reading it from
the database for each post would cost a query per move, so the choice is kept
in memory once read (a server changes it rarely, and only through this part).
With several bot processes on one database, a choice made through another
process would not be seen: then (`read_through`) it is read at each use.
"""

from __future__ import annotations

import zoneinfo
from collections.abc import Awaitable, Callable

from bot.db.servers import ServerRepository

from ..play.store import GameStore
from .zones import default_zone, zone_named

#: The languages a server may choose for its posts.
POST_LANGUAGES = ("en", "ja")


class Servers:
    """What each server chose; `language(guild_id)` is None where it follows Discord."""

    def __init__(self, store: GameStore, *, read_through: bool = False) -> None:
        self._store = store
        self._read_through = read_through
        self._languages: dict[int, str | None] = {}
        self._zones: dict[int, str | None] = {}

    async def language(self, guild_id: int) -> str | None:
        """The language chosen for the server's posts, or None to follow the server's
        language in Discord."""
        return await self._chosen(self._languages, guild_id, ServerRepository.language)

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of the server's posts (one of `POST_LANGUAGES`), or None to
        follow the server's language in Discord."""
        if language is not None and language not in POST_LANGUAGES:
            raise ValueError(f"no catalogs for language {language!r}")
        async with self._store.db.transaction() as tx:
            await tx.servers.set_language(guild_id, language)
        self._languages[guild_id] = language

    async def zone(self, guild_id: int, language: str) -> zoneinfo.ZoneInfo:
        """The zone the server's records and digests are dated in: the one its
        administrators chose, else the default of `language`, its posts' language."""
        chosen = await self.chosen_zone(guild_id)
        return default_zone(language) if chosen is None else zoneinfo.ZoneInfo(chosen)

    async def chosen_zone(self, guild_id: int) -> str | None:
        """The name of the zone the server's administrators chose, None if they chose none."""
        return await self._chosen(self._zones, guild_id, ServerRepository.time_zone)

    async def _chosen(
        self,
        known: dict[int, str | None],
        guild_id: int,
        read: Callable[[ServerRepository, int], Awaitable[str | None]],
    ) -> str | None:
        """A setting of the server: from `known` (its cache) once read, or read at each
        use where other processes may change it."""
        if self._read_through or guild_id not in known:
            async with self._store.db.query() as tx:
                chosen = await read(tx.servers, guild_id)
            if self._read_through:
                return chosen
            known[guild_id] = chosen
        return known[guild_id]

    async def set_zone(self, guild_id: int, name: str | None) -> zoneinfo.ZoneInfo | None:
        """Choose the server's zone by its IANA name (refused with a sentence if unknown),
        or None to go back to its language's; returns the zone chosen."""
        zone = None if name is None else zone_named(name)
        async with self._store.db.transaction() as tx:
            await tx.servers.set_time_zone(guild_id, None if zone is None else zone.key)
        self._zones[guild_id] = None if zone is None else zone.key
        return zone
