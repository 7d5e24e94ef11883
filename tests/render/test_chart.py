"""The rating chart: decoded with Pillow, the line found where the ratings put it."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import render_rating_chart
from render.chart import HEIGHT, LINE, WIDTH


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def line_rows(image: Image.Image, x: int) -> list[int]:
    """The rows of column `x` drawn in (nearly) the line's colour."""
    return [
        y
        for y in range(image.height)
        if all(abs(a - b) <= 40 for a, b in zip(image.getpixel((x, y)), LINE, strict=True))  # type: ignore[arg-type]
    ]


def test_a_rising_rating_is_drawn_from_low_left_to_high_right() -> None:
    image = decode(render_rating_chart([1500, 1560, 1620, 1700], title="Alice"))
    assert image.size == (WIDTH, HEIGHT)
    start, end = line_rows(image, 60), line_rows(image, WIDTH - 22)
    assert start and end
    assert min(end) < min(start) - 100  # the last rating is well above the first


def test_a_falling_rating_ends_low() -> None:
    image = decode(render_rating_chart([1700, 1650, 1500]))
    start, end = line_rows(image, 60), line_rows(image, WIDTH - 22)
    assert start and end and min(end) > max(start) + 100


def test_one_rating_is_a_dot_in_the_middle() -> None:
    image = decode(render_rating_chart([1500], title="Bob"))
    rows = line_rows(image, (56 + WIDTH - 18) // 2)  # between the plot's left and right
    assert rows and abs(sum(rows) / len(rows) - (34 + HEIGHT - 30) / 2) < 10


def test_any_name_and_a_long_history_draw() -> None:
    ratings = [1500 + (i % 7) * 30 - i for i in range(500)]
    image = decode(render_rating_chart(ratings, title="🦊 Ōshō 王将 ⚔"))
    assert line_rows(image, WIDTH // 2)


def test_no_ratings_is_a_mistake() -> None:
    with pytest.raises(ValueError, match="at least one"):
        render_rating_chart([])
