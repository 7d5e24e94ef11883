"""The game service: everything the commands do, with no Discord in it.

The Discord layer calls the parts of `GameService` (`service.moves.play(...)`,
`service.games.resolve_id(...)`, ...) and shows what they return; every refusal is
a `ServiceError` carrying one sentence for the player (a `rules.Sentence`, which
the Discord layer says in the reader's language).
"""

from .budgets import Budgets
from .choices import AmbiguousMove, ChooseGame
from .clock.clocks import PRESETS, TimeControl
from .clock.deadlines import DeadlineScheduler
from .clock.digests import Digest
from .clock.sender import OutboxSender
from .clock.sends import Send
from .clock.vacation import Vacation, VacationChange, VacationStatus
from .clock.vacations import ALLOWANCE, VacationRefused
from .club.audience import NOBODY, Audience, Cast, Event, Role, Sending, audience, ending_event
from .club.challenge import Challenge
from .club.challenges import MAX_OPEN_CHALLENGES
from .club.preferences import Notifications, Preferences, QuietHours
from .club.rematches import Rematch
from .computer.analysis import BLUNDER, CAP, MISTAKE, Analysis, Mark, MarkedMove
from .computer.opponent import LEVELS, NO_ENGINE, ComputerFailed, ComputerMove
from .errors import (
    AlreadyStarted,
    BadImpasseRule,
    BadMoveNumber,
    BadTakebackPolicy,
    BadTimeControl,
    BadTimeZone,
    ClockWaits,
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
from .events import GameEvents
from .explorer.explorer import MAX_GAMES, MAX_MOVES, Exploration, ExploredMove
from .explorer.index import position_hash
from .play.forecasts import Forecast, ForecastLine
from .play.game import (
    GameSnapshot,
    ImpasseRule,
    MovePreview,
    MoveText,
    PlayedMove,
    PlayerRef,
    RatingChange,
    Result,
    TakebackPolicy,
)
from .play.impasse import ImpasseReport
from .play.notes import MAX_NOTE_LENGTH, MAX_NOTES, Note, note_number
from .play.numbering import Numbering
from .play.picker import Destination, Picker, PieceChoice, files_of, squares_of_file
from .play.snapshots import banks_left, turn_of
from .play.summaries import GameList, GameSummary, ListedStatus
from .play.takebacks import Takeback, TakebackRequest
from .ratings.glicko2 import Rating
from .ratings.rated import both_have_moved
from .ratings.standings import (
    LEADERBOARD_SIZE,
    LeaderboardLine,
    Opening,
    PlayerRating,
    Profile,
    RatingPoint,
)
from .records.exports import FORMATS, ExportFile
from .records.openings import GameOpenings, OpeningResult
from .records.positions import (
    MAX_RECORD_BYTES,
    ShownPosition,
    check_record_size,
    read_position,
    start_of,
)
from .records.readers import READ_TIME_LIMIT, ReaderPool, ReadTooLong
from .records.replays import ReplayStep
from .service import GameService

__all__ = [
    "ALLOWANCE",
    "BLUNDER",
    "CAP",
    "FORMATS",
    "LEADERBOARD_SIZE",
    "LEVELS",
    "MAX_GAMES",
    "MAX_MOVES",
    "MAX_NOTES",
    "MAX_NOTE_LENGTH",
    "MAX_OPEN_CHALLENGES",
    "MAX_RECORD_BYTES",
    "MISTAKE",
    "NOBODY",
    "NO_ENGINE",
    "PRESETS",
    "READ_TIME_LIMIT",
    "AlreadyStarted",
    "AmbiguousMove",
    "Analysis",
    "Audience",
    "BadImpasseRule",
    "BadMoveNumber",
    "BadTakebackPolicy",
    "BadTimeControl",
    "BadTimeZone",
    "Budgets",
    "Cast",
    "Challenge",
    "ChooseGame",
    "ClockWaits",
    "ComputerFailed",
    "ComputerMove",
    "DeadlineScheduler",
    "Destination",
    "Digest",
    "Event",
    "Exploration",
    "ExploredMove",
    "ExportFile",
    "Forecast",
    "ForecastLine",
    "ForecastRefused",
    "GameEvents",
    "GameList",
    "GameOpenings",
    "GameOver",
    "GameService",
    "GameSnapshot",
    "GameSummary",
    "ImpasseRefused",
    "ImpasseReport",
    "ImpasseRule",
    "LeaderboardLine",
    "ListedStatus",
    "Mark",
    "MarkedMove",
    "MovePreview",
    "MoveRejected",
    "MoveText",
    "NotAPlayer",
    "NotFound",
    "NotYourTurn",
    "Note",
    "NoteRefused",
    "Notifications",
    "Numbering",
    "Opening",
    "OpeningResult",
    "OutboxSender",
    "Picker",
    "PieceChoice",
    "PlayedMove",
    "PlayerRating",
    "PlayerRef",
    "PositionChanged",
    "Preferences",
    "Profile",
    "QuietHours",
    "Rating",
    "RatingChange",
    "RatingPoint",
    "ReadTooLong",
    "ReaderPool",
    "Rematch",
    "ReplayStep",
    "Result",
    "Role",
    "Send",
    "Sending",
    "ServiceError",
    "ShownPosition",
    "Takeback",
    "TakebackPolicy",
    "TakebackRefused",
    "TakebackRequest",
    "TimeControl",
    "Vacation",
    "VacationChange",
    "VacationRefused",
    "VacationStatus",
    "audience",
    "banks_left",
    "both_have_moved",
    "check_record_size",
    "ending_event",
    "files_of",
    "note_number",
    "position_hash",
    "read_position",
    "squares_of_file",
    "start_of",
    "turn_of",
]
