"""What the clock's two tasks act on: the deadline check finds what fell due and queues it,
the outbox sends it; both over the same games, challenges and vacations, for the servers of
one shard scope (None: every server)."""

from __future__ import annotations

from bot.db import ShardScope

from ..club.challenges import Challenges
from ..play.store import GameStore
from .vacations import Vacations


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
