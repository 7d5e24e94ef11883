"""The game service: everything the commands do, with no Discord in it.

The Discord layer calls the parts of `GameService` (`service.moves.play(...)`,
`service.games.resolve(...)`, ...) and shows what they return; every refusal is
a `ServiceError` carrying one sentence for the player (a `rules.Sentence`, which
the Discord layer says in the reader's language).
"""

from .clocks import PRESETS, TimeControl
from .deadlines import DeadlineScheduler
from .errors import (
    AmbiguousMove,
    BadImpasseRule,
    BadTakebackPolicy,
    BadTimeControl,
    ChooseGame,
    ForecastRefused,
    GameOver,
    ImpasseRefused,
    MoveRejected,
    NotAPlayer,
    NoteRefused,
    NotFound,
    NotYourTurn,
    PositionChanged,
    ServiceError,
    TakebackRefused,
)
from .exports import FORMATS
from .notes import MAX_NOTE_LENGTH, MAX_NOTES, note_number
from .rematches import Rematch
from .service import GameService
from .vacations import ALLOWANCE, VacationRefused
from .values import (
    Challenge,
    ExportFile,
    Forecast,
    ForecastLine,
    GameEvents,
    GameSnapshot,
    GameSummary,
    ImpasseReport,
    ImpasseRule,
    MovePreview,
    MoveText,
    Note,
    PlayedMove,
    PlayerRef,
    Preferences,
    Takeback,
    TakebackPolicy,
    TakebackRequest,
    Vacation,
    VacationChange,
    VacationStatus,
)

__all__ = [
    "ALLOWANCE",
    "FORMATS",
    "MAX_NOTES",
    "MAX_NOTE_LENGTH",
    "PRESETS",
    "AmbiguousMove",
    "BadImpasseRule",
    "BadTakebackPolicy",
    "BadTimeControl",
    "Challenge",
    "ChooseGame",
    "DeadlineScheduler",
    "ExportFile",
    "Forecast",
    "ForecastLine",
    "ForecastRefused",
    "GameEvents",
    "GameOver",
    "GameService",
    "GameSnapshot",
    "GameSummary",
    "ImpasseRefused",
    "ImpasseReport",
    "ImpasseRule",
    "MovePreview",
    "MoveRejected",
    "MoveText",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "Note",
    "NoteRefused",
    "PlayedMove",
    "PlayerRef",
    "PositionChanged",
    "Preferences",
    "Rematch",
    "ServiceError",
    "Takeback",
    "TakebackPolicy",
    "TakebackRefused",
    "TakebackRequest",
    "TimeControl",
    "Vacation",
    "VacationChange",
    "VacationRefused",
    "VacationStatus",
    "note_number",
]
