"""What every benchmark measures and prints the same way.

Each benchmark prints medians and a tail percentile of its samples, and ratios against a
reference measured in the same run. Kept here once, so that a p99 in one script is the p99
of another (one definition of a percentile), the lines of different scripts read alike,
and a service under measurement sees the same fixed time in every script.

Samples are in seconds everywhere; the lines print milliseconds.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime

NAME_WIDTH = 36
"""The column the figures of a `report` line start at (a longer name pushes them right)."""


def percentile(samples: Sequence[float], fraction: float) -> float:
    """The sample at `fraction` of the way from the smallest to the largest (nearest rank
    on the sorted samples, no interpolation): always a time that was measured."""
    if not samples:
        raise ValueError("no samples")
    if not 0 <= fraction <= 1:
        raise ValueError(f"fraction {fraction} is not between 0 and 1")
    ordered = sorted(samples)
    return ordered[round(fraction * (len(ordered) - 1))]


def report(name: str, samples: Sequence[float], *, tail: float = 0.99) -> float:
    """Print one line: the median, the `tail` percentile and the largest of `samples` (in
    seconds, printed in ms) and how many there were; the median, for the ratios."""
    median = statistics.median(samples)
    high = percentile(samples, tail)
    print(
        f"{name:<{NAME_WIDTH}} median {median * 1000:8.3f} ms   "
        f"p{tail * 100:.4g} {high * 1000:8.3f} ms   max {max(samples) * 1000:8.3f} ms   "
        f"n={len(samples)}"
    )
    return median


def ratio(label: str, measured: float, reference: float) -> float:
    """Print `measured / reference` under the figures of the two `report` lines before."""
    value = measured / reference
    print(f"{'':<{NAME_WIDTH}} {label} = {value:.2f}")
    return value


@contextmanager
def lap(samples: list[float]) -> Iterator[None]:
    """Append the time the `with` block took, in seconds, to `samples` (an `await` inside
    counts, so it times a coroutine as well as a call)."""
    started = time.perf_counter()
    yield
    samples.append(time.perf_counter() - started)


def run_times(action: Callable[[], object], runs: int, number: int = 1) -> list[float]:
    """The time of one call of `action` in each of `runs` runs, each averaged over `number`
    calls (more calls a run for what is too quick to time alone)."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        for _ in range(number):
            action()
        times.append((time.perf_counter() - started) / number)
    return times


def median_time(action: Callable[[], object], runs: int = 5, number: int = 1) -> float:
    """The median of `run_times`, in seconds: one slow run (a collection, another process)
    does not move it."""
    return statistics.median(run_times(action, runs, number))


class Clock:
    """A service's clock that stands still until a benchmark moves it (`clock.now += ...`),
    so that deadlines and ratings periods are the same in every run."""

    def __init__(self, now: datetime | None = None) -> None:
        self.now = now or datetime(2025, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now
