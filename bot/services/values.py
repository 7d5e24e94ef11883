"""The plain values the service answers with, one per question, and the events it reports.

They are frozen: the Discord layer renders them (partly in other threads), so
nothing in them may change after they are handed out. `GameSnapshot.game` is a
`rules.Game` shared with the service's cache; the service never changes a game it has
handed out (a move is pushed onto a copy), and nobody else may either.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo
from enum import StrEnum
from typing import Protocol

from bot.db import GameRow
from rules import Color, Game, Handicap, Move, Outcome, Sentence
from rules.impasse import CampCount, Declaration

from .clock.clocks import TimeControl
from .errors import BadImpasseRule, BadTakebackPolicy
from .play.numbering import FROM_MOVE_ONE, Numbering
from .ratings.glicko2 import Rating


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A Discord member as the service knows them: id, display name, bot or not."""

    user_id: int
    name: str
    is_bot: bool = False


class ImpasseRule(StrEnum):
    """How an entered-king game is settled, chosen at the challenge: the 27-point
    declaration on one's own turn, or the 24-point count both players agree to."""

    DECLARATION_27 = "27"  # the modern standard: declare on your turn with 28/27 points
    COUNT_24 = "24"  # both kings in: propose a count, the other accepts

    @classmethod
    def parse(cls, value: ImpasseRule | str) -> ImpasseRule:
        if isinstance(value, ImpasseRule):
            return value
        text = value.strip().lower()
        for rule in cls:
            if text in (rule.value, rule.name.lower(), f"{rule.value}-point", f"{rule.value}point"):
                return rule
        raise BadImpasseRule(Sentence("The impasse rule is either 27 (declaration) or 24 (count)."))


class TakebackPolicy(StrEnum):
    """Whether a player may ask to take a move back in a game, agreed at the challenge:
    allowed (the opponent still decides each time), or never."""

    ALLOWED = "allowed"
    NEVER = "never"

    @classmethod
    def parse(cls, value: TakebackPolicy | str) -> TakebackPolicy:
        if isinstance(value, TakebackPolicy):
            return value
        try:
            return cls(value.strip().lower())
        except ValueError:
            raise BadTakebackPolicy(
                Sentence("Takebacks are either allowed or never allowed.")
            ) from None


@dataclass(frozen=True, slots=True)
class MoveText:
    """One move in three notations (`western` as `/help` teaches it: `P-7f`); `usi` is the
    value buttons and autocomplete carry."""

    usi: str
    japanese: str
    western: str


@dataclass(frozen=True, slots=True)
class Challenge:
    """A challenge as it stands: who, the settings, and whether it is still open."""

    id: int
    guild_id: int
    channel_id: int
    challenger: PlayerRef
    opponent: PlayerRef | None  # None: open to anyone but the challenger (and bots)
    color: str  # the challenger's wish: "sente", "gote" or "random"
    time_control: TimeControl
    handicap: Handicap
    impasse_rule: ImpasseRule
    status: str  # "open", "accepted", "declined", "cancelled", "expired"
    expires_at: datetime
    message_id: int | None
    game_id: int | None
    start_sfen: str | None = None  # a game from a set-up position
    takebacks: TakebackPolicy = TakebackPolicy.ALLOWED
    rematch_of: int | None = None  # the finished game this challenge offers to play again
    rated: bool = False  # the game will count for ratings


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What a rated game did to one player's rating."""

    user_id: int
    before: Rating
    after: Rating

    @property
    def delta(self) -> int:
        """The change in whole points, as shown."""
        return self.after.points - self.before.points


@dataclass(frozen=True, slots=True)
class GameSnapshot:
    """A game at one moment: its stored row, the replayed `rules.Game`, and what the
    Discord layer reads of them (players, whose turn, deadline, last move)."""

    row: GameRow
    id: int
    guild_id: int
    channel_id: int
    thread_id: int | None
    sente: PlayerRef
    gote: PlayerRef
    handicap: Handicap
    time_control: TimeControl
    impasse_rule: ImpasseRule
    game: Game
    status: str  # "active" or "finished"
    outcome: Outcome | None
    to_move: PlayerRef | None
    deadline: datetime | None
    last_move: Move | None
    last_move_text: MoveText | None
    ply: int
    started_at: datetime
    pending_count_proposal: Color | None
    message_id: int | None = None
    finished_at: datetime | None = None
    takebacks: TakebackPolicy = TakebackPolicy.ALLOWED
    #: A rated game that ended: how it changed each player's rating (sente first).
    rating_changes: tuple[RatingChange, ...] = ()

    def away_until(self, color: Color) -> datetime | None:
        """When `color`'s vacation ends at the latest, if they are on one: their clock
        stands still until then."""
        away = self.row.sente_away if color is Color.SENTE else self.row.gote_away
        return None if away is None else away.ends_by

    @property
    def position_mark(self) -> str:
        """A short fingerprint of the position (`h` and 8 hex digits). A button asked in one
        position carries it with the ply: after a takeback the same ply can come back with
        another position, and the ply alone would let an old answer play there."""
        digest = hashlib.blake2s(self.game.position.key().encode(), digest_size=4).hexdigest()
        return "h" + digest

    def player(self, color: Color) -> PlayerRef:
        return self.sente if color is Color.SENTE else self.gote

    def color_of(self, user_id: int) -> Color | None:
        if user_id == self.sente.user_id:
            return Color.SENTE
        if user_id == self.gote.user_id:
            return Color.GOTE
        return None

    def opponent_of(self, user_id: int) -> PlayerRef:
        """The other player of the one with `user_id` (who must play in this game)."""
        return self.gote if user_id == self.sente.user_id else self.sente

    @property
    def turn(self) -> Color:
        return self.game.position.turn

    @property
    def numbering(self) -> Numbering:
        """How this game numbers its moves for players: from its start's move number,
        so a game set up at a record's ply 30 shows its first move as 31."""
        return Numbering.starting_at(self.game.start.move_number)

    @property
    def move_number(self) -> int:
        """The number of the last move played, as players read it (`ply` shifted by the
        moves played before the game's start)."""
        return self.numbering.number(self.ply)

    @property
    def rated(self) -> bool:
        """The game counts for ratings (agreed at the challenge)."""
        return self.row.rated

    @property
    def is_active(self) -> bool:
        return self.status == "active"

    @property
    def against_computer(self) -> bool:
        """The bot plays one side (only a `/computer` game seats it: members cannot
        challenge a bot)."""
        return self.sente.is_bot or self.gote.is_bot


@dataclass(frozen=True, slots=True)
class PlayedMove:
    """The answer to a move: the game after it, the move in three notations, and what follows."""

    game: GameSnapshot
    move: MoveText
    mover: PlayerRef
    check: bool
    outcome: Outcome | None
    next_player: PlayerRef | None
    deadline: datetime | None
    #: The forecaster's reply the bot played at once because this move matched one of
    #: their forecast lines; its `game` is the game as it now stands (this one's `game`
    #: is the position between the two moves, for the board of this move).
    forecast: PlayedMove | None = None
    #: A question waiting for an answer lapsed with this move (a takeback request, a
    #: proposal of the 24-point count): its message in the thread is out of date.
    withdrawn: bool = False

    @property
    def latest(self) -> GameSnapshot:
        """The game as it stands after this move and the forecast reply it triggered."""
        return self.game if self.forecast is None else self.forecast.game


@dataclass(frozen=True, slots=True)
class ForecastLine:
    """One stored forecast line: the opponent's move first, then the reply, and so on,
    written as they would be played from the game as it stands."""

    id: int
    ply: int  # the game's ply the line starts from
    moves: tuple[MoveText, ...]


@dataclass(frozen=True, slots=True)
class Forecast:
    """A player's forecast lines in one game (the answer to adding, or listing, them):
    the game, the player's colour, their lines oldest first, and how many older lines a
    new one replaced."""

    game: GameSnapshot
    color: Color
    lines: tuple[ForecastLine, ...]
    replaced: int = 0


@dataclass(frozen=True, slots=True)
class MovePreview:
    """A move checked but not stored, for the player to confirm: the game as it would be
    after it (to draw), the move in three notations, and `ply`, the ply it is played at
    (what a Confirm button carries, so a confirmation of an old position is refused)."""

    game: GameSnapshot
    move: MoveText
    ply: int
    check: bool
    position_mark: str  # of the position the move is played in (see `GameSnapshot`)


class Notifications(StrEnum):
    """Which direct messages a player gets about their turns: one at each turn, one digest
    a day listing the games where it is their move, or none. Endings and offers (a
    takeback asked, a rematch) are messaged to everyone but those who chose none."""

    EACH_TURN = "each"
    DIGEST = "digest"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class QuietHours:
    """Local hours when direct messages arrive without a sound: from `start` up to `end`
    (exclusive), across midnight when `end` is earlier (22 to 7 is the night)."""

    start: int
    end: int

    def __contains__(self, hour: int) -> bool:
        if self.start <= self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end


@dataclass(frozen=True, slots=True)
class Preferences:
    """What a player chose for themselves: to confirm each move before it is stored, which
    direct messages they get, written in `language` (None: not known yet), the local hour
    of their digest, their time zone (None: not chosen; the server's is used) and their
    quiet hours."""

    confirm_moves: bool = False
    notifications: Notifications = Notifications.NONE
    language: str | None = None
    digest_hour: int = 8
    time_zone: str | None = None
    quiet_hours: QuietHours | None = None

    @property
    def turn_messages(self) -> bool:
        """Whether each turn that begins is messaged to them."""
        return self.notifications is Notifications.EACH_TURN

    @property
    def direct_messages(self) -> bool:
        """Whether they get direct messages at all (endings and offers, at least)."""
        return self.notifications is not Notifications.NONE

    def quiet_at(self, moment: datetime, zone: tzinfo) -> bool:
        """Whether `moment` falls in their quiet hours, read in `zone` (theirs, or the
        server's when they chose none)."""
        if self.quiet_hours is None:
            return False
        return moment.astimezone(zone).hour in self.quiet_hours


@dataclass(frozen=True, slots=True)
class TakebackRequest:
    """A request to take moves back, as the game's takeback history keeps it."""

    id: int
    game_id: int
    asked_by: int  # the user id of the player who asked
    ply: int  # the game's ply when it was asked: the buttons that answer it carry it
    plies: int  # how many moves it takes back: 1 (the asker's) or 2 (and the reply)
    usi: tuple[str, ...]  # those moves, in the order they were played
    status: str  # "pending", "accepted", "declined" or "lapsed"
    requested_at: datetime
    answered_at: datetime | None  # when it was answered or lapsed


@dataclass(frozen=True, slots=True)
class Takeback:
    """The answer to asking, accepting or declining a takeback: the request, the game as
    it stands now, who asked (and with which colour) and who answers, and the moves the
    request takes back, written as they were played."""

    request: TakebackRequest
    game: GameSnapshot
    asker: PlayerRef
    asker_color: Color
    answerer: PlayerRef
    moves: tuple[MoveText, ...]


class Result(StrEnum):
    """How a finished game ended for one of its players."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"
    ABORTED = "aborted"


class ListedStatus(StrEnum):
    """Which of a member's games `/games` lists."""

    ACTIVE = "active"
    FINISHED = "finished"
    ALL = "all"


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One line of `/games`, or one choice when the service cannot tell which game. A
    finished game has its `result` for the member it is listed for, and when it ended."""

    id: int
    opponent: PlayerRef
    your_color: Color
    your_turn: bool
    ply: int
    deadline: datetime | None
    thread_id: int | None
    guild_id: int
    result: Result | None = None
    finished_at: datetime | None = None
    numbering: Numbering = FROM_MOVE_ONE
    handicap: Handicap = Handicap.EVEN  # its sides are then uwate and shitate
    #: What is left of sente's and gote's banks in an active game whose time control has
    #: one (`banks_left`), else None.
    banks: tuple[timedelta, timedelta] | None = None

    @property
    def is_active(self) -> bool:
        return self.result is None

    @property
    def move_number(self) -> int:
        """The number of the game's last move as players read it (see `Numbering`)."""
        return self.numbering.number(self.ply)


@dataclass(frozen=True, slots=True)
class GameList:
    """A member's games as `/games` lists them (active first, then the most recently
    finished), and how many more there are than the list holds."""

    games: list[GameSummary]
    more: int


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """A game shown at one ply for `/replay`: `board` is the game as it stood after `ply`
    moves (its result only at the last ply), `last` the number of moves in the whole game,
    and `moves` the moves around `ply`, from ply `first` (1 for the game's first). All
    are plies; `board.numbering` turns them into the move numbers players read."""

    board: GameSnapshot
    ply: int
    last: int
    first: int
    moves: tuple[MoveText, ...]


@dataclass(frozen=True, slots=True)
class ImpasseReport:
    """What `/jishogi` shows: both players' counts and what the rules allow now."""

    game: GameSnapshot
    counts: dict[Color, CampCount]
    required_27: dict[Color, int]
    rule: ImpasseRule
    can_propose_count: bool
    can_declare: Color | None
    declaration: Declaration | None  # the predicted result for the player on move


@dataclass(frozen=True, slots=True)
class ExportFile:
    """A game's record written in one format, ready to attach, with an analysis link once
    the game is over (None while it goes on). `data` is the file's bytes in `encoding`
    (Shift_JIS for `.kif` and `.ki2`); `replaced` counts the characters of names and
    notes that encoding has no place for, written as 〓."""

    filename: str
    data: bytes
    encoding: str
    analysis_url: str | None
    replaced: int = 0

    @property
    def content(self) -> str:
        """The record's text, as a program reading the file as text gets it (each line
        ending with one line feed)."""
        return self.data.decode(self.encoding).replace("\r\n", "\n")


@dataclass(frozen=True, slots=True)
class Note:
    """A member's private note on a game: written at `ply` (the game's ply then), shown to
    its author only; `move_number` is that ply as the game's players read it."""

    id: int
    game_id: int
    ply: int
    text: str
    written_at: datetime
    numbering: Numbering = FROM_MOVE_ONE

    @property
    def move_number(self) -> int:
        return self.numbering.number(self.ply)


@dataclass(frozen=True, slots=True)
class Vacation:
    """A player's vacation: since when, until when at the latest, and when it ended (None
    while it goes on)."""

    id: int
    user_id: int
    started_at: datetime
    ends_by: datetime
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class VacationStatus:
    """A player's vacation allowance this calendar year and the vacation under way."""

    year: int
    allowance: timedelta
    used: timedelta  # ended vacations of the year, each rounded up to the hour
    current: Vacation | None

    @property
    def left(self) -> timedelta:
        return max(self.allowance - self.used, timedelta())


@dataclass(frozen=True, slots=True)
class VacationChange:
    """A vacation that began or ended, with the player's active games as they are now
    (each game's thread is told)."""

    vacation: Vacation
    games: list[GameSnapshot]
    status: VacationStatus


class GameEvents(Protocol):
    """What the deadline task reports; the Discord layer posts it in the game's thread."""

    async def game_timed_out(self, game: GameSnapshot) -> None: ...

    async def ending_unannounced(self, game: GameSnapshot) -> None:
        """A game ended while the bot was up, but its ending was never posted."""
        ...

    async def deadline_reminder(self, game: GameSnapshot) -> None: ...

    async def challenge_expired(self, challenge: Challenge) -> None: ...

    async def vacation_ended(self, change: VacationChange) -> None:
        """A vacation ended by itself: its player's allowance ran out."""
        ...
