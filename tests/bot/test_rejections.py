"""The count of Discord's refusals: every 4xx by status, the invalid ones (401, 403, 429)
of the last 10 minutes in bounded memory however many arrive, and one warning past the
alarm, again only after the count fell below it."""

from __future__ import annotations

import logging

import pytest

from bot.ui.rejections import ALARM, WINDOW, Rejections


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def test_every_4xx_is_counted_by_status_and_only_invalid_ones_in_the_window() -> None:
    clock = Clock()
    refused = Rejections(clock)
    for status in (200, 204, 304, 400, 403, 404, 404, 429, 401, 500, 502):
        refused.record(status)
    assert refused.by_status == {400: 1, 401: 1, 403: 1, 404: 2, 429: 1}
    assert refused.invalid_recently() == 3  # 401, 403, 429: what Discord bans for


def test_the_window_forgets_what_is_ten_minutes_old() -> None:
    clock = Clock()
    refused = Rejections(clock)
    refused.record(403)
    clock.now += WINDOW / 2
    refused.record(429)
    refused.record(429)
    assert refused.invalid_recently() == 3
    clock.now += WINDOW / 2  # the first is exactly 10 minutes old: out
    assert refused.invalid_recently() == 2
    clock.now += WINDOW
    assert refused.invalid_recently() == 0
    assert refused.by_status == {403: 1, 429: 2}  # the totals stay


def test_a_storm_costs_one_number_a_second() -> None:
    clock = Clock()
    refused = Rejections(clock)
    for _ in range(3 * WINDOW):
        clock.now += 1
        for _ in range(20):
            refused.record(403)
    assert refused.invalid_recently() == 20 * WINDOW
    assert len(refused._seconds) <= WINDOW


def test_one_warning_past_the_alarm_and_again_after_a_calm(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="bot.ui.rejections")
    clock = Clock()
    refused = Rejections(clock)
    for _ in range(ALARM):
        refused.record(429)
    assert not caplog.records  # at the alarm, not yet past it
    for _ in range(5 * ALARM):
        refused.record(403)
    [warning] = caplog.records
    assert warning.levelno == logging.WARNING and f"{ALARM + 1} requests" in warning.message

    clock.now += WINDOW  # ten calm minutes: the count falls to nothing
    for _ in range(ALARM + 1):
        refused.record(401)
    assert len(caplog.records) == 2
