"""`GameService`: the parts of the service, composed over one game store.

Each part answers one kind of question and shares nothing with the others but
the store (database, clock, caches, events, and the checks every action makes),
so a reader finds what `/move` does in `play/moves.py` (and the forecast reply it
may trigger in `play/forecast_replies.py`).
"""

from __future__ import annotations

from typing import Unpack

from bot.db import Database, ShardScope
from bot.engine import EnginePool

from .budgets import Budgets
from .clock.deadlines import Deadlines
from .clock.digests import Digests
from .clock.extra_time import ExtraTime
from .clock.outbox import Outbox
from .clock.vacations import Vacations
from .club.challenges import Challenges
from .club.channels import LostChannels
from .club.preferences import PlayerPreferences
from .club.rematches import Rematches
from .club.servers import Servers
from .computer.analysis import ANALYSIS_MS, Analyses
from .computer.opponent import Computer
from .events import GameEvents
from .explorer.explorer import Explorer
from .play.endings import Endings
from .play.finding import Games
from .play.forecasts import Forecasts
from .play.impasse import Impasse
from .play.moves import Moves
from .play.notes import Notes
from .play.picker import Pointing
from .play.store import GameStore, StoreOptions
from .play.takebacks import Takebacks
from .problems.daily import DailyProblems
from .problems.scanning import ProblemScanner
from .ratings.standings import Ratings
from .records.exports import Exports
from .records.openings import GameOpenings
from .tournaments.service import Tournaments
from .tournaments.team_matches import TeamMatches


class GameService:
    """Everything the bot does, without Discord. Every method of its parts returns one
    plain value or raises a `ServiceError` whose `message` a player can read.

    Example::

        service = GameService(await open_database("data/shogi.db"))
        challenge = await service.challenges.offer(guild_id=1, channel_id=2,
                                                   challenger=alice, opponent=bob)
        game = await service.challenges.accept(challenge.id, bob.user_id)
        played = await service.moves.play(game.id, game.to_move.user_id, "P-76")

    With several bot processes on one database, `scope` is the servers this process
    looks after (its deadlines are theirs only) and `shared_database` makes it read the
    settings other processes may change (servers' languages, players' preferences) from
    the database at each use instead of keeping them. `budgets` are the limits per member
    and server it checks (`Budgets`, the defaults without). The rest (`StoreOptions`: the
    clock, where events go, randomness, the cache's size) are its store's.
    """

    def __init__(
        self,
        db: Database,
        *,
        engine: EnginePool | None = None,
        analysis_ms: int = ANALYSIS_MS,
        scope: ShardScope | None = None,
        shared_database: bool = False,
        budgets: Budgets | None = None,
        **store: Unpack[StoreOptions],
    ) -> None:
        self.store = GameStore(db, **store)
        self.games = Games(self.store)
        self.moves = Moves(self.store)
        self.pointing = Pointing(self.store)
        self.endings = Endings(self.store)
        self.extra_time = ExtraTime(self.store)
        self.budgets = Budgets() if budgets is None else budgets
        self.challenges = Challenges(self.store, self.budgets)
        self.rematches = Rematches(self.store, self.challenges)
        self.impasse = Impasse(self.store)
        self.takebacks = Takebacks(self.store)
        self.forecasts = Forecasts(self.store)
        self.notes = Notes(self.store, self.budgets)
        self.exports = Exports(self.store, self.notes)
        self.openings = GameOpenings(self.store)
        self.vacations = Vacations(self.store, self.budgets)
        self.deadlines = Deadlines(self.store, self.challenges, self.vacations, scope=scope)
        self.outbox = Outbox(self.store, self.challenges, self.vacations, scope=scope)
        self.servers = Servers(self.store, read_through=shared_database)
        self.lost_channels = LostChannels(self.store)
        self.preferences = PlayerPreferences(self.store, read_through=shared_database)
        self.digests = Digests(self.store, self.games)
        self.preferences.add_change_listener(self.digests.preferences_changed)
        self.ratings = Ratings(self.store)
        self.explorer = Explorer(self.store)
        # Mate problems from finished games: scanned once a Discord feature gives it workers.
        self.problems = ProblemScanner(self.store)
        self.daily_problems = DailyProblems(self.store, scope=scope)
        # The engine (None without one): the computer's moves and analyses share its jobs.
        self.computer = Computer(self.store, self.challenges, self.moves, self.endings, engine)
        self.analyses = Analyses(self.store, engine, movetime_ms=analysis_ms, budgets=self.budgets)
        # Tournaments start at their time and act on left-over results in the deadline check.
        self.tournaments = Tournaments(self.store)
        self.deadlines.add_due_work(self.tournaments)
        # Team matches: two teams' games created at once, each result acted on once.
        self.team_matches = TeamMatches(self.store)

    def report_to(self, events: GameEvents | None) -> None:
        """Send the service's events (time-outs, reminders, expiries) to `events`."""
        self.store.events.target = events

    async def close(self) -> None:
        """Finish the reports still under way (the database and the engine stay open:
        they are the caller's)."""
        await self.store.events.drain()
