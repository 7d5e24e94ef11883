"""A clock the test moves by hand, given to the bot as its ``clock=``."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta


class FakeClock:
    """The bot's clock, moved by hand: deadlines and reminders without waiting for them."""

    def __init__(self, start: datetime | None = None) -> None:
        self.now = start or datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, delta: timedelta) -> None:
        self.now += delta
