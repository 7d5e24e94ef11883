"""Per-server settings: what a server's administrators chose for the bot there.

One row per server that changed a setting; a server without a row uses the
defaults: the language of the bot's posts in the server's game threads (NULL: follow
the server's language in Discord) and the zone its records and digests are dated in
(NULL: the default of the posts' language).
"""

from __future__ import annotations

from typing import Literal

from .base import Repository

#: The settings a server may choose, each a column of `server_settings` (NULL: the default).
Setting = Literal["language", "time_zone"]


class ServerRepository(Repository):
    async def language(self, guild_id: int) -> str | None:
        """The language chosen for the server's posts, or None to follow Discord's."""
        return await self._chosen(guild_id, "language")

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """Choose the language of the server's posts; None goes back to Discord's."""
        await self._choose(guild_id, "language", language)

    async def time_zone(self, guild_id: int) -> str | None:
        """The zone chosen for the server (an IANA name), or None for its language's."""
        return await self._chosen(guild_id, "time_zone")

    async def set_time_zone(self, guild_id: int, name: str | None) -> None:
        """Choose the server's zone; None goes back to the default of its language."""
        await self._choose(guild_id, "time_zone", name)

    async def _chosen(self, guild_id: int, setting: Setting) -> str | None:
        row = await self._one(
            f"SELECT {setting} FROM server_settings WHERE guild_id = ?", (guild_id,)
        )
        return None if row is None else row[0]

    async def _choose(self, guild_id: int, setting: Setting, value: str | None) -> None:
        """One setting of the server, its row made if it had none (its other settings kept)."""
        await self._write(
            f"INSERT INTO server_settings (guild_id, {setting}) VALUES (?, ?)"
            f" ON CONFLICT (guild_id) DO UPDATE SET {setting} = excluded.{setting}",
            (guild_id, value),
        )
