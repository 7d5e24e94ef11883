"""Shogi move notations and game records: read and write every way players write moves.

>>> from rules import Position
>>> position = Position.initial()
>>> parse_move(position, "▲７六歩").usi()
'7g7f'
>>> format_move(position, parse_move(position, "G69-58"), "japanese")
'５八金左'
"""

from .charsets import REPLACEMENT, shift_jis_text
from .common import AmbiguousMoveError, Style
from .csa import read_csa, write_csa
from .files import (
    FORMATS,
    RECORD_FILES,
    RecordFile,
    detect_format,
    read_record,
    write_record,
    write_record_file,
)
from .kif import read_ki2, read_kif, write_ki2, write_kif
from .parse import parse_move
from .paste import unfold
from .records import (
    Record,
    RecordError,
    analysis_link,
    read_usi,
    record_time,
    write_sfen,
    write_usi,
)
from .write import format_move

__all__ = [
    "FORMATS",
    "RECORD_FILES",
    "REPLACEMENT",
    "AmbiguousMoveError",
    "Record",
    "RecordError",
    "RecordFile",
    "Style",
    "analysis_link",
    "detect_format",
    "format_move",
    "parse_move",
    "read_csa",
    "read_ki2",
    "read_kif",
    "read_record",
    "read_usi",
    "record_time",
    "shift_jis_text",
    "unfold",
    "write_csa",
    "write_ki2",
    "write_kif",
    "write_record",
    "write_record_file",
    "write_sfen",
    "write_usi",
]
