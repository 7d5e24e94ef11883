"""Arrows over a board: the moves played from a position, each drawn from where the piece
stands to where it went, thicker for a move played more often (the explorer's picture).

A board move's arrow runs from the centre of its origin to the centre of its destination;
a drop's runs from the piece in its player's hand on the stand to the square it was
dropped on, so a drop reads as the piece leaving the stand. The arrows are drawn
half-transparent in one blue, not a colour of the board, so the pieces stay readable
under them and a test finds them by their colour.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Unpack

from PIL import Image, ImageDraw

from rules import Color, Move, Position

from . import BoardOptions, layout, render_image
from .board import HAND_ORDER

#: The arrows' colour (a blue no part of the board uses) and its opacity (0-255).
ARROW_RGB = (30, 100, 210)
ARROW_ALPHA = 190
#: The thinnest and thickest shafts, in pixels: the least and most played moves.
THINNEST = 5.0
THICKEST = 22.0
#: Supersampling of the arrows' mask, for smooth edges.
_SCALE = 2
_OPACITY = [value * ARROW_ALPHA // 255 for value in range(256)]


@dataclass(frozen=True, slots=True)
class Arrow:
    """A move to draw, with its `weight` from 0 (thinnest) to 1 (thickest): its share of
    the most played move's count, say."""

    move: Move
    weight: float


def thickness(weight: float) -> float:
    """The shaft's width in pixels for `weight` (brought between 0 and 1).

    >>> thickness(0.0), thickness(1.0)
    (5.0, 22.0)
    """
    clamped = min(1.0, max(0.0, weight))
    return THINNEST + (THICKEST - THINNEST) * clamped


def _centre(box: layout.Box) -> tuple[float, float]:
    left, top, right, bottom = box
    return ((left + right) / 2, (top + bottom) / 2)


def arrow_ends(
    position: Position, move: Move, perspective: Color = Color.SENTE
) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where `move`'s arrow starts and ends on the picture, in pixels: square centres for a
    board move; for a drop, the centre of the dropped kind's slot in the hand of the side
    to move (the slot the board draws it in, `render.board`'s hand order).

    Example: `arrow_ends(Position.initial(), Move.from_usi("7g7f"))[1]` is 7f's centre.
    """
    end = _centre(layout.square_box(move.to_square, perspective))
    if move.from_square is not None:
        return _centre(layout.square_box(move.from_square, perspective)), end
    held = position.hands[position.turn]
    present = [role for role in HAND_ORDER if held[role]]
    index = present.index(move.drop) if move.drop in present else 0
    slot = layout.hand_slot_box(position.turn, perspective, min(index, layout.HAND_SLOTS - 1))
    return _centre(slot), end


def _draw_arrow(
    draw: ImageDraw.ImageDraw,
    start: tuple[float, float],
    end: tuple[float, float],
    width: float,
) -> None:
    (x0, y0), (x1, y1) = start, end
    length = math.hypot(x1 - x0, y1 - y0)
    if length < 1:
        return
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    head = min(length * 0.45, width * 1.6 + 14)
    half_head = width * 0.9 + 8
    # The shaft stops where the head begins, so the two never overlap (no darker seam).
    bx, by = x1 - ux * head, y1 - uy * head
    s = _SCALE
    half = width / 2
    px, py = -uy, ux  # perpendicular
    shaft = [
        ((x0 + px * half) * s, (y0 + py * half) * s),
        ((bx + px * half) * s, (by + py * half) * s),
        ((bx - px * half) * s, (by - py * half) * s),
        ((x0 - px * half) * s, (y0 - py * half) * s),
    ]
    tip = [
        (x1 * s, y1 * s),
        ((bx + px * half_head) * s, (by + py * half_head) * s),
        ((bx - px * half_head) * s, (by - py * half_head) * s),
    ]
    draw.polygon(shaft, fill=255)
    draw.polygon(tip, fill=255)


def render_arrows(
    position: Position, arrows: Sequence[Arrow], **options: Unpack[BoardOptions]
) -> bytes:
    """`position` drawn as `render_board` draws it, with `arrows` over it, as PNG bytes.
    A pure function.

    Example: `render_arrows(Position.initial(), [Arrow(Move.from_usi("7g7f"), 1.0)])`.
    """
    board = render_image(position, **options).convert("RGB")
    perspective = Color(options.get("perspective", Color.SENTE))
    # One mask for every arrow (where two cross, neither is darker), drawn large and
    # shrunk for smooth edges, then laid over the board in the arrows' colour.
    shapes = Image.new("L", (board.width * _SCALE, board.height * _SCALE), 0)
    draw = ImageDraw.Draw(shapes)
    for arrow in sorted(arrows, key=lambda a: a.weight):
        start, end = arrow_ends(position, arrow.move, perspective)
        _draw_arrow(draw, start, end, thickness(arrow.weight))
    mask = shapes.resize(board.size, Image.Resampling.BOX).point(_OPACITY)
    board.paste(Image.new("RGB", board.size, ARROW_RGB), (0, 0), mask)
    buffer = io.BytesIO()
    board.save(buffer, "PNG", compress_level=3)
    return buffer.getvalue()
