"""Shogi move notations and game records: read and write every way players write moves.

>>> from rules import Position
>>> position = Position.initial()
>>> parse_move(position, "▲７六歩").usi()
'7g7f'
>>> format_move(position, parse_move(position, "G69-58"), "japanese")
'５八金左'
"""

from .common import AmbiguousMoveError, Style
from .parse import parse_move
from .write import format_move

__all__ = ["AmbiguousMoveError", "Style", "format_move", "parse_move"]
