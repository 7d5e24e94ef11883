"""A player's vacations as the service hands them out: one vacation, the year's allowance,
and a change the threads hear of."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from ..play.game import (
    GameSnapshot,
)


@dataclass(frozen=True, slots=True)
class Vacation:
    """A player's vacation: since when, until when at the latest, and when it ended (None
    while it goes on)."""

    id: int
    user_id: int
    started_at: datetime
    ends_by: datetime
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class VacationStatus:
    """A player's vacation allowance this calendar year and the vacation under way."""

    year: int
    allowance: timedelta
    used: timedelta  # ended vacations of the year, each rounded up to the hour
    current: Vacation | None

    @property
    def left(self) -> timedelta:
        return max(self.allowance - self.used, timedelta())


@dataclass(frozen=True, slots=True)
class VacationChange:
    """A vacation that began or ended, with the player's active games as they are now
    (each game's thread is told)."""

    vacation: Vacation
    games: list[GameSnapshot]
    status: VacationStatus
