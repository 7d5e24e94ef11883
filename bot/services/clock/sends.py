"""What the bot sends on its own, queued in the database to go out paced: the kinds of
sends, their urgency, and the bell a producer rings once its queued send is committed.

Urgency is one small table, here: an ending by the clock goes before a reminder (a
player still has time to act on it), a reminder before a closed challenge or a vacation
that ran out, those before direct messages of events, then of turns, and a daily digest
and a server's daily problem last (they list or show what waits anyway). Within one
urgency, the oldest first.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from enum import StrEnum

from bot.db import Session

log = logging.getLogger(__name__)


class Send(StrEnum):
    """A kind of queued send, as its row names it."""

    ENDING = "ending"  # a game ended on time: its post in the thread
    REMINDER = "reminder"  # a player's time runs short: the post that mentions them
    EXPIRY = "challenge_expired"  # a challenge nobody answered: its message closed
    VACATION = "vacation_ended"  # a vacation ran out: the player's games are told
    MESSAGE = "direct_message"  # a direct message of an event (an ending, an offer, ...)
    TURN = "turn_message"  # a direct message that a player's turn began
    DIGEST = "digest"  # a player's daily digest
    PROBLEM = "daily_problem"  # a server's daily problem, and the reveal of the last one


#: Smaller goes first.
URGENCY: dict[Send, int] = {
    Send.ENDING: 0,
    Send.REMINDER: 1,
    Send.EXPIRY: 2,
    Send.VACATION: 2,
    Send.MESSAGE: 3,
    Send.TURN: 4,
    Send.DIGEST: 5,
    Send.PROBLEM: 5,
}


async def queue_for_game(tx: Session, kind: Send, game_id: int, now: datetime) -> None:
    """Queue, in the caller's transaction, a post about a game (in its server)."""
    await tx.outbox.add_for_game(kind.value, URGENCY[kind], game_id, now)


async def queue_for_challenge(
    tx: Session, kind: Send, challenge_id: int, guild_id: int, now: datetime
) -> None:
    """Queue, in the caller's transaction, a change to a challenge's message."""
    await tx.outbox.add(
        kind.value, URGENCY[kind], now, guild_id=guild_id, challenge_id=challenge_id
    )


async def queue_for_player(tx: Session, kind: Send, user_id: int, now: datetime) -> None:
    """Queue, in the caller's transaction, a send about a player (any process's)."""
    await tx.outbox.add(kind.value, URGENCY[kind], now, user_id=user_id)


class Doorbell:
    """Rung once a transaction that queued a send has committed, so that this process's
    sender looks at once rather than at its next poll."""

    def __init__(self) -> None:
        self._listeners: list[Callable[[], None]] = []

    def listen(self, listener: Callable[[], None]) -> None:
        self._listeners.append(listener)

    def ring(self) -> None:
        for listener in self._listeners:
            try:
                listener()
            except Exception:
                log.exception("outbox listener failed")
