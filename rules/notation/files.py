"""One entry point for every record format: `read_record` guesses the format, `write_record`
writes the one asked for, and `write_record_file` its file, in the encoding Japanese
software expects of its name (`.kif` Shift_JIS, `.kifu` UTF-8; see `charsets`)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Unpack

from ..game import Game
from .charsets import SHIFT_JIS, UTF8, encode_record
from .csa import read_csa, write_csa
from .kif import read_ki2, read_kif, write_ki2, write_kif
from .records import Details, Record, RecordError, decode, read_usi, write_sfen, write_usi

FORMATS = ("kif", "ki2", "csa", "usi", "sfen")
_CSA_LINE = re.compile(r"(V[23]|PI|P[1-9+-]|N[+-]|\$[A-Z_]+:|[+-][0-9]{4}[A-Z]{2}|%[A-Z+-])")
_KIF_MOVE = re.compile(r"\s*[0-9]+\s+\S")


def detect_format(text: str) -> str:
    """`kif`, `ki2`, `csa` or `usi`, from the look of the lines.

    >>> detect_format("position startpos moves 7g7f")
    'usi'
    """
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line and line[0] not in "#*&'"]
    if not lines:
        return "kif"
    first = lines[0]
    if _CSA_LINE.match(first) or first in ("+", "-"):
        return "csa"
    if first.startswith(("position", "sfen", "startpos")) or (first.isascii() and len(lines) == 1):
        return "usi"
    if any(_KIF_MOVE.match(line) or line.startswith("手数-") for line in lines):
        return "kif"
    if any(line[0] in "▲△▼▽☗☖" for line in lines):
        return "ki2"
    return "kif"


def read_record(data: bytes | str, format: str | None = None) -> Record:
    """Read a KIF, KI2, CSA or USI/SFEN record (format guessed unless given).

    Bytes may be UTF-8 or Shift_JIS. Raises `RecordError` naming the line it could not read.

    >>> record = read_record("▲７六歩 △３四歩\\nまで2手で中断")
    >>> [m.usi() for m in record.game.moves], record.game.outcome.termination.name
    (['7g7f', '3c3d'], 'ABORT')
    """
    text = decode(data)
    name = (format or detect_format(text)).lower()
    readers = {"kif": read_kif, "ki2": read_ki2, "csa": read_csa, "usi": read_usi, "sfen": read_usi}
    if name not in readers:
        raise ValueError(f"unknown record format {format!r}; use one of {', '.join(FORMATS)}")
    return readers[name](text)


def write_record(game: Game | Record, format: str, **details: Unpack[Details]) -> str:
    """Write `game` as `kif`, `ki2`, `csa`, `usi` (the position command) or `sfen` (current).
    `comments` by ply go into KIF, KI2 and CSA (see `write_kif`); USI and SFEN have no
    place for them and leave them out.

    >>> write_record(Game(moves=["7g7f"]), "usi")
    'position startpos moves 7g7f'
    """
    name = format.lower()
    if name == "kif":
        return write_kif(game, **details)
    if name == "ki2":
        return write_ki2(game, **details)
    if name == "csa":
        return write_csa(game, **details)
    if name == "usi":
        return write_usi(game)
    if name == "sfen":
        return write_sfen(game)
    raise ValueError(f"unknown record format {format!r}; use one of {', '.join(FORMATS)}")


@dataclass(frozen=True, slots=True)
class FileKind:
    """A kind of record file: the format written in it and its text encoding."""

    format: str
    encoding: str


#: The record files, by their file-name ending: `.kif` and `.ki2` in Shift_JIS, as Japanese
#: software reads them; `.kifu` and `.ki2u`, the same in UTF-8, which holds every character;
#: CSA in UTF-8, declared on its first line; USI and SFEN, which are ASCII.
RECORD_FILES = {
    "kif": FileKind("kif", SHIFT_JIS),
    "kifu": FileKind("kif", UTF8),
    "ki2": FileKind("ki2", SHIFT_JIS),
    "ki2u": FileKind("ki2", UTF8),
    "csa": FileKind("csa", UTF8),
    "usi": FileKind("usi", UTF8),
    "sfen": FileKind("sfen", UTF8),
}
# How each encoding is named inside a record (KIF's first line, CSA's `'CSA encoding=`).
_DECLARED = {("kif", SHIFT_JIS): "Shift_JIS", ("kif", UTF8): "UTF-8", ("csa", UTF8): "UTF-8"}


@dataclass(frozen=True, slots=True)
class RecordFile:
    """A record written as a file: its bytes, and how many characters its encoding has no
    place for and holds as 〓 (Shift_JIS has no emoji: `charsets`)."""

    data: bytes
    replaced: int


def write_record_file(game: Game | Record, kind: str, **details: Unpack[Details]) -> RecordFile:
    """The bytes of `game`'s record file of `kind` (a key of `RECORD_FILES`), with its
    encoding named inside where the format has a place for it (KIF's first line, CSA's).

    >>> written = write_record_file(Game(moves=["7g7f"]), "kif", sente="はなこ🌸")
    >>> written.replaced, written.data.decode("cp932").splitlines()[:3]
    (1, ['#KIF version=2.0 encoding=Shift_JIS', '手合割：平手', '先手：はなこ〓'])
    """
    if kind not in RECORD_FILES:
        raise ValueError(f"unknown record file {kind!r}; use one of {', '.join(RECORD_FILES)}")
    name, encoding = RECORD_FILES[kind].format, RECORD_FILES[kind].encoding
    declared = _DECLARED.get((name, encoding))
    if name == "kif":
        assert declared is not None
        text = write_kif(game, encoding=declared, **details)
    elif name == "csa":
        text = write_csa(game, encoding=declared, **details)
    else:
        text = write_record(game, name, **details)
    if not text.endswith("\n"):
        text += "\n"
    data, replaced = encode_record(text, encoding)
    return RecordFile(data, replaced)


__all__ = [
    "FORMATS",
    "RECORD_FILES",
    "FileKind",
    "RecordError",
    "RecordFile",
    "detect_format",
    "read_record",
    "write_record",
    "write_record_file",
]
