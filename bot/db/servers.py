"""Per-server settings: what a server's administrators chose for the bot there.

One row per server that changed a setting; a server without a row uses the
defaults. Today the one setting is the language of the bot's posts in the
server's game threads (NULL: follow the server's language in Discord).
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
