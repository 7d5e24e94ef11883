"""How bunched a series of request times is: the most of them in any window of a second."""

from __future__ import annotations

from collections.abc import Iterable


def most_in_window(times: Iterable[float], window: float = 1.0) -> int:
    """The most `times` in any half-open window [t, t + `window`)."""
    ordered = sorted(times)
    most = start = 0
    for end, at in enumerate(ordered):
        while ordered[start] <= at - window:
            start += 1
        most = max(most, end - start + 1)
    return most
