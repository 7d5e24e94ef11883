"""A tournament's games as one ZIP archive (or a few, each within the upload limit).

Every game is written in each record file the bot exports (`ARCHIVE_KINDS`): KIF and KI2
in Shift_JIS (`.kif`, `.ki2`, as Japanese software reads them, a character Shift_JIS lacks
written as 〓) and in UTF-8 (`.kifu`, `.ki2u`), and CSA (UTF-8, declared on its first
line). Each kind has its folder, so a member who wants only `.kif` files opens one, and the
files are named by round, board and game of the pairing, zero-padded so that any program
lists them in the order played, then by the players, sente first:
`kif/R01-B02-1 ▲Alice △Bob.kif`. Every record names the event in its `棋戦` header (KIF
and KI2; `$EVENT` in CSA).

Discord refuses a file over the server's upload limit, which the caller passes (the bot
takes it from the interaction or the server, as it does for animations). An archive over
it is split into parts, each a whole ZIP with whole games, in order; only a single game
whose records alone exceed the limit is refused, with one sentence. A game's share of an
archive is known before the archive is written (an entry's size in a ZIP does not depend
on the entries around it), so the parts are cut exactly and each part is written once.

Writing a season's records is pure Python that holds the GIL for seconds (a 30-player
double round robin's 870 games): the caller runs it where it cannot stop the event loop,
in a worker process, as members' records are read (`readers`).
"""

from __future__ import annotations

import io
import pickle
import re
import unicodedata
import zipfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import tzinfo

from rules import Sentence
from rules.notation import RECORD_FILES, Record, record_time, write_record_file
from rules.notation.charsets import SHIFT_JIS
from rules.notation.records import HEADER_LIMIT, cut

from ..errors import ServiceError
from ..play.game import GameSnapshot
from .exports import FORMATS, record_headers

#: The record files each game is archived as, in this order.
ARCHIVE_KINDS = ("kif", "kifu", "ki2", "ki2u", "csa")
#: The most characters of a player's name in a file name: names stay readable, and a path
#: stays far below the 255 bytes a file name may have on every system.
NAME_CHARS = 24
#: Characters no file system takes in a name, written as `_`.
_UNSAFE = re.compile(r'[\x00-\x1f\x7f/\\:*?"<>|]')
#: Direction controls, left out of a file name: in a name they could make `.exe.kif` show as
#: another name than the file's own.
_DIRECTIONS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
#: The fixed part of a ZIP: its end record (no comment).
_END_RECORD = 22
#: Every entry's date: a fixed one, so the same games make the same archive.
_ENTRY_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass(frozen=True, slots=True)
class ArchivedGame:
    """One finished game of the event: its round and board (from 1), which game of the
    pairing it is (from 1: a two-game pairing, a replayed draw), and its record (the game,
    its players' names, its start date and headers)."""

    round: int
    board: int
    record: Record
    number: int = 1


@dataclass(frozen=True, slots=True)
class ArchivePart:
    """One ZIP to attach: its file name, its bytes, how many games it holds, and how many
    characters its Shift_JIS files write as 〓 (a name with an emoji, say)."""

    filename: str
    data: bytes
    games: int
    replaced: int


def archived_game(
    snapshot: GameSnapshot,
    *,
    round: int,
    board: int,
    number: int = 1,
    zone: tzinfo,
    site: str | None = None,
) -> ArchivedGame:
    """A stored game as the archive writes it: its players' names, and the headers its own
    export writes (`exports.record_headers`), dates in `zone` (the server's). The event is
    named by `tournament_archive`."""
    row = snapshot.row
    headers = record_headers(row, zone=zone, finished=not snapshot.is_active, event=None, site=site)
    record = Record(
        snapshot.game,
        sente=row.sente.name,
        gote=row.gote.name,
        started=record_time(row.started_at.astimezone(zone)),
        headers=headers,
    )
    return ArchivedGame(round, board, record, number)


def tournament_archive(
    event: str, games: Sequence[ArchivedGame], *, limit: int, stem: str = "tournament"
) -> tuple[ArchivePart, ...]:
    """The games as ZIP archives of at most `limit` bytes each: one when they fit, else
    parts named `{stem}-1-of-3.zip` and so on, each holding whole games in order. `event`
    is written as every record's `棋戦` (cut like any header).

    >>> from rules import Game
    >>> parts = tournament_archive("Club cup", [ArchivedGame(1, 1, Record(Game(moves=["7g7f"]),
    ...     sente="Ann", gote="Bo"))], limit=10_000_000)
    >>> [(part.filename, part.games) for part in parts]
    [('tournament.zip', 1)]
    >>> sorted(zipfile.ZipFile(io.BytesIO(parts[0].data)).namelist())[:2]
    ['csa/R01-B01-1 ▲Ann △Bo.csa', 'ki2/R01-B01-1 ▲Ann △Bo.ki2']
    """
    if not games:
        raise ServiceError(Sentence("No game of this tournament has finished yet."))
    named = cut(" ".join(event.split()), HEADER_LIMIT)
    widths = (
        max(2, len(str(max(game.round for game in games)))),
        max(2, len(str(max(game.board for game in games)))),
    )
    written = [_files(game, named, widths) for game in games]
    names = [name for files in written for name, _ in files[0]]
    if len(set(names)) != len(names):
        raise ValueError("two games of the archive have the same round, board and number")
    costs = [len(_zip(files)) - _END_RECORD for files, _ in written]
    groups: list[list[int]] = []
    size = _END_RECORD
    for index, cost in enumerate(costs):
        if cost + _END_RECORD > limit:
            raise ServiceError(
                Sentence(
                    "The records of one game are larger than this server's upload limit, "
                    "so the archive cannot be sent."
                )
            )
        if not groups or size + cost > limit:
            groups.append([])
            size = _END_RECORD
        groups[-1].append(index)
        size += cost
    parts = []
    for place, group in enumerate(groups, start=1):
        data = _zip([entry for index in group for entry in written[index][0]])
        assert len(data) <= limit, "a part's size is the sum of its games' shares"
        filename = f"{stem}.zip" if len(groups) == 1 else f"{stem}-{place}-of-{len(groups)}.zip"
        replaced = sum(written[index][1] for index in group)
        parts.append(ArchivePart(filename, data, len(group), replaced))
    return tuple(parts)


Entry = tuple[str, bytes]


def _files(game: ArchivedGame, event: str, widths: tuple[int, int]) -> tuple[list[Entry], int]:
    """A game's files in the archive, and the characters its Shift_JIS ones replaced."""
    record = replace_event(game.record, event)
    stem = (
        f"R{game.round:0{widths[0]}d}-B{game.board:0{widths[1]}d}-{game.number} "
        f"▲{_file_name(record.sente)} △{_file_name(record.gote)}"
    )
    entries, replaced = [], 0
    for kind in ARCHIVE_KINDS:
        file = write_record_file(record, kind)
        entries.append((f"{kind}/{stem}.{FORMATS[kind]}", file.data))
        if RECORD_FILES[kind].encoding == SHIFT_JIS:
            replaced += file.replaced
    return entries, replaced


def replace_event(record: Record, event: str) -> Record:
    """`record` with `event` as its `棋戦`, placed where Kifu for Windows writes it (after
    the end date, before the place and time control).

    >>> from rules import Game
    >>> record = Record(Game(), headers={"終了日時": "x", "持ち時間": "y"})
    >>> list(replace_event(record, "Cup").headers)
    ['終了日時', '棋戦', '持ち時間']
    """
    headers = {key: value for key, value in record.headers.items() if key != "棋戦"}
    before: dict[str, str] = {
        key: headers.pop(key) for key in ("開始日時", "終了日時") if key in headers
    }
    return replace(record, headers={**before, "棋戦": event, **headers})


def _file_name(name: str | None) -> str:
    """A player's name as a file name may hold it: composed (NFC), without direction
    controls, what no file system takes written as `_`, cut to `NAME_CHARS`, never empty."""
    if name is None:
        return "_"
    text = unicodedata.normalize("NFC", " ".join(name[: NAME_CHARS * 4].split()))
    text = _UNSAFE.sub("_", _DIRECTIONS.sub("", text)).strip(". ")
    return cut(text, NAME_CHARS) or "_"


def _zip(entries: Sequence[Entry]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, data in entries:
            info = zipfile.ZipInfo(name, _ENTRY_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, data)
    return out.getvalue()


#: Seconds an archive is given in its worker before it is given up, at the least, and for
#: each game: a generous multiple of what writing a game's five files costs on a busy
#: machine. A member's read gets `READ_TIME_LIMIT`, which a league's archive passes.
ARCHIVE_BASE_SECONDS = 10.0
ARCHIVE_SECONDS_PER_GAME = 0.05


def archive_seconds(games: int) -> float:
    """The time limit of archiving `games` games in a worker (`ReaderPool.run`'s
    `time_limit`): it grows with the games, so a large event's archive is not lost.

    >>> archive_seconds(0) < archive_seconds(870)
    True
    """
    return ARCHIVE_BASE_SECONDS + ARCHIVE_SECONDS_PER_GAME * games


def packed(game: ArchivedGame) -> bytes:
    """A game as the archive's worker receives it (`archive_in_worker`), packed on its own
    as it is read: the pickle of a whole event's games at once is megabytes that hold the
    event loop (and the interpreter, in any thread) for tenths of a second, where a list
    of packed games is copied in a few milliseconds."""
    return pickle.dumps(game, protocol=pickle.HIGHEST_PROTOCOL)


def archive_in_worker(
    event: str, games: Sequence[bytes], limit: int, stem: str = "tournament"
) -> tuple[ArchivePart, ...]:
    """`tournament_archive` of the `packed` games, with its arguments in order, as a
    worker process is asked to run it (`ReaderPool.run` passes no keywords).

    >>> from rules import Game
    >>> game = ArchivedGame(1, 1, Record(Game(moves=["7g7f"]), sente="A", gote="B"))
    >>> [part.games for part in archive_in_worker("Cup", [packed(game)], 10_000_000)]
    [1]
    """
    return tournament_archive(event, [pickle.loads(data) for data in games], limit=limit, stem=stem)
