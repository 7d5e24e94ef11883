"""The game service: everything the commands do, with no Discord in it.

The Discord layer calls `GameService` and shows what it returns; every
refusal is a `ServiceError` carrying one sentence for the player.
"""

from .clocks import PRESETS, TimeControl
from .deadlines import DeadlineScheduler
from .errors import (
    AmbiguousMove,
    ChooseGame,
    GameOver,
    ImpasseRefused,
    MoveRejected,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    PositionChanged,
    ServiceError,
)
from .games import GameService
from .views import (
    ChallengeView,
    ExportedRecord,
    GameEvents,
    GameSummary,
    GameView,
    ImpasseReport,
    ImpasseRule,
    MoveResult,
    MoveText,
    PlayerRef,
)

__all__ = [
    "PRESETS",
    "AmbiguousMove",
    "ChallengeView",
    "ChooseGame",
    "DeadlineScheduler",
    "ExportedRecord",
    "GameEvents",
    "GameOver",
    "GameService",
    "GameSummary",
    "GameView",
    "ImpasseRefused",
    "ImpasseReport",
    "ImpasseRule",
    "MoveRejected",
    "MoveResult",
    "MoveText",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "PlayerRef",
    "PositionChanged",
    "ServiceError",
    "TimeControl",
]
