"""Exporting a game: the record as a file, and a link to analyse it on lishogi.

The writers live in `rules.notation` (KIF, KI2, CSA, USI, SFEN and the link);
this only picks the game, its players' names and start time, and a file name, and for
a private export the asker's own notes as comments. The analysis link comes only with a
finished game's record: lishogi's analysis board runs an engine, and a player must not
consult one mid-game (`/analyse` refuses active games for the same reason).
The stored result is on the replayed game (`Game.outcome`), so a resignation or
a loss on time is written as such, not as an unfinished game.
"""

from __future__ import annotations

from rules import Sentence
from rules.notation import analysis_link, write_record

from .errors import ServiceError
from .notes import Notes
from .store import GameStore
from .values import ExportFile

#: The record formats, each with the file-name ending it is exported under.
FORMATS = {"kif": "kif", "ki2": "ki2", "csa": "csa", "sfen": "sfen.txt", "usi": "usi.txt"}


class Exports:
    """Game records as files."""

    def __init__(self, store: GameStore, notes: Notes) -> None:
        self._store = store
        self._notes = notes

    async def file(
        self,
        game_id: int,
        fmt: str,
        *,
        guild_id: int | None = None,
        notes_of: int | None = None,
    ) -> ExportFile:
        """The game's record in `fmt` (kif, ki2, csa, sfen, usi), also of an active game;
        a finished game's comes with a lishogi analysis link. `notes_of`: the member whose
        private notes go into the record as comments at their plies (KIF, KI2, CSA). Only a
        record shown to that member alone may carry them: a record posted for everyone is
        asked without.

        Example: `(await service.exports.file(1, "kif")).filename` is `"game-1.kif"`.
        """
        name = fmt.strip().lower()
        if name not in FORMATS:
            raise ServiceError(
                Sentence("Choose a record format among {formats}.", formats=", ".join(FORMATS))
            )
        loaded = await self._store.current(game_id, guild_id=guild_id)
        row = loaded.row
        comments = None if notes_of is None else await self._notes.by_ply(game_id, notes_of)
        content = write_record(
            loaded.game,
            name,
            sente=row.sente.name,
            gote=row.gote.name,
            started=row.started_at,
            comments=comments,
        )
        if not content.endswith("\n"):
            content += "\n"
        return ExportFile(
            filename=f"game-{game_id}.{FORMATS[name]}",
            content=content,
            analysis_url=None if loaded.is_active else analysis_link(loaded.game),
        )
