"""A challenge as the service hands it out: who offers what to whom, and where it stands,
read from its stored row; and the one rule of which side the challenger takes."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from bot.db import ChallengeRow
from rules import Color, Handicap

from ..clock.clocks import TimeControl
from ..play.game import (
    ImpasseRule,
    PlayerRef,
    TakebackPolicy,
)

RANDOM = "random"
COLOR_WISHES = (*(color.name.lower() for color in Color), RANDOM)
#: Who gives a handicap when the challenger does not say: the challenger, as uwate (gote).
#: In a club the stronger player offers the weaker one a handicap game, not the other way.
HANDICAP_GIVER_BY_DEFAULT = Color.GOTE


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


def side_wish(color: str | None, handicap: Handicap) -> str:
    """The challenger's side as a challenge keeps it, from what they asked (`color`, None
    when they said nothing): in an even game as asked (by lot unless said); in a handicap
    game always a side, never by lot. The giver (uwate) plays gote, so `"gote"` gives and
    `"sente"` receives, and a challenger who said nothing gives (`HANDICAP_GIVER_BY_DEFAULT`).
    A challenge stored by lot before this rule is read the same way. The one place that
    decides who gives a handicap.

    >>> side_wish(None, Handicap.LANCE), side_wish("sente", Handicap.LANCE)
    ('gote', 'sente')
    """
    if handicap is Handicap.EVEN:
        return RANDOM if color is None else color
    if color is None or color == RANDOM:
        return HANDICAP_GIVER_BY_DEFAULT.name.lower()
    return color


def challenge_of(record: ChallengeRow) -> Challenge:
    """The challenge a stored row holds, its side read by `side_wish`."""
    handicap = Handicap.parse(record.terms.handicap)
    return Challenge(
        id=record.id,
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        challenger=PlayerRef.of_row(record.challenger),
        opponent=None if record.opponent is None else PlayerRef.of_row(record.opponent),
        color=side_wish(record.color, handicap),
        time_control=TimeControl(record.terms.bank, record.terms.period),
        handicap=handicap,
        impasse_rule=ImpasseRule(record.terms.impasse_rule),
        status=record.status,
        expires_at=record.expires_at,
        message_id=record.message_id,
        game_id=record.game_id,
        start_sfen=record.start_sfen,
        takebacks=TakebackPolicy(record.terms.takebacks),
        rematch_of=record.rematch_of,
        rated=record.terms.rated,
    )
