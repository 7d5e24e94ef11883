"""A challenge as the service hands it out: who offers what to whom, and where it stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from rules import Handicap

from ..clock.clocks import TimeControl
from ..play.game import (
    ImpasseRule,
    PlayerRef,
    TakebackPolicy,
)


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
