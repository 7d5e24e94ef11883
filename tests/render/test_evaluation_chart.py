"""The evaluation chart: decoded with Pillow, sente's advantage above the middle line,
scores beyond the cap drawn at the edge, and a dot on each marked move."""

from __future__ import annotations

import pytest

from render import render_evaluation_chart
from render.chart import BLUNDER_DOT, HEIGHT, MISTAKE_DOT, WIDTH

from .test_chart import decode, line_rows

TOP, BOTTOM = 14, HEIGHT - 30  # the plot's edges without a title
MIDDLE = (TOP + BOTTOM) / 2


def near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 30 for a, b in zip(colour, wanted, strict=True))


def test_sente_ahead_is_above_the_middle_and_gote_ahead_below() -> None:
    image = decode(render_evaluation_chart([1500, 1500, -1500, -1500], cap=3000))
    assert image.size == (WIDTH, HEIGHT)
    start, end = line_rows(image, 60), line_rows(image, WIDTH - 22)
    assert start and end
    assert max(start) < MIDDLE - 30 and min(end) > MIDDLE + 30


def test_scores_beyond_the_cap_are_drawn_at_the_edge() -> None:
    image = decode(render_evaluation_chart([99999, 99999], cap=3000))
    rows = line_rows(image, WIDTH // 2)
    assert rows and abs(min(rows) - TOP) < 6


def test_marked_moves_get_their_dots() -> None:
    png = render_evaluation_chart([0, 0, 0, 0, 0], cap=3000, mistakes=[1], blunders=[3])
    image = decode(png)
    step = (WIDTH - 18 - 56) / 4
    for ply, colour in ((1, MISTAKE_DOT), (3, BLUNDER_DOT)):
        x, y = round(56 + ply * step), round(MIDDLE)
        assert near(image.getpixel((x, y)), colour)  # type: ignore[arg-type]
    assert not near(image.getpixel((round(56 + 2 * step), round(MIDDLE))), BLUNDER_DOT)  # type: ignore[arg-type]


def test_no_positions_is_a_mistake() -> None:
    with pytest.raises(ValueError, match="at least one"):
        render_evaluation_chart([], cap=3000)
