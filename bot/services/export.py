"""Exporting a game: the record as a file, and a link to analyse it on lishogi.

The writers live in `rules.notation` (KIF, KI2, CSA, USI, SFEN and the link);
this only picks the game, its players' names and start time, and a file name.
The stored result is on the replayed game (`Game.outcome`), so a resignation or
a loss on time is written as such, not as an unfinished game.
"""

from __future__ import annotations

from rules.notation import analysis_link, write_record

from .base import ServiceBase
from .errors import ServiceError
from .views import ExportedRecord

FORMATS = ("kif", "ki2", "csa", "sfen", "usi")
_EXTENSIONS = {"kif": "kif", "ki2": "ki2", "csa": "csa", "sfen": "sfen.txt", "usi": "usi.txt"}


class ExportService(ServiceBase):
    async def export(self, game_id: int, fmt: str) -> ExportedRecord:
        """The game's record in `fmt` (kif, ki2, csa, sfen, usi) with a lishogi analysis
        link; finished games too.

        Example: `(await service.export(1, "kif")).filename` is `"game-1.kif"`.
        """
        name = fmt.strip().lower()
        if name not in FORMATS:
            raise ServiceError(f"Choose a record format among {', '.join(FORMATS)}.")
        loaded = await self._current(game_id)
        record = loaded.record
        content = write_record(
            loaded.game,
            name,
            sente=record.sente.name,
            gote=record.gote.name,
            started=record.started_at,
        )
        if not content.endswith("\n"):
            content += "\n"
        return ExportedRecord(
            filename=f"game-{game_id}.{_EXTENSIONS[name]}",
            content=content,
            analysis_url=analysis_link(loaded.game),
        )
