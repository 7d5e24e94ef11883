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

from PIL import Image

from rules import Color, Move, Position

from . import layout
from .animate import GifTooLarge, frames_within, render_gif
from .board import KING_KANJI, compose, render_png, warm
from .chart import render_evaluation_chart, render_rating_chart
from .describe import describe
from .ending import Ending

__all__ = [
    "KING_KANJI",
    "Ending",
    "GifTooLarge",
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


def render_board(
    position: Position,
    *,
    last_move: Move | None = None,
    perspective: Color = Color.SENTE,
    sente_name: str | None = None,
    gote_name: str | None = None,
    caption: str | None = None,
    kings: Sequence[str] = KING_KANJI,
    ending: Ending | None = None,
) -> bytes:
    """The position as a PNG (palette image, 844 x 759 pixels).

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

    A pure function: the position is only read.
    """
    return render_png(
        position,
        last_move=last_move,
        perspective=Color(perspective),
        sente_name=sente_name,
        gote_name=gote_name,
        caption=caption,
        kings=_checked_kings(kings),
        ending=_checked_ending(ending, caption),
    )


def render_image(
    position: Position,
    *,
    last_move: Move | None = None,
    perspective: Color = Color.SENTE,
    sente_name: str | None = None,
    gote_name: str | None = None,
    caption: str | None = None,
    kings: Sequence[str] = KING_KANJI,
    ending: Ending | None = None,
) -> Image.Image:
    """Like `render_board`, but the Pillow image before PNG encoding."""
    return compose(
        position,
        last_move=last_move,
        perspective=Color(perspective),
        sente_name=sente_name,
        gote_name=gote_name,
        caption=caption,
        kings=_checked_kings(kings),
        ending=_checked_ending(ending, caption),
    )


def _checked_ending(ending: Ending | None, caption: str | None) -> Ending | None:
    if ending is not None and caption is not None:
        raise ValueError("an ending's result is drawn in the caption's place: give one of them")
    return ending


def _checked_kings(kings: Sequence[str]) -> tuple[str, ...]:
    kings = tuple(kings)
    if len(kings) != 2 or any(king not in KING_KANJI for king in kings):
        raise ValueError(f"kings must be two of 王 and 玉 (sente's, gote's), not {kings!r}")
    return kings
