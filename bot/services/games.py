"""`GameService`: everything a command does, without Discord.

The parts live in their own modules (challenges, play, impasse, deadlines,
export) as mixins over `ServiceBase`, which holds the database, the clock and
the caches; this class only puts them together, so the Discord layer sees one
object with one method per action.
"""

from __future__ import annotations

from .deadlines import DeadlineService
from .export import ExportService
from .impasse import ImpasseService
from .play import PlayService


class GameService(DeadlineService, PlayService, ImpasseService, ExportService):
    """The game service. `GameService(db, clock=..., events=...)`; every method returns a
    plain result object or raises a `ServiceError` whose `message` a player can read.

    Example::

        service = GameService(await Database.open("data/shogi.db"))
        challenge = await service.challenge(guild_id=1, channel_id=2, challenger=a, opponent=b)
        game = await service.accept(challenge.id, b.user_id)
        result = await service.play(game.id, game.to_move.user_id, "P-76")
    """
