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

from ..errors import BadTimeControl

DAY = timedelta(days=1)
HOUR = timedelta(hours=1)
MIN_PERIOD = HOUR
MAX_PERIOD = timedelta(days=30)
MAX_BANK = timedelta(days=60)
REMINDER_SHARE = (4, 5)  # remind when 80 % of the allowance is used ...
REMINDER_BEFORE = timedelta(hours=24)  # ... or 24 hours before, whichever is later

#: Each unit's spans, by the ways players write it (as Japanese players write them too:
#: 3日, 12時間, 30分, 1週間).
_UNIT_NAMES = {
    timedelta(weeks=1): ("w", "week", "weeks", "週間", "週"),
    DAY: ("d", "day", "days", "日間", "日"),
    HOUR: ("h", "hour", "hours", "時間"),
    timedelta(minutes=1): ("m", "min", "mins", "minute", "minutes", "分"),
}
_UNITS = {name: span for span, names in _UNIT_NAMES.items() for name in names}
#: A number and its unit. A number starts only where no digit or point precedes it, and its
#: digits are never given back (possessive), so a long run of digits without a unit is
#: scanned once, not again from each of its positions.
_PART = re.compile(r"(?<![0-9.])([0-9]++(?:\.[0-9]++)?+)\s*([a-z]+|週間|週|日間|日|時間|分)")
#: The longest number read, and the most digits its whole part may have (9999 weeks is far
#: beyond any allowed time, yet small enough that a sum over the 6,000 characters Discord
#: lets through stays a timedelta): longer ones are refused before they are converted.
_MAX_NUMBER_LENGTH = 12
_MAX_WHOLE_DIGITS = 4
#: Numbers in kanji, as an IME may offer them: 三日, 十四日, 二十日; one to ninety-nine.
_KANJI_NUMBER = re.compile(r"[一二三四五六七八九十]+")
_KANJI_VALUE = re.compile(r"(?:([一二三四五六七八九])?(十))?([一二三四五六七八九])?")
_KANJI_DIGITS = "一二三四五六七八九"
_UNLIMITED = {"unlimited", "none", "no limit", "infinite", "∞", "無制限", "なし", "無し"}
#: Words for "per move" that may follow the period: "1 day per move", "1日/手", "毎手".
_PER_MOVE = ("per move", "/move", "/手", "毎手")

#: Past this, a sum of parts is refused at once: longer than any bank or period allowed.
_LONGEST = max(MAX_BANK, MAX_PERIOD)
_PERIOD_OUT_OF_RANGE = Sentence("The time per move must be between 1 hour and 30 days.")
_BANK_TOO_LONG = Sentence("The main time can be at most 60 days.")

PRESETS: tuple[str, ...] = ("1d", "2d", "3d", "5d", "7d", "14d", "7d+1d", "unlimited")


def _unreadable(text: str) -> BadTimeControl:
    return BadTimeControl(
        Sentence(
            "I cannot read the time '{text}'. Write it like `3d`, `12h`, `7d+1d` or `unlimited`.",
            text=quote(text),
        )
    )


def _parse_duration(text: str, too_long: Sentence) -> timedelta:
    """The sum of `text`'s parts (`1d12h`); `too_long` refuses a number or a sum beyond
    any allowed time, before a conversion could overflow."""
    text = text.strip()
    total = timedelta()
    position = 0
    for match in _PART.finditer(text):
        if text[position : match.start()].strip():
            raise _unreadable(text)
        number = match.group(1)
        if len(number.partition(".")[0].lstrip("0")) > _MAX_WHOLE_DIGITS:
            raise BadTimeControl(too_long)
        if len(number) > _MAX_NUMBER_LENGTH:
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
        total += unit * float(number)
        if total > _LONGEST:
            raise BadTimeControl(too_long)
        position = match.end()
    if position == 0 or text[position:].strip():
        raise _unreadable(text)
    return timedelta(seconds=round(total.total_seconds()))


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A bank used first, then a period per move; `period=None` means no time limit.
    How it reads in each language is the Discord layer's (`text.time_control_text`).

    >>> control = TimeControl.parse("七日＋一日")
    >>> control.bank.days, control.period.days if control.period else None, str(control)
    (7, 1, '7d+1d')
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
        wanted = _KANJI_NUMBER.sub(lambda m: str(_kanji_number(m[0], text)), wanted)
        for words in _PER_MOVE:
            wanted = wanted.replace(words, "")
        wanted = wanted.strip()
        if wanted in _UNLIMITED:
            return cls(timedelta(), None)
        bank_text, plus, period_text = wanted.partition("+")
        if plus:
            bank = _parse_duration(bank_text, _BANK_TOO_LONG)
            period = _parse_duration(period_text, _PERIOD_OUT_OF_RANGE)
        else:
            bank, period = timedelta(), _parse_duration(bank_text, _PERIOD_OUT_OF_RANGE)
        if not MIN_PERIOD <= period <= MAX_PERIOD:
            raise BadTimeControl(_PERIOD_OUT_OF_RANGE)
        if bank > MAX_BANK:
            raise BadTimeControl(_BANK_TOO_LONG)
        return cls(bank, period)

    @property
    def unlimited(self) -> bool:
        return self.period is None

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


def _kanji_number(kanji: str, text: str) -> int:
    """一 ... 九十九 as a number (十 is ten; 二十 twenty; 十四 fourteen); anything else
    (十十, 一二三, 百) is not a number a player writes, and `text` cannot be read."""
    match = _KANJI_VALUE.fullmatch(kanji)
    if match is None or not kanji:
        raise _unreadable(text)
    tens, ten, ones = match.groups()
    high = _KANJI_DIGITS.index(tens) + 1 if tens else 1 if ten else 0
    low = _KANJI_DIGITS.index(ones) + 1 if ones else 0
    return high * 10 + low


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
