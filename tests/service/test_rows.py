"""The conversions between stored columns and row values: a value and its column give each
other back, and a NULL column stays None both ways."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.db.rows import (
    duration_us_or_none,
    from_duration_us_or_none,
    from_us_or_none,
    to_us,
    usi_moves,
    usi_text,
)

MOMENT = datetime(2026, 3, 1, 12, 30, 5, 123456, tzinfo=UTC)


def test_a_moment_and_its_column_give_each_other_back() -> None:
    assert from_us_or_none(to_us(MOMENT)) == MOMENT
    assert from_us_or_none(0) == datetime(1970, 1, 1, tzinfo=UTC)
    assert from_us_or_none(None) is None


@pytest.mark.parametrize(
    "duration", [timedelta(0), timedelta(microseconds=1), timedelta(days=3, seconds=7)]
)
def test_a_duration_and_its_column_give_each_other_back(duration: timedelta) -> None:
    column = duration_us_or_none(duration)
    assert column is not None
    assert from_duration_us_or_none(column) == duration


def test_a_null_duration_stays_none_both_ways() -> None:
    assert duration_us_or_none(None) is None
    assert from_duration_us_or_none(None) is None


@pytest.mark.parametrize(
    ("moves", "text"),
    [(("7g7f", "3c3d"), "7g7f 3c3d"), (("P*5e",), "P*5e"), ((), "")],
)
def test_a_line_of_moves_and_its_column_give_each_other_back(
    moves: tuple[str, ...], text: str
) -> None:
    assert usi_text(moves) == text
    assert usi_moves(text) == moves
