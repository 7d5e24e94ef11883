"""Open challenges and rematches: whom a challenge is to, who took an open one, and what
the player who pressed Rematch is told."""

from __future__ import annotations

from bot.services import Challenge, PlayerRef, turn_of
from rules import Handicap, Sentence

from ..base import mention, safe, translator
from ..sides import side_name

CHALLENGE_NOT_POSTED = Sentence(
    "The challenge could not be posted in this channel, so it was withdrawn; try again later."
)
REMATCH_NOT_POSTED = Sentence(
    "The rematch could not be posted in its channel, so it was withdrawn; try again later."
)


def challenge_heading(lang: str, challenge: Challenge) -> str:
    """The first line of a challenge message: to whom, or to anyone, and whether it offers
    a finished game again."""
    _ = translator(lang)
    challenger = safe(challenge.challenger.name)
    if challenge.opponent is None:
        return _(
            "{challenger} challenges anyone here to shogi: the first member to press Accept plays."
        ).format(challenger=challenger)
    if challenge.rematch_of is not None:
        return _("{opponent}, {challenger} offers you a rematch.").format(
            opponent=mention(challenge.opponent), challenger=challenger
        )
    return _("{opponent}, {challenger} challenges you to shogi.").format(
        opponent=mention(challenge.opponent), challenger=challenger
    )


def challenge_taken(lang: str, taker: PlayerRef, *, taken_unrated: bool = False) -> str:
    """How an open challenge closed: who took it (`taken_unrated`: as an unrated game, though
    the challenge offered a rated one)."""
    _ = translator(lang)
    if taken_unrated:
        taken = _("{name} took up the challenge as an unrated game: have a good game!")
    else:
        taken = _("{name} took up the challenge: have a good game!")
    return taken.format(name=safe(taker.name))


def rematch_offered(lang: str, challenge: Challenge) -> str:
    """The private answer to Rematch: the offer is posted where the game's challenge was."""
    _ = translator(lang)
    name = "" if challenge.opponent is None else safe(challenge.opponent.name)
    return _("Rematch offered to {name} in {channel}.").format(
        name=name, channel=f"<#{challenge.channel_id}>"
    )


def rematch_accepted(lang: str, challenge: Challenge) -> str:
    """The private answer to Rematch when the other player had offered it: it starts."""
    _ = translator(lang)
    return _("You accepted {name}'s rematch: have a good game!").format(
        name=safe(challenge.challenger.name)
    )


def start_text(lang: str, sfen: str) -> str:
    """The set-up start a challenge offers: its SFEN in a code span (to copy into any
    shogi program) and who moves first there (a start that is a handicap's is offered as
    that handicap, whose sides the settings name)."""
    _ = translator(lang)
    return _("Start position: `{sfen}` ({side} moves first).").format(
        sfen=sfen, side=side_name(lang, turn_of(sfen), Handicap.EVEN)
    )
