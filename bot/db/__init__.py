"""Storage: one SQLite file, numbered migrations, and repositories returning dataclasses.

All SQL of the bot lives in this package. The service talks to `Database`
(transactions) and the repositories of a `Session`, never to a connection,
so a PostgreSQL backend could replace this package without touching it.
"""

from .database import DEFAULT_PATH, Database, Session
from .errors import Conflict, DatabaseError, SchemaTooNewError
from .migrations import LATEST_VERSION
from .records import (
    BulkGame,
    ChallengeRecord,
    DeadlineRecord,
    GameAdvance,
    GameRecord,
    MoveRecord,
    NewChallenge,
    NewGame,
    PlayerRecord,
)

__all__ = [
    "DEFAULT_PATH",
    "LATEST_VERSION",
    "BulkGame",
    "ChallengeRecord",
    "Conflict",
    "Database",
    "DatabaseError",
    "DeadlineRecord",
    "GameAdvance",
    "GameRecord",
    "MoveRecord",
    "NewChallenge",
    "NewGame",
    "PlayerRecord",
    "SchemaTooNewError",
    "Session",
]
