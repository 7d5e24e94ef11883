"""One entry point for every record format: `read_record` guesses the format, `write_record`
writes the one asked for."""

from __future__ import annotations

import re
from datetime import datetime

from ..game import Game
from .csa import read_csa, write_csa
from .kif import read_ki2, read_kif, write_ki2, write_kif
from .records import Comments, Record, RecordError, decode, read_usi, write_sfen, write_usi

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


def write_record(
    game: Game | Record,
    format: str,
    *,
    sente: str | None = None,
    gote: str | None = None,
    started: datetime | str | None = None,
    comments: Comments | None = None,
) -> str:
    """Write `game` as `kif`, `ki2`, `csa`, `usi` (the position command) or `sfen` (current).
    `comments` by ply go into KIF, KI2 and CSA (see `write_kif`); USI and SFEN have no
    place for them and leave them out.

    >>> write_record(Game(moves=["7g7f"]), "usi")
    'position startpos moves 7g7f'
    """
    name = format.lower()
    if name == "kif":
        return write_kif(game, sente=sente, gote=gote, started=started, comments=comments)
    if name == "ki2":
        return write_ki2(game, sente=sente, gote=gote, started=started, comments=comments)
    if name == "csa":
        return write_csa(game, sente=sente, gote=gote, started=started, comments=comments)
    if name == "usi":
        return write_usi(game)
    if name == "sfen":
        return write_sfen(game)
    raise ValueError(f"unknown record format {format!r}; use one of {', '.join(FORMATS)}")


__all__ = ["FORMATS", "RecordError", "detect_format", "read_record", "write_record"]
