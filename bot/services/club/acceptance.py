"""Accepting a challenge: who may take it, and the game it starts.

The game is created, the challenge closed on it and the first deadline set in one
transaction, so of two members accepting at once one gets the game and a game is never
stored without its challenge closed.
"""

from __future__ import annotations

import random
from dataclasses import replace
from datetime import datetime

from bot.db import ChallengeRow, NewGame, Session
from rules import Handicap, Sentence

from ..errors import NotAPlayer
from ..play.game import PlayerRef
from ..play.new_games import open_game
from .challenge import COLOR_WISHES, RANDOM, side_wish


class ChallengeClosed(Exception):
    """The challenge stopped being open between the checks and the write."""


def taker_of(record: ChallengeRow, taker: PlayerRef | int) -> PlayerRef:
    """Who accepts the open challenge `record`, if they may: a challenge to a member is
    theirs alone (their id is enough); an open one anyone's but its author's and a bot's.

    Example: `taker_of(record, bob.user_id)` is Bob on a challenge naming him.
    """
    user_id = taker if isinstance(taker, int) else taker.user_id
    if record.opponent is not None:
        if user_id != record.opponent.user_id:
            raise NotAPlayer(
                Sentence("Only {name} can accept this challenge.", name=record.opponent.name)
            )
        return taker if isinstance(taker, PlayerRef) else PlayerRef.of_row(record.opponent)
    if isinstance(taker, int):
        raise TypeError("an open challenge is accepted by a PlayerRef, not an id")
    if user_id == record.challenger.user_id:
        raise NotAPlayer(
            Sentence(
                "This is your own open challenge: another member must accept it "
                "(or you can cancel it)."
            )
        )
    if taker.is_bot:
        raise NotAPlayer(
            Sentence("Bots cannot play shogi here; only a member can accept a challenge.")
        )
    return taker


async def start_game(
    tx: Session,
    record: ChallengeRow,
    player: PlayerRef,
    *,
    now: datetime,
    rng: random.Random,
    rated: bool = True,
) -> int:
    """`player` accepts the open challenge `record` inside the transaction `tx`, at `now`:
    the colours are settled (by lot with `rng` if the challenge says so), the game is
    created, the challenge closed on it (`ChallengeClosed` if it was not open any more)
    and the first deadline set; the game's id. A game is rated only when the challenge
    and the taker (`rated`) both say so.

    Example: `game_id = await start_game(tx, record, bob, now=now, rng=random.Random())`.
    """
    wish = side_wish(record.color, Handicap.parse(record.terms.handicap))
    if wish == RANDOM:  # an even game's colours, by lot
        wish = rng.choice(COLOR_WISHES[:2])
    challenger, opponent = record.challenger.user_id, player.user_id
    sente, gote = (challenger, opponent) if wish == "sente" else (opponent, challenger)
    start = record.start_sfen or Handicap.parse(record.terms.handicap).sfen
    new = NewGame(
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        sente_id=sente,
        gote_id=gote,
        terms=replace(record.terms, rated=record.terms.rated and rated),
        start_sfen=start,
        started_at=now,
    )
    game_id, _ = await open_game(tx, new, (player.to_row(),))
    if not await tx.challenges.close(record.id, "accepted", game_id=game_id):
        raise ChallengeClosed
    return game_id
