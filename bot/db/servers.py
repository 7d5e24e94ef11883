"""Per-server settings: what a server's administrators chose for the bot there.

One row per server that changed a setting; a server without a row uses the
defaults: the language of the bot's posts in the server's game threads (NULL: follow
the server's language in Discord) and the zone its records and digests are dated in
(NULL: the default of the posts' language).
"""

from __future__ import annotations

from .base import Repository


class ServerRepository(Repository):
    async def language(self, guild_id: int) -> str | None:
        """The language chosen for the server's posts, or None to follow Discord's."""
        row = await self._one(
            "SELECT language FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of the server's posts; None goes back to Discord's."""
        await self._write(
            "INSERT INTO server_settings (guild_id, language) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )

    async def time_zone(self, guild_id: int) -> str | None:
        """The zone chosen for the server (an IANA name), or None for its language's."""
        row = await self._one(
            "SELECT time_zone FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def set_time_zone(self, guild_id: int, name: str | None) -> None:
        """Choose the server's zone; None goes back to the default of its language."""
        await self._write(
            "INSERT INTO server_settings (guild_id, time_zone) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET time_zone = excluded.time_zone",
            (guild_id, name),
        )
