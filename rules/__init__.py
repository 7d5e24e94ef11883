"""The rules of shogi as a pure library: positions, legal moves, games and their outcomes.

>>> from rules import Position, Move
>>> position = Position.initial()
>>> position.push(Move.from_usi("7g7f"))
>>> position.sfen()
'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
"""

from .errors import (
    FormatError,
    GameError,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    Plural,
    Sentence,
    SfenError,
)
from .game import Game, Outcome, Termination
from .handicaps import Handicap
from .moves import Move
from .perft import perft
from .position import Position
from .sfen import StartWarning
from .types import Color, Piece, Role, Square

__all__ = [
    "Color",
    "FormatError",
    "Game",
    "GameError",
    "Handicap",
    "IllegalMoveError",
    "IllegalReason",
    "InvalidMoveError",
    "Move",
    "Outcome",
    "Piece",
    "Plural",
    "Position",
    "Role",
    "Sentence",
    "SfenError",
    "Square",
    "StartWarning",
    "Termination",
    "perft",
]
