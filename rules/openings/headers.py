"""A game's openings and castles as a record's headers: `戦型` for the game, and
`先手の戦型`, `後手の戦型`, `先手の囲い`, `後手の囲い` for each side (the most specific names,
comma-separated), the headers Japanese software writes and `agreement.labels` reads."""

from __future__ import annotations

from ..types import Color
from .classify import Openings

_SIDES = {Color.SENTE: "先手", Color.GOTE: "後手"}
_KINDS = {"opening": "戦型", "castle": "囲い"}


def opening_headers(openings: Openings) -> dict[str, str]:
    """The headers naming what `openings` found; none for a game with nothing named.

    >>> from rules.game import Game
    >>> from rules.openings import classify_game
    >>> opening_headers(classify_game(Game(moves=["7g7f", "3c3d", "2h6h"])))
    {'戦型': '四間飛車', '先手の戦型': '四間飛車'}
    """
    headers = {}
    name = openings.game_name()
    if name is not None:
        headers["戦型"] = name.ja
    for kind, word in _KINDS.items():
        for color, side in _SIDES.items():
            shown = openings.shown(color, kind)
            if shown:
                headers[f"{side}の{word}"] = ", ".join(name.ja for name in shown)
    return headers


def comment_lines(openings: Openings) -> list[str]:
    """The same as lines `key：value`, for a format without such headers (a CSA comment)."""
    return [f"{key}：{value}" for key, value in opening_headers(openings).items()]
