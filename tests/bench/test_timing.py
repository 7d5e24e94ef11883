"""The statistics every benchmark prints: one percentile, one line, one clock.

The benchmarks only print, so nothing else would notice a percentile that picks the wrong
sample or a line whose figures are in the wrong unit."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest

from bench.timing import Clock, lap, median_time, percentile, ratio, report, run_times


def test_a_percentile_is_a_measured_sample_at_its_rank() -> None:
    samples = [float(n) for n in range(100, 0, -1)]  # 1 to 100, unsorted
    assert percentile(samples, 0.0) == 1.0
    assert percentile(samples, 0.5) == 51.0  # rank 49.5 rounds to the even 50: the 51st
    assert percentile(samples, 0.95) == 95.0
    assert percentile(samples, 0.99) == 99.0
    assert percentile(samples, 1.0) == 100.0


def test_a_high_percentile_of_few_samples_is_near_the_largest() -> None:
    """Not the smallest: with two samples, a p95 is the larger one."""
    assert percentile([3.0, 1.0], 0.95) == 3.0
    assert percentile([2.0, 1.0, 3.0], 0.95) == 3.0
    assert percentile([7.0], 0.99) == 7.0


@pytest.mark.parametrize("fraction", [-0.1, 1.5])
def test_a_percentile_outside_zero_to_one_is_refused(fraction: float) -> None:
    with pytest.raises(ValueError, match="between 0 and 1"):
        percentile([1.0, 2.0], fraction)


def test_no_samples_have_no_percentile() -> None:
    with pytest.raises(ValueError, match="no samples"):
        percentile([], 0.5)


def test_a_report_line_prints_seconds_as_milliseconds(capsys: pytest.CaptureFixture[str]) -> None:
    samples = [0.001 * n for n in range(1, 101)]  # 1 ms to 100 ms
    median = report("play", samples, tail=0.95)
    line = capsys.readouterr().out
    assert median == pytest.approx(0.0505)
    assert line.split() == [
        "play", "median", "50.500", "ms", "p95", "95.000", "ms", "max", "100.000", "ms", "n=100",
    ]  # fmt: skip


def test_the_tail_of_a_report_is_named_by_its_percentile(
    capsys: pytest.CaptureFixture[str],
) -> None:
    report("get", [0.002, 0.001])
    report("get", [0.002, 0.001], tail=0.999)
    first, second = capsys.readouterr().out.splitlines()
    assert " p99 " in first
    assert " p99.9 " in second


def test_a_ratio_is_the_measured_over_the_reference(capsys: pytest.CaptureFixture[str]) -> None:
    assert ratio("rated / unrated", 3.0, 2.0) == 1.5
    assert capsys.readouterr().out.strip() == "rated / unrated = 1.50"


async def test_a_lap_times_what_its_block_awaits() -> None:
    samples: list[float] = []
    with lap(samples):
        await asyncio.sleep(0.02)
    with lap(samples):
        pass
    assert len(samples) == 2
    assert samples[0] >= 0.015 > samples[1] >= 0  # a margin for the clocks' resolution


def test_each_run_calls_the_action_number_times() -> None:
    calls: list[None] = []
    times = run_times(lambda: calls.append(None), runs=4, number=3)
    assert len(times) == 4 and len(calls) == 12
    assert all(t >= 0 for t in times)
    assert median_time(lambda: calls.append(None), runs=3) >= 0
    assert len(calls) == 15


def test_a_clock_stands_still_until_moved() -> None:
    clock = Clock()
    start = clock()
    assert start == datetime(2025, 1, 1, tzinfo=UTC) == clock()
    clock.now += timedelta(hours=5)
    assert clock() == start + timedelta(hours=5)
    later = datetime(2026, 6, 1, tzinfo=UTC)
    assert Clock(later)() == later
