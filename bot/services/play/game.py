"""A game as the service hands it out: its players, its settings, the snapshot of its
position and clocks, and what a move did.

They are frozen: the Discord layer renders them (partly in other threads), so
nothing in them may change after they are handed out. `GameSnapshot.game` is a
`rules.Game` shared with the service's cache; the service never changes a game it has
handed out (a move is pushed onto a copy), and nobody else may either."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from bot.db import GameRow, PlayerRow
from rules import Color, Game, Handicap, Move, Outcome, Sentence
from rules.openings import Naming

from ..clock.clocks import TimeControl
from ..errors import BadImpasseRule, BadTakebackPolicy
from ..ratings.glicko2 import Rating
from .numbering import Numbering


@dataclass(frozen=True, slots=True)
class PlayerRef:
    """A Discord member as the service knows them: id, display name, bot or not."""

    user_id: int
    name: str
    is_bot: bool = False

    @classmethod
    def of_row(cls, player: PlayerRow) -> PlayerRef:
        """The member a stored player row names."""
        return cls(player.user_id, player.name, player.is_bot)

    def to_row(self) -> PlayerRow:
        """The player row that stores this member (to insert or rename them)."""
        return PlayerRow(self.user_id, self.name, self.is_bot)


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
        return self.row.terms.rated

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
    #: Openings and castles that became clear with this move (`rules.openings`), stored
    #: by it: its post names them, once.
    openings: tuple[Naming, ...] = ()

    @property
    def latest(self) -> GameSnapshot:
        """The game as it stands after this move and the forecast reply it triggered."""
        return self.game if self.forecast is None else self.forecast.game


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


class Result(StrEnum):
    """How a finished game ended for one of its players."""

    WON = "won"
    LOST = "lost"
    DRAW = "draw"
    ABORTED = "aborted"


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
