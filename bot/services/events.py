"""What the service reports on its own (time-outs, reminders, expiries, vacations ending,
queued direct messages), for the Discord layer to post, and `SafeEvents`, which isolates
each report."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from .clock.vacation import VacationChange
from .club.challenge import Challenge
from .play.game import GameSnapshot

log = logging.getLogger(__name__)


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

    async def direct_message(self, user_id: int, content: str, *, silent: bool) -> None:
        """A direct message queued in the outbox, written for its recipient: send it."""
        ...


class SafeEvents:
    """The Discord layer's `GameEvents`, each report isolated: a failure to post is logged
    and never undoes or repeats the stored change that caused it.

    A report that a player's request brings about (their game ran out of time while they
    typed a move) is sent `later`, in a task of its own: posting it renders a board and
    uploads it, and the player's answer must not wait for that. `drain()` waits for the
    reports still under way (before the bot closes).
    """

    def __init__(self, events: GameEvents | None) -> None:
        self.target = events
        self._pending: set[asyncio.Task[None]] = set()

    def later(self, report: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(report, name="game event")
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    async def drain(self) -> None:
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def _report(
        self, what: str, subject: int, call: Callable[[GameEvents], Awaitable[None]]
    ) -> None:
        if self.target is None:
            return
        try:
            await call(self.target)
        except Exception:
            log.exception("%s handler failed for %s", what, subject)

    async def game_timed_out(self, game: GameSnapshot) -> None:
        await self._report("game_timed_out", game.id, lambda e: e.game_timed_out(game))

    async def ending_unannounced(self, game: GameSnapshot) -> None:
        await self._report("ending_unannounced", game.id, lambda e: e.ending_unannounced(game))

    async def deadline_reminder(self, game: GameSnapshot) -> None:
        await self._report("deadline_reminder", game.id, lambda e: e.deadline_reminder(game))

    async def challenge_expired(self, challenge: Challenge) -> None:
        await self._report(
            "challenge_expired", challenge.id, lambda e: e.challenge_expired(challenge)
        )

    async def vacation_ended(self, change: VacationChange) -> None:
        await self._report("vacation_ended", change.vacation.id, lambda e: e.vacation_ended(change))

    async def direct_message(self, user_id: int, content: str, *, silent: bool) -> None:
        await self._report(
            "direct_message", user_id, lambda e: e.direct_message(user_id, content, silent=silent)
        )
