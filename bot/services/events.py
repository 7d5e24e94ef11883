"""What the service reports on its own (time-outs, reminders, expiries, vacations ending),
for the Discord layer to post."""

from __future__ import annotations

from typing import Protocol

from .clock.vacation import VacationChange
from .club.challenge import Challenge
from .play.game import GameSnapshot


class GameEvents(Protocol):
    """What the deadline task reports; the Discord layer posts it in the game's thread."""

    async def game_timed_out(self, game: GameSnapshot) -> None: ...

    async def ending_unannounced(self, game: GameSnapshot) -> None:
        """A game ended while the bot was up, but its ending was never posted."""
        ...

    async def deadline_reminder(self, game: GameSnapshot) -> None: ...

    async def challenge_expired(self, challenge: Challenge) -> None: ...

    async def vacation_ended(self, change: VacationChange) -> None:
        """A vacation ended by itself: its player's allowance ran out."""
        ...
