"""Correspondence clocks: a bank (main time) per player plus a per-move period.

The correspondence form of main time + byoyomi: while a
player's bank lasts, thinking time comes out of it; once it is empty, every
move must come within the period, and a move made resets the period. So the
player to move must move by

    turn started + what is left of their bank + period

where "turn started" is the previous move (or the game's start). Everything is
computed from stored timestamps and banks, never from a running timer, so the
state after a restart is exactly the state before it.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta

from rules import Sentence
from rules.errors import quote

from .errors import BadTimeControl

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
MIN_PERIOD = HOUR
MAX_PERIOD = timedelta(days=30)
MAX_BANK = timedelta(days=60)
REMINDER_SHARE = (4, 5)  # remind when 80 % of the allowance is used ...
REMINDER_BEFORE = timedelta(hours=24)  # ... or 24 hours before, whichever is later

_UNITS = {
    "w": timedelta(weeks=1),
    "week": timedelta(weeks=1),
    "weeks": timedelta(weeks=1),
    "d": DAY,
    "day": DAY,
    "days": DAY,
    "h": HOUR,
    "hour": HOUR,
    "hours": HOUR,
    "m": timedelta(minutes=1),
    "min": timedelta(minutes=1),
    "mins": timedelta(minutes=1),
    "minute": timedelta(minutes=1),
    "minutes": timedelta(minutes=1),
    # As Japanese players write them: 3日, 12時間, 30分, 1週間.
    "週間": timedelta(weeks=1),
    "週": timedelta(weeks=1),
    "日": DAY,
    "時間": HOUR,
    "分": timedelta(minutes=1),
}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]+|週間|週|日|時間|分)")
_UNLIMITED = {"unlimited", "none", "no limit", "infinite", "∞", "無制限", "なし", "無し"}
#: Words for "per move" that may follow the period: "1 day per move", "1日/手", "毎手".
_PER_MOVE = ("per move", "/move", "/手", "毎手")

PRESETS: tuple[str, ...] = ("1d", "2d", "3d", "5d", "7d", "14d", "7d+1d", "unlimited")


def _unreadable(text: str) -> BadTimeControl:
    return BadTimeControl(
        Sentence(
            "I cannot read the time '{text}'. Write it like `3d`, `12h`, `7d+1d` or `unlimited`.",
            text=quote(text),
        )
    )


def _parse_duration(text: str) -> timedelta:
    text = text.strip()
    total = timedelta()
    position = 0
    for match in _PART.finditer(text):
        if text[position : match.start()].strip():
            raise _unreadable(text)
        unit = _UNITS.get(match.group(2))
        if unit is None:
            raise BadTimeControl(
                Sentence(
                    "Unknown time unit '{unit}'. "
                    "Write it like `3d`, `12h`, `7d+1d` or `unlimited`.",
                    unit=quote(match.group(2)),
                )
            )
        total += unit * float(match.group(1))
        position = match.end()
    if position == 0 or text[position:].strip():
        raise _unreadable(text)
    return timedelta(seconds=round(total.total_seconds()))


def _describe_duration(duration: timedelta) -> str:
    parts = []
    days, rest = divmod(int(duration.total_seconds()), 86_400)
    hours, rest = divmod(rest, 3_600)
    minutes = rest // 60
    for amount, unit in ((days, "day"), (hours, "hour"), (minutes, "minute")):
        if amount:
            parts.append(f"{amount} {unit}{'s' if amount != 1 else ''}")
    return " ".join(parts) or "0 minutes"


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A bank used first, then a period per move; `period=None` means no time limit.

    >>> TimeControl.parse("7d+1d").describe()
    '7 days + 1 day per move'
    """

    bank: timedelta
    period: timedelta | None

    @classmethod
    def parse(cls, text: TimeControl | str) -> TimeControl:
        """`"3d"` (3 days per move), `"12h"`, `"7d+1d"` (7-day bank, then 1 day per move),
        `"unlimited"`, and as Japanese players write them: `"3日"`, `"12時間"`,
        `"７日＋１日"`, `"無制限"`. Raises `BadTimeControl` saying why for anything else."""
        if isinstance(text, TimeControl):
            return text
        # NFKC folds what a phone keyboard types in full width: ３日＋１日 is 3日+1日.
        wanted = unicodedata.normalize("NFKC", text).strip().lower()
        for words in _PER_MOVE:
            wanted = wanted.replace(words, "")
        wanted = wanted.strip()
        if wanted in _UNLIMITED:
            return cls(timedelta(), None)
        bank_text, plus, period_text = wanted.partition("+")
        if plus:
            bank, period = _parse_duration(bank_text), _parse_duration(period_text)
        else:
            bank, period = timedelta(), _parse_duration(bank_text)
        if not MIN_PERIOD <= period <= MAX_PERIOD:
            raise BadTimeControl(Sentence("The time per move must be between 1 hour and 30 days."))
        if bank > MAX_BANK:
            raise BadTimeControl(Sentence("The main time can be at most 60 days."))
        return cls(bank, period)

    @property
    def unlimited(self) -> bool:
        return self.period is None

    def describe(self) -> str:
        """`"3 days per move"`, `"7 days + 1 day per move"`, `"unlimited"`."""
        if self.period is None:
            return "unlimited"
        per_move = f"{_describe_duration(self.period)} per move"
        if self.bank:
            return f"{_describe_duration(self.bank)} + {per_move}"
        return per_move

    def __str__(self) -> str:
        """The short form that `parse` reads back: `"3d"`, `"7d+1d"`, `"unlimited"`."""
        if self.period is None:
            return "unlimited"

        def short(duration: timedelta) -> str:
            seconds = int(duration.total_seconds())
            if seconds % 86_400 == 0:
                return f"{seconds // 86_400}d"
            if seconds % 3_600 == 0:
                return f"{seconds // 3_600}h"
            return f"{seconds // 60}m"

        return f"{short(self.bank)}+{short(self.period)}" if self.bank else short(self.period)


def due_at(
    turn_started: datetime, bank_left: timedelta, period: timedelta | None
) -> datetime | None:
    """When the player to move loses on time (None without a time limit)."""
    if period is None:
        return None
    return turn_started + bank_left + period


def reminder_at(turn_started: datetime, due: datetime) -> datetime:
    """80 % of the allowance used, or 24 hours before the deadline, whichever is later."""
    share, whole = REMINDER_SHARE
    at_share = turn_started + (due - turn_started) * share // whole
    return max(at_share, due - REMINDER_BEFORE)


def bank_after(bank_left: timedelta, thinking: timedelta) -> timedelta:
    """What is left of a bank after thinking this long (the period covers any excess)."""
    return max(bank_left - max(thinking, timedelta()), timedelta())
