"""Openings (戦型) and castles (囲い) named from a game's positions by a readable rule table.

`classify_game(game)` gives every name that became clear and when; the table lives in
`data/openings.toml`, where a person adds an opening by the squares that define it.
"""

from .classify import (
    GAME_FAMILIES,
    Namer,
    Naming,
    Openings,
    classify,
    classify_game,
    is_named,
    namer_of,
)
from .headers import comment_lines, opening_headers
from .table import Name, Table, TableError, default_table, parse_table

__all__ = [
    "GAME_FAMILIES",
    "Name",
    "Namer",
    "Naming",
    "Openings",
    "Table",
    "TableError",
    "classify",
    "classify_game",
    "comment_lines",
    "default_table",
    "is_named",
    "namer_of",
    "opening_headers",
    "parse_table",
]
