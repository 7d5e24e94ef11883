"""Board images: a position drawn like a printed shogi diagram, as PNG bytes.

>>> from rules import Position
>>> png = render_board(Position.initial())
>>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True

`render/` depends on `rules` and Pillow only. The text comes from the font
subsets in `data/fonts/`, never from fonts installed on the machine. The
geometry (where each square, hand and name is) lives in `render.layout`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypedDict, Unpack

from PIL import Image

from rules import Color, Move, Position

from . import layout
from .animate import GifTooLarge, frames_within, render_gif
from .board import KING_KANJI, Diagram, Marks, compose, render_png, warm
from .chart import render_evaluation_chart, render_rating_chart
from .describe import describe
from .ending import Ending

__all__ = [
    "KING_KANJI",
    "BoardOptions",
    "Ending",
    "GifTooLarge",
    "Marks",
    "describe",
    "frames_within",
    "layout",
    "render_board",
    "render_evaluation_chart",
    "render_gif",
    "render_image",
    "render_rating_chart",
    "warm",
]


class BoardOptions(TypedDict, total=False):
    """How `render_board` and `render_image` draw a position; every option may be left out.

    - `last_move`: the move that led to `position`; its origin and destination
      are highlighted (a drop: the destination only).
    - `perspective`: whose side is at the bottom; `Color.GOTE` turns the picture.
    - `sente_name`, `gote_name`: shown with ☗ / ☖; default 先手 / 後手. The name
      of the side to move is drawn on a dark pill. Characters the shipped font
      lacks are replaced, so any name is safe.
    - `caption`: a short line at the bottom left (e.g. the move number and deadline).
    - `kings`: the kanji of sente's and gote's king; by custom the senior player's
      is 王 and the other's 玉, so the default is ("玉", "王").
    - `ending`: the game is over (see `Ending`): its result is drawn on a red pill in
      the caption's place (so `caption` must be None), nobody is shown to move, the
      winner's name is ringed, and the mating move or the resigned king is marked.
    - `marks`: the picker's marks (see `Marks`): the pieces that can move on a light
      cell, the chosen one on a dark cell, a dot on each empty square it can go to and
      a red ring round each piece it can take. Without marks the picture is unchanged.
    """

    last_move: Move | None
    perspective: Color
    sente_name: str | None
    gote_name: str | None
    caption: str | None
    kings: Sequence[str]
    ending: Ending | None
    marks: Marks | None


def render_board(position: Position, **options: Unpack[BoardOptions]) -> bytes:
    """The position as a PNG (palette image, 844 x 759 pixels), drawn as `BoardOptions` say.

    A pure function: the position is only read.
    """
    return render_png(_diagram(position, options))


def render_image(position: Position, **options: Unpack[BoardOptions]) -> Image.Image:
    """Like `render_board`, but the Pillow image before PNG encoding."""
    return compose(_diagram(position, options))


def _diagram(position: Position, options: BoardOptions) -> Diagram:
    """The diagram `options` ask for, refused (`ValueError`) where they cannot be drawn."""
    kings = tuple(options.get("kings", KING_KANJI))
    if len(kings) != 2 or any(king not in KING_KANJI for king in kings):
        raise ValueError(f"kings must be two of 王 and 玉 (sente's, gote's), not {kings!r}")
    if options.get("ending") is not None and options.get("caption") is not None:
        raise ValueError("an ending's result is drawn in the caption's place: give one of them")
    perspective = Color(options.get("perspective", Color.SENTE))
    checked: BoardOptions = {**options, "kings": kings, "perspective": perspective}
    return Diagram(position, **checked)
