"""Small line charts (PNG bytes): a member's rating history, for their profile, and an
analysed game's evaluation after each move.

For ratings the x axis counts rated games (a correspondence game takes days to weeks, so
the order of games says more than the calendar); the y axis is the rating, with grid lines
at round numbers chosen so that three to six of them fit. For an evaluation the x axis
counts moves and the y axis is symmetric around an even position. Both are drawn at twice
the size and shrunk, so the line is smooth without an anti-aliasing library. Text uses the
shipped names font.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image, ImageDraw

from .fonts import clipped, draw_text, name_font, printable

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
    low, high = min(ratings), max(ratings)
    if high - low < MIN_SPAN:  # a flat history sits in the middle, not on an edge
        middle = (low + high) / 2
        low, high = middle - MIN_SPAN / 2, middle + MIN_SPAN / 2
    step = _step(low, high)
    floor = math.floor(low / step) * step
    ceiling = max(math.ceil(high / step) * step, floor + step)
    chart = _LineChart(ratings, floor, ceiling, step, title, width, height)
    chart.grid(_game_ticks(len(ratings) - 1))
    chart.line()
    chart.dot(len(ratings) - 1, LINE)
    return chart.png()


#: The evaluation chart's marks: a mistake's dot and a blunder's.
MISTAKE_DOT = (220, 140, 30)
BLUNDER_DOT = (200, 30, 30)
ZERO_LINE = (150, 140, 125)
#: Grid lines of the evaluation chart, in centipawns.
EVALUATION_STEP = 1000


def render_evaluation_chart(
    scores: Sequence[int],
    *,
    cap: int,
    mistakes: Sequence[int] = (),
    blunders: Sequence[int] = (),
    title: str | None = None,
    width: int = WIDTH,
    height: int = HEIGHT,
    moves_before: int = 0,
) -> bytes:
    """An analysed game's evaluation after each move, from sente's view (above the middle
    line sente is ahead), capped at ±`cap`, with a dot on each mistake and blunder (the
    plies given): the rating chart's drawing with a fixed, symmetric scale. The x axis
    names each position by its move number: a game started after `moves_before` moves
    starts its axis there, as its record numbers its moves.

    >>> png = render_evaluation_chart([0, 40, -350, 3000], cap=3000, blunders=[2])
    >>> png[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
    True
    """
    if not scores:
        raise ValueError("an evaluation chart needs at least one position")
    shown = [max(-cap, min(cap, score)) for score in scores]
    step = EVALUATION_STEP if cap >= 2 * EVALUATION_STEP else max(cap // 2, 1)
    ceiling = math.ceil(cap / step) * step
    chart = _LineChart(shown, -ceiling, ceiling, step, title, width, height)
    chart.grid(_game_ticks(len(shown) - 1), first=moves_before)
    chart.rule(0, ZERO_LINE)
    chart.line()
    for plies, colour in ((mistakes, MISTAKE_DOT), (blunders, BLUNDER_DOT)):
        for ply in plies:
            if 0 <= ply < len(shown):
                chart.dot(ply, colour)
    return chart.png()


class _LineChart:
    """One line over a grid, drawn at `SUPERSAMPLE` times the size and shrunk: the
    drawing both charts share."""

    def __init__(
        self,
        values: Sequence[float],
        floor: float,
        ceiling: float,
        step: int,
        title: str | None,
        width: int,
        height: int,
    ) -> None:
        s = SUPERSAMPLE
        self.values, self.floor, self.ceiling, self.step = values, floor, ceiling, step
        self.image = Image.new("RGB", (width * s, height * s), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)
        self.font = name_font(13 * s)
        self.top = (34 if title else 14) * s
        self.left, self.right, self.bottom = 56 * s, (width - 18) * s, (height - 30) * s
        if title:  # emoji and symbols in a member's name drawn in the symbols' font
            draw_text(self.draw, (self.left, 8 * s), printable(clipped(title)), 17 * s, TITLE_TEXT)

    def y_of(self, value: float) -> float:
        span = self.ceiling - self.floor
        return self.bottom - (value - self.floor) / span * (self.bottom - self.top)

    def x_of(self, index: int) -> float:
        if len(self.values) == 1:
            return (self.left + self.right) / 2
        return self.left + index / (len(self.values) - 1) * (self.right - self.left)

    def grid(self, ticks: Sequence[int], *, first: int = 0) -> None:
        """The value's grid lines with their labels, and the x axis's numbers (the
        first value's number is `first`)."""
        s = SUPERSAMPLE
        for value in range(int(self.floor), int(self.ceiling) + 1, self.step):
            y = self.y_of(value)
            self.draw.line([(self.left, y), (self.right, y)], fill=GRID, width=s)
            label = (float(self.left - 8 * s), y)
            self.draw.text(label, str(value), font=self.font, fill=AXIS_TEXT, anchor="rm")
        for index in ticks:
            tick = (self.x_of(index), float(self.bottom + 8 * s))
            self.draw.text(tick, str(first + index), font=self.font, fill=AXIS_TEXT, anchor="mt")

    def rule(self, value: float, colour: tuple[int, int, int]) -> None:
        """A line across the chart at `value` (the evaluation chart's zero)."""
        y = self.y_of(value)
        self.draw.line([(self.left, y), (self.right, y)], fill=colour, width=2 * SUPERSAMPLE)

    def line(self) -> None:
        points = [(self.x_of(i), self.y_of(v)) for i, v in enumerate(self.values)]
        if len(points) > 1:
            self.draw.line(points, fill=LINE, width=3 * SUPERSAMPLE, joint="curve")

    def dot(self, index: int, colour: tuple[int, int, int]) -> None:
        x, y = self.x_of(index), self.y_of(self.values[index])
        radius = 4 * SUPERSAMPLE
        self.draw.ellipse([x - radius, y - radius, x + radius, y + radius], fill=colour)

    def png(self) -> bytes:
        small = self.image.reduce(SUPERSAMPLE)  # each pixel the mean of its block: smooth
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
