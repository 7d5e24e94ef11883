"""A member's rating history as a small line chart (PNG bytes), for their profile.

The x axis counts rated games (a correspondence game takes days to weeks, so the order of
games says more than the calendar); the y axis is the rating, with grid lines at round
numbers chosen so that three to six of them fit. Drawn at twice the size and shrunk, so
the line is smooth without an anti-aliasing library. Text uses the shipped names font.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from .fonts import name_font, printable

WIDTH, HEIGHT = 640, 260
SUPERSAMPLE = 2
BACKGROUND = (250, 247, 240)
GRID = (222, 214, 200)
AXIS_TEXT = (110, 100, 90)
LINE = (150, 40, 30)
TITLE_TEXT = (40, 35, 30)
#: Round steps between grid lines, in rating points.
STEPS = (10, 20, 25, 50, 100, 200, 250, 500, 1000)
#: The least range of ratings the y axis spans.
MIN_SPAN = 100


def _step(low: float, high: float) -> int:
    """The smallest round step that keeps the grid to at most six lines."""
    for step in STEPS:
        if (high - low) / step <= 5:
            return step
    return STEPS[-1]


def render_rating_chart(
    ratings: Sequence[float],
    *,
    title: str | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
) -> bytes:
    """The ratings, oldest first (the starting rating, then after each game), as a PNG.

    >>> png = render_rating_chart([1500, 1662, 1580, 1611], title="Alice")
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    if not ratings:
        raise ValueError("a rating chart needs at least one rating")
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), BACKGROUND)
    draw = ImageDraw.Draw(image)
    label_font = name_font(13 * s)
    top = (34 if title else 14) * s
    left, right, bottom = 56 * s, (width - 18) * s, (height - 30) * s
    if title:
        draw.text((left, 8 * s), printable(title), font=name_font(17 * s), fill=TITLE_TEXT)

    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:  # a flat history sits in the middle, not on an edge
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    step = _step(low, high)
    floor = math.floor(low / step) * step
    ceiling = max(math.ceil(high / step) * step, floor + step)

    def y_of(rating: float) -> float:
        return bottom - (rating - floor) / (ceiling - floor) * (bottom - top)

    def x_of(index: int) -> float:
        if len(ratings) == 1:
            return (left + right) / 2
        return left + index / (len(ratings) - 1) * (right - left)

    for value in range(int(floor), int(ceiling) + 1, step):
        y = y_of(value)
        draw.line([(left, y), (right, y)], fill=GRID, width=s)
        draw.text((left - 8 * s, y), str(value), font=label_font, fill=AXIS_TEXT, anchor="rm")
    for index in _game_ticks(len(ratings) - 1):
        draw.text(
            (x_of(index), bottom + 8 * s), str(index), font=label_font, fill=AXIS_TEXT, anchor="mt"
        )

    points = [(x_of(i), y_of(r)) for i, r in enumerate(ratings)]
    if len(points) > 1:
        draw.line(points, fill=LINE, width=3 * s, joint="curve")
    x, y = points[-1]
    radius = 4 * s
    draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=LINE)

    small = image.reduce(s)  # each pixel the mean of its s x s block: smooth edges
    out = io.BytesIO()
    small.save(out, format="PNG")
    return out.getvalue()


def _game_ticks(games: int) -> list[int]:
    """Which game numbers the x axis names: the first and last, and round ones between."""
    if games <= 0:
        return [0]
    step = next((n for n in (1, 2, 5, 10, 20, 50, 100, 200, 500) if games / n <= 8), 1000)
    ticks = list(range(0, games, step))
    if games - ticks[-1] < step / 2 and len(ticks) > 1:
        ticks.pop()  # too close to the last game's number
    return [*ticks, games]
