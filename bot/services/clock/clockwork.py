"""What the clock's two tasks act on: the deadline check finds what fell due and queues it,
the outbox sends it; both over the same games, challenges and vacations, for the servers of
one shard scope (None: every server)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.db import OutboxRow, ShardScope

from ..club.challenges import Challenges
from ..play.store import GameStore
from .sends import Send
from .vacations import Vacations

#: Delivers an outbox row of a kind a feature takes care of (a server's daily problem).
Deliverer = Callable[[OutboxRow], Awaitable[None]]


class Clockwork:
    """The parts a clock task needs, given once: `Deadlines` and `Outbox` are both built
    over them by the service."""

    def __init__(
        self,
        store: GameStore,
        challenges: Challenges,
        vacations: Vacations,
        *,
        scope: ShardScope | None = None,
    ) -> None:
        self._store = store
        self._challenges = challenges
        self._vacations = vacations
        #: The shards whose servers this process settles (None: all of them).
        self.scope = scope
        #: The outbox's rows that features deliver, by kind (see `Outbox.deliver_with`).
        self._deliverers: dict[Send, Deliverer] = {}
