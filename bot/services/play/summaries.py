"""Games in lists: one line per game for `/games`, `/next` and the digest, and where each stands."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from rules import Color, Handicap

from .game import (
    PlayerRef,
    Result,
)
from .numbering import FROM_MOVE_ONE, Numbering


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
    #: An active game whose clock waits for its first post: its thread is being opened.
    clock_waits: bool = False

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
