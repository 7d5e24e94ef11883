"""Time controls as players type them, and the clock arithmetic."""

from __future__ import annotations

from datetime import timedelta

import pytest

from bot.services import BadTimeControl, TimeControl
from bot.services.clock.clocks import PRESETS, bank_after, due_at, reminder_at

from .conftest import START

D = timedelta(days=1)
H = timedelta(hours=1)


@pytest.mark.parametrize(
    ("text", "bank", "period"),
    [
        ("3d", timedelta(), 3 * D),
        ("1d", timedelta(), D),
        ("14d", timedelta(), 14 * D),
        ("12h", timedelta(), 12 * H),
        ("7d+1d", 7 * D, D),
        (" 7 days + 1 day per move ", 7 * D, D),
        ("1d12h", timedelta(), 36 * H),
        ("2W", timedelta(), 14 * D),
        ("90m", timedelta(), 90 * timedelta(minutes=1)),
        ("unlimited", timedelta(), None),
        ("Unlimited", timedelta(), None),
        # Japanese, full width from a phone keyboard included.
        ("3日", timedelta(), 3 * D),
        ("３日", timedelta(), 3 * D),
        ("12時間", timedelta(), 12 * H),
        ("7日+1日", 7 * D, D),
        ("７日＋１日", 7 * D, D),
        ("1日12時間", timedelta(), 36 * H),
        ("90分", timedelta(), 90 * timedelta(minutes=1)),
        ("2週間", timedelta(), 14 * D),
        ("1日/手", timedelta(), D),
        ("無制限", timedelta(), None),
        ("3日間", timedelta(), 3 * D),
        ("三日", timedelta(), 3 * D),
        ("十四日", timedelta(), 14 * D),
        ("二十日", timedelta(), 20 * D),
        ("七日+一日", 7 * D, D),
        ("十二時間", timedelta(), 12 * H),
        ("九十九時間", timedelta(), 99 * H),
        ("007d", timedelta(), 7 * D),
        ("1.5d", timedelta(), 36 * H),
    ],
)
def test_parse(text: str, bank: timedelta, period: timedelta | None) -> None:
    control = TimeControl.parse(text)
    assert (control.bank, control.period) == (bank, period)
    assert TimeControl.parse(str(control)) == control


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "cannot read"),
        ("abc", "cannot read"),
        ("3", "cannot read"),
        ("3x", "Unknown time unit"),
        ("7d+", "cannot read"),
        ("30m", "between 1 hour and 30 days"),
        ("31d", "between 1 hour and 30 days"),
        ("61d+1d", "at most 60 days"),
        ("3d 4", "cannot read"),
        ("三日間日", "cannot read"),
        ("百日", "cannot read"),
        ("30分", "between 1 hour and 30 days"),
        # Kanji that are not a number, and numbers too large to hold: one sentence each.
        ("十十日", "cannot read"),
        ("一十一十日", "cannot read"),
        ("十一一日", "cannot read"),
        ("一" * 5_000 + "日", "cannot read"),
        ("99999999999999999999d", "between 1 hour and 30 days"),
        ("1" * 5_000 + "d", "between 1 hour and 30 days"),
        ("1d+99999999999999999999d", "between 1 hour and 30 days"),
        ("99999999999999999999d+1d", "at most 60 days"),
        ("9999w" * 1_000, "between 1 hour and 30 days"),
        ("1e308d", "Unknown time unit"),
        ("0." + "0" * 5_000 + "1d", "cannot read"),
        ("١d", "cannot read"),
    ],
)
def test_bad_time_controls_say_why(text: str, words: str) -> None:
    with pytest.raises(BadTimeControl, match=words):
        TimeControl.parse(text)


def test_a_long_run_of_digits_without_a_unit_is_unreadable() -> None:
    """The longest time option Discord sends, digits without a unit (its scan, which was
    quadratic here, is timed through the bot by tests/robustness/test_fuzz_commands.py)."""
    with pytest.raises(BadTimeControl, match="cannot read"):
        TimeControl.parse("1" * 6_000)
    with pytest.raises(BadTimeControl, match="cannot read"):
        TimeControl.parse("1." * 3_000)


def test_every_preset_parses() -> None:
    assert [str(TimeControl.parse(preset)) for preset in PRESETS] == list(PRESETS)


def test_deadline_is_turn_start_plus_bank_plus_period() -> None:
    assert due_at(START, 2 * D, D) == START + 3 * D
    assert due_at(START, timedelta(), 3 * D) == START + 3 * D
    assert due_at(START, 5 * D, None) is None


@pytest.mark.parametrize(
    ("allowance", "reminder_after"),
    [
        (3 * D, 3 * D * 4 / 5),  # 80 % is later than 24 h before (2 days)
        (14 * D, 13 * D),  # 24 h before is later than 80 % (11.2 days)
        (5 * D, 4 * D),  # both the same moment
        (12 * H, 12 * H * 4 / 5),
    ],
)
def test_reminder_at_80_percent_or_24_hours_before_whichever_later(
    allowance: timedelta, reminder_after: timedelta
) -> None:
    assert reminder_at(START, START + allowance) == START + reminder_after


def test_thinking_time_comes_out_of_the_bank_first() -> None:
    assert bank_after(2 * D, 12 * H) == D + 12 * H
    assert bank_after(2 * D, 3 * D) == timedelta()
    assert bank_after(timedelta(), H) == timedelta()
    assert bank_after(D, -H) == D  # a clock step backwards never adds time


def test_docstring_examples() -> None:
    import doctest

    from bot.services.clock import clocks

    result = doctest.testmod(clocks)
    assert result.attempted > 0 and result.failed == 0
