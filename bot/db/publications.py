"""The slash commands the bot last published, per application and scope.

Publishing is a bulk overwrite on Discord's side, so one row per scope says
everything: which commands (as a digest of the payload) are there and when
they were put there. The global scope is stored as guild 0, because SQLite
refuses NULL in the primary key of a `WITHOUT ROWID` table and no Discord id
is 0; the row gives it back as `guild_id=None`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from .base import Repository, Row
from .rows import from_us, to_us

_GLOBAL = 0


@dataclass(frozen=True, slots=True)
class PublicationRow:
    """One scope's published commands: `guild_id` None is the global scope."""

    application_id: int
    guild_id: int | None
    digest: str
    command_count: int
    published_at: datetime


def _scope(guild_id: int | None) -> int:
    return _GLOBAL if guild_id is None else guild_id


def _publication(row: Row) -> PublicationRow:
    return PublicationRow(
        application_id=row[0],
        guild_id=None if row[1] == _GLOBAL else row[1],
        digest=row[2],
        command_count=row[3],
        published_at=from_us(row[4]),
    )


_COLUMNS = "application_id, guild_id, digest, command_count, published_at"


class PublicationRepository(Repository):
    async def for_application(self, application_id: int) -> list[PublicationRow]:
        """Every scope where this application's commands were published (global first).

        Keyed by application: a token for another application can neither see nor
        remove the first one's commands, so its rows must not be mistaken for ours.
        """
        rows = await self._all(
            f"SELECT {_COLUMNS} FROM command_publications WHERE application_id = ?"
            " ORDER BY guild_id",
            (application_id,),
        )
        return [_publication(row) for row in rows]

    async def get(self, application_id: int, guild_id: int | None) -> PublicationRow | None:
        row = await self._one(
            f"SELECT {_COLUMNS} FROM command_publications"
            " WHERE application_id = ? AND guild_id = ?",
            (application_id, _scope(guild_id)),
        )
        return None if row is None else _publication(row)

    async def save(self, publication: PublicationRow) -> None:
        """Record what a bulk overwrite just put in a scope (replacing the previous row)."""
        await self._write(
            f"INSERT INTO command_publications ({_COLUMNS}) VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (application_id, guild_id) DO UPDATE SET digest = excluded.digest,"
            " command_count = excluded.command_count, published_at = excluded.published_at",
            (
                publication.application_id,
                _scope(publication.guild_id),
                publication.digest,
                publication.command_count,
                to_us(publication.published_at),
            ),
        )

    async def forget(self, application_id: int, guild_id: int | None) -> bool:
        """Drop a scope whose commands were removed; False if there was no row."""
        return await self._landed(
            "DELETE FROM command_publications WHERE application_id = ? AND guild_id = ?",
            (application_id, _scope(guild_id)),
        )
