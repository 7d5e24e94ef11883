"""Storage: SQLite or PostgreSQL, numbered migrations, repositories returning dataclasses.

All SQL of the bot lives in this package. The service talks to `Database`
(transactions) and the repositories of a `Session`, never to a connection, so it
does not know which backend holds its data (`open_database` picks it).
"""

from .database import Database, Session
from .digests import DigestSubscriber
from .engine import ComputerRow, EvaluationRow
from .errors import Conflict, DatabaseError, IntegrityError, SchemaTooNewError
from .explorer import ExplorerMoveRow, MoveTally, PassingGame
from .forecasts import ForecastRow
from .migrations import LATEST_VERSION
from .named_openings import NamedOpening, OpeningTally
from .notes import NoteRow
from .opening import open_database
from .outbox import OutboxRow
from .preferences import PreferencesRow
from .publications import PublicationRow
from .ratings import GameCounts, RankedRow, RatingEntry, RatingRow
from .rows import (
    AwayRow,
    BulkGame,
    ChallengeRow,
    DeadlineRow,
    GameAdvance,
    GameRewind,
    GameRow,
    MoveRow,
    NewChallenge,
    NewGame,
    NewTakeback,
    PlayerRow,
    TakebackRow,
    Terms,
    VacationRow,
)
from .shards import ShardScope, shard_of
from .team_matches import NewTeamMatch, TeamGameRow, TeamMatchRow, TeamPlayerRow
from .tournament_rows import (
    EntrantRow,
    NewScheduledGame,
    NewTournament,
    ScheduledGameRow,
    TournamentRow,
)

__all__ = [
    "LATEST_VERSION",
    "AwayRow",
    "BulkGame",
    "ChallengeRow",
    "ComputerRow",
    "Conflict",
    "Database",
    "DatabaseError",
    "DeadlineRow",
    "DigestSubscriber",
    "EntrantRow",
    "EvaluationRow",
    "ExplorerMoveRow",
    "ForecastRow",
    "GameAdvance",
    "GameCounts",
    "GameRewind",
    "GameRow",
    "IntegrityError",
    "MoveRow",
    "MoveTally",
    "NamedOpening",
    "NewChallenge",
    "NewGame",
    "NewScheduledGame",
    "NewTakeback",
    "NewTeamMatch",
    "NewTournament",
    "NoteRow",
    "OpeningTally",
    "OutboxRow",
    "PassingGame",
    "PlayerRow",
    "PreferencesRow",
    "PublicationRow",
    "RankedRow",
    "RatingEntry",
    "RatingRow",
    "ScheduledGameRow",
    "SchemaTooNewError",
    "Session",
    "ShardScope",
    "TakebackRow",
    "TeamGameRow",
    "TeamMatchRow",
    "TeamPlayerRow",
    "Terms",
    "TournamentRow",
    "VacationRow",
    "open_database",
    "shard_of",
]
