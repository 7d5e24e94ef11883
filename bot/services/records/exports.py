"""Exporting a game: the record as a file, and a link to analyse it on lishogi.

The writers live in `rules.notation` (KIF, KI2, CSA, USI, SFEN, the files' encodings and
the link); this picks the game, its players' names and the headers Japanese software
shows (`開始日時` and `終了日時` in the server's time zone, `棋戦`, `場所`, `持ち時間`), a file
name, and for a private export the asker's own notes as comments. `.kif` and `.ki2` are
Shift_JIS, as Japanese software reads them, with each character Shift_JIS lacks (an emoji
in a name) written as 〓 (`rules.notation.charsets`); `.kifu` and `.ki2u` are the same
records in UTF-8. The analysis link comes only with a finished game's record: lishogi's
analysis board runs an engine, and a player must not consult one mid-game (`/analyse`
refuses active games for the same reason).
The stored result is on the replayed game (`Game.outcome`), so a resignation or
a loss on time is written as such, not as an unfinished game.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, timedelta, tzinfo

from bot.db import GameRow
from rules import Sentence
from rules.notation import RECORD_FILES, Record, analysis_link, record_time, write_record_file
from rules.openings import classify_game, comment_lines, opening_headers

from ..errors import ServiceError
from ..play.notes import Notes
from ..play.store import GameStore


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A game's record written in one format, ready to attach, with an analysis link once
    the game is over (None while it goes on). `data` is the file's bytes in `encoding`
    (Shift_JIS for `.kif` and `.ki2`); `replaced` counts the characters of names and
    notes that encoding has no place for, written as 〓."""

    filename: str
    data: bytes
    encoding: str
    analysis_url: str | None
    replaced: int = 0

    @property
    def content(self) -> str:
        """The record's text, as a program reading the file as text gets it (each line
        ending with one line feed)."""
        return self.data.decode(self.encoding).replace("\r\n", "\n")


#: The record formats, each with the file-name ending it is exported under: `kif` and `ki2`
#: in Shift_JIS, `kifu` and `ki2u` the same in UTF-8.
FORMATS = {
    "kif": "kif",
    "kifu": "kifu",
    "ki2": "ki2",
    "ki2u": "ki2u",
    "csa": "csa",
    "sfen": "sfen.txt",
    "usi": "usi.txt",
}

_UNITS = ((86_400, "日"), (3_600, "時間"), (60, "分"))


def _duration(duration: timedelta) -> str:
    seconds = int(duration.total_seconds())
    parts = []
    for size, unit in _UNITS:
        amount, seconds = divmod(seconds, size)
        if amount:
            parts.append(f"{amount}{unit}")
    return "".join(parts) or "0分"


def time_control_words(bank: timedelta, period: timedelta | None) -> str:
    """A time control as a KIF's `持ち時間` says it, in the words of the bot's Japanese
    (日, 時間, 分, 1手): a record's headers are Japanese whoever reads them.

    >>> time_control_words(timedelta(days=7), timedelta(days=1))
    '7日＋1手1日'
    >>> time_control_words(timedelta(), timedelta(hours=36)), time_control_words(timedelta(), None)
    ('1手1日12時間', '無制限')
    """
    if period is None:
        return "無制限"
    per_move = f"1手{_duration(period)}"
    return f"{_duration(bank)}＋{per_move}" if bank else per_move


def record_headers(
    row: GameRow, *, zone: tzinfo, finished: bool, event: str | None, site: str | None
) -> dict[str, str]:
    """The headers after `開始日時`, in Kifu for Windows' order: `終了日時` (a game that
    ended), `棋戦` (`event`, the server), `場所` (`site`, the bot) and `持ち時間`."""
    headers = {}
    if finished and row.finished_at is not None:
        headers["終了日時"] = record_time(row.finished_at.astimezone(zone))
    if event is not None:
        headers["棋戦"] = event
    if site is not None:
        headers["場所"] = site
    headers["持ち時間"] = time_control_words(row.terms.bank, row.terms.period)
    return headers


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
        zone: tzinfo = UTC,
        event: str | None = None,
        site: str | None = None,
    ) -> ExportFile:
        """The game's record in `fmt` (kif, kifu, ki2, ki2u, csa, sfen, usi), also of an
        active game; a finished game's comes with a lishogi analysis link. `notes_of`: the
        member whose private notes go into the record as comments at their plies (KIF, KI2,
        CSA). Only a record shown to that member alone may carry them: a record posted for
        everyone is asked without. `zone`: the time zone its dates are written in (records
        have no place to name one); `event` and `site`: its `棋戦` and `場所` (a
        tournament's game names its tournament as its `棋戦`, whatever `event` says).

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
        async with self._store.db.read() as tx:
            scheduled = await tx.tournaments.of_game(game_id)
            tournament = (
                None
                if scheduled is None
                else await tx.tournaments.get(scheduled.game.tournament_id)
            )
        if tournament is not None:
            event = tournament.setup.name
        headers = record_headers(
            row, zone=zone, finished=not loaded.is_active, event=event, site=site
        )
        # The game's openings and castles (戦型, 囲い): headers where the format has them
        # (KIF, KI2), comment lines before the first move in CSA; none in USI and SFEN.
        openings = classify_game(loaded.game)
        if RECORD_FILES[name].format == "csa" and comment_lines(openings):
            comments = {**(comments or {})}
            comments[0] = [*comment_lines(openings), *comments.get(0, ())]
        else:
            headers.update(opening_headers(openings))
        record = Record(
            loaded.game,
            sente=row.sente.name,
            gote=row.gote.name,
            started=record_time(row.started_at.astimezone(zone)),
            headers=headers,
        )
        written = write_record_file(record, name, comments=comments)
        return ExportFile(
            filename=f"game-{game_id}.{FORMATS[name]}",
            data=written.data,
            encoding=RECORD_FILES[name].encoding,
            analysis_url=None if loaded.is_active else analysis_link(loaded.game),
            replaced=written.replaced,
        )
