"""A player's vacations as the service hands them out: one vacation, the year's allowance,
and a change the threads hear of."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from bot.db import VacationRow

from ..play.game import GameSnapshot

#: A player's vacation: since when, until when at the latest, and when it ended (None
#: while it goes on). The stored row is the whole of it, so the service hands it out as is.
Vacation = VacationRow


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
