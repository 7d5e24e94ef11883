"""Exporting a game: the record as a file, and a link to analyse it on lishogi."""

from __future__ import annotations

from .base import ServiceBase
from .errors import ServiceError
from .loading import Loaded
from .views import ExportedRecord

FORMATS = ("kif", "ki2", "csa", "sfen", "usi")
LISHOGI_ANALYSIS = "https://lishogi.org/analysis/"
MAX_LINK_MOVES = 300


def analysis_url(loaded: Loaded) -> str:
    """The game on lishogi's analysis board: start SFEN and moves in the URL. Beyond 300
    moves the link starts from the position 300 moves before the end."""
    game = loaded.game
    start = max(0, len(game.moves) - MAX_LINK_MOVES)
    sfen = game.position_at(start).sfen() if start else game.start.sfen()
    moves = "_".join(move.usi() for move in game.moves[start:])
    url = LISHOGI_ANALYSIS + sfen.replace(" ", "_")
    if moves:
        url += "?moves=" + moves
    return url.replace("+", "%2B")


def _usi(loaded: Loaded) -> str:
    moves = " ".join(move.usi() for move in loaded.game.moves)
    text = f"position sfen {loaded.game.start.sfen()}"
    return f"{text} moves {moves}\n" if moves else text + "\n"


class ExportService(ServiceBase):
    async def export(self, game_id: int, fmt: str) -> ExportedRecord:
        """The game's record in `fmt` (kif, ki2, csa, sfen, usi) with an analysis link;
        finished games too."""
        name = fmt.strip().lower()
        if name not in FORMATS:
            raise ServiceError(f"Choose a record format among {', '.join(FORMATS)}.")
        loaded = await self._current(game_id)
        if name == "sfen":
            content = loaded.game.position.sfen() + "\n"
        elif name == "usi":
            content = _usi(loaded)
        else:
            raise ServiceError(f"{name.upper()} export is not available yet.")
        return ExportedRecord(
            filename=f"game-{game_id}.{name}", content=content, analysis_url=analysis_url(loaded)
        )
