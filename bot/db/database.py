"""The database the bot talks to, whichever backend holds it: `Database` and `Session`.

`open_database(where)` (`bot.db.opening`) picks the backend: SQLite (`bot.db.sqlite`) or
PostgreSQL (`bot.db.postgres`). Each backend imports this module, and this module
imports neither, so the service sees only `Database` and the repositories of a
`Session`, and a backend is loaded only when it is chosen.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from typing import TypeVar

from .base import Statements
from .challenges import ChallengeRepository, PlayerRepository
from .channels import LostChannelRepository
from .deadlines import DeadlineRepository
from .digests import DigestRepository
from .endings import EndingClaimRepository
from .engine import AnalysisRepository, ComputerRepository
from .explorer import ExplorerRepository
from .forecasts import ForecastRepository
from .games import GameRepository
from .moves import MoveRepository
from .named_openings import OpeningRepository
from .notes import NoteRepository
from .outbox import OutboxRepository
from .preferences import PreferenceRepository
from .problem_posts import ProblemPostRepository
from .problems import ProblemRepository
from .publications import PublicationRepository
from .rate_limits import RateLimitRepository
from .ratings import ProfileRepository, RatingRepository
from .servers import ServerRepository
from .takebacks import TakebackRepository
from .team_matches import TeamMatchRepository
from .tournaments import TournamentRepository
from .vacations import VacationRepository

T = TypeVar("T")


class Session:
    """The repositories of one open transaction (or read), bound to its connection."""

    def __init__(self, statements: Statements) -> None:
        self.players = PlayerRepository(statements)
        self.challenges = ChallengeRepository(statements)
        self.games = GameRepository(statements)
        self.moves = MoveRepository(statements)
        self.deadlines = DeadlineRepository(statements)
        self.publications = PublicationRepository(statements)
        self.servers = ServerRepository(statements)
        self.preferences = PreferenceRepository(statements)
        self.notes = NoteRepository(statements)
        self.vacations = VacationRepository(statements)
        self.ratings = RatingRepository(statements)
        self.ending_claims = EndingClaimRepository(statements)
        self.profiles = ProfileRepository(statements)

        self.takebacks = TakebackRepository(statements)
        self.forecasts = ForecastRepository(statements)
        self.computer = ComputerRepository(statements)
        self.analyses = AnalysisRepository(statements)
        self.digests = DigestRepository(statements)
        self.lost_channels = LostChannelRepository(statements)
        self.outbox = OutboxRepository(statements)
        self.rate_limits = RateLimitRepository(statements)
        self.explorer = ExplorerRepository(statements)
        self.tournaments = TournamentRepository(statements)
        self.team_matches = TeamMatchRepository(statements)
        self.openings = OpeningRepository(statements)
        self.problems = ProblemRepository(statements)
        self.problem_posts = ProblemPostRepository(statements)


class Database(ABC):
    """The bot's database. `db = await open_database("data/shogi.db")` (or a
    `postgresql://` address), then `async with db.transaction() as tx: await
    tx.games.get(1)`, or `await db.run(work)` for a whole transaction at once.

    The same meanings on every backend: `transaction()` and `run()` are one write
    transaction each, `read()` and `run(write=False)` see one consistent snapshot,
    `query()` is for one statement, and a unique-key clash raises `Conflict`."""

    #: Which backend: "sqlite" or "postgresql".
    backend: str
    #: Where the data lives, for messages (never a password).
    location: str

    @abstractmethod
    async def close(self) -> None: ...

    @abstractmethod
    async def schema_version(self) -> int: ...

    @abstractmethod
    async def checkpoint(self) -> None:
        """Make everything committed durable in the main store (before a backup)."""

    @abstractmethod
    async def refresh_statistics(self) -> None:
        """Have the query planner's statistics describe the tables as they are now: after
        a bulk load, the planner of a database that believes its tables empty reads whole
        tables where an index would stop at the first row. PostgreSQL's autovacuum does
        the same by itself within minutes; benchmarks do it at once."""

    @abstractmethod
    def transaction(self) -> AbstractAsyncContextManager[Session]:
        """A write transaction: committed when the block ends, rolled back if it raises."""

    @abstractmethod
    def query(self) -> AbstractAsyncContextManager[Session]:
        """For one read statement, without a transaction around it."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Session]:
        """A read-only transaction: several queries see one consistent snapshot."""

    @abstractmethod
    async def run(self, work: Callable[[Session], Awaitable[T]], *, write: bool = True) -> T:
        """`work(session)` as one transaction (a read one with `write=False`)."""
