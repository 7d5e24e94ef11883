"""An event's games' records as ZIP archives attached to its final post: a tournament's
and a team match's alike.

The records are written in a worker process (a season's records hold the interpreter for
seconds, `bot.services.records.archive`); each game is packed for it as it is read, not
all at once, so no single step holds the event loop. A failure costs the archive, never
the post: the post goes without it.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import tzinfo

import discord

from bot.services.records.archive import (
    ArchivePart,
    archive_in_worker,
    archive_seconds,
    archived_game,
    packed,
)

from .host import GameBot

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Placed:
    """One finished game of the event and where its file is filed: its round, its board
    and which game of the pairing it is (all from 1)."""

    game_id: int
    round: int
    board: int
    number: int = 1


async def event_archive(
    bot: GameBot,
    event: str,
    games: Sequence[Placed],
    *,
    zone: tzinfo,
    limit: int,
    stem: str,
    about: str,
) -> tuple[ArchivePart, ...]:
    """The games' records as ZIPs of at most `limit` bytes each, named `{stem}.zip` (or
    `{stem}-1-of-2.zip`...), every record's event header `event`; none if there is no
    game or writing them fails (logged as `about`'s).

    Example: `await event_archive(bot, "春季リーグ", [Placed(12, 1, 1)], zone=UTC,
    limit=8_000_000, stem="tournament", about="tournament 3")` is one part holding game 12.
    """
    packs: list[bytes] = []
    for place in games:
        snapshot = await bot.service.games.get(place.game_id)
        archived = archived_game(
            snapshot, round=place.round, board=place.board, number=place.number, zone=zone
        )
        packs.append(packed(archived))  # each on its own: all at once holds the loop
    if not packs:
        return ()
    try:
        return await bot.readers.run(
            archive_in_worker, event, packs, limit, stem, time_limit=archive_seconds(len(packs))
        )
    except Exception:
        log.exception("%s: could not write its archive", about)
        return ()


async def send_with_archive(
    channel: discord.abc.Messageable,
    said: str,
    files: list[discord.File],
    parts: Sequence[ArchivePart],
) -> None:
    """A final post with its files and the archive's first part, then one post for each
    further part (each within the upload limit on its own)."""
    quiet = discord.AllowedMentions.none()
    first = [_attached(part) for part in parts[:1]]
    await channel.send(said, files=files + first, allowed_mentions=quiet)
    for part in parts[1:]:
        await channel.send(files=[_attached(part)], allowed_mentions=quiet)


def _attached(part: ArchivePart) -> discord.File:
    return discord.File(io.BytesIO(part.data), filename=part.filename)
