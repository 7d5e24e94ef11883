"""A colour is never a truth value: `Color.SENTE` is 0 as an IntEnum, so `color or
fallback` would silently pick the fallback for sente."""

from __future__ import annotations

import pytest

from rules import Color


@pytest.mark.parametrize("color", list(Color))
def test_a_colour_refuses_to_be_a_truth_value(color: Color) -> None:
    with pytest.raises(TypeError, match="is None"):
        bool(color)
    with pytest.raises(TypeError):
        _ = color or Color.GOTE


@pytest.mark.parametrize("color", list(Color))
def test_a_colour_still_counts_and_indexes_as_its_number(color: Color) -> None:
    assert color is not None
    assert [10, 20][color] == (10 if color is Color.SENTE else 20)
    assert color == int(color) and color.opponent is not color
