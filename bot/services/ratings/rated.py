"""Which games are rated, and how an ending changes ratings.

A game is rated when both players chose so (the challenger with the challenge, the
taker by accepting it as it was offered) and it is an even game: a handicap or a
set-up start position makes its result say little about the players' strength, so such
games never are (nor bots' games, which are never played: a challenge refuses them).
Aborted games are never rated, nor is any game that ended before both players had made a
move (`both_have_moved`): whatever ended it, nobody really played, and an alternate account
that accepts and resigns at once must not hand its challenger a rated win. The bot's own
endings that early abort the game (a time-out, a resignation, `/abort`); the rule here also
covers endings stored before that, so a rebuild from the history drops them too.

`rate_ending` runs inside the transaction that stores a game's ending, after the
conditional update that makes the ending happen once: whichever of two racing endings
wins is the only one rated, and the rating and the ending are stored together or not at
all. The history's unique (game, player) pair refuses a second rating even if some
future path forgot that order.

`rate` is the one computation both that update and `replay` (the rebuild from history)
use, so a rebuild gives the stored ratings to the last bit.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta

from bot.db import GameRow, RatingEntry, RatingRow, Session
from rules import Color, Handicap, Outcome, Termination

from ..play.game import RatingChange
from .glicko2 import DEFAULT, DRAW, LOSS, WIN, Rating, rate_game

#: Plies before both players have made a move, whoever moves first: a game that ends
#: sooner was not played (a time-out then aborts it, and it is never rated).
FIRST_MOVES = 2


def both_have_moved(plies: int) -> bool:
    """Whether a game `plies` moves long has had a move by each player: the one rule of
    what counts as played, for ratings, time-outs, `/abort` and resigning.

    Example: `both_have_moved(1)` is False (in a handicap game too, where gote moved)."""
    return plies >= FIRST_MOVES


def may_be_rated(handicap: Handicap, start_sfen: str | None) -> bool:
    """Whether a game of these settings can count for ratings at all."""
    return handicap is Handicap.EVEN and start_sfen is None


def score_of(outcome: Outcome) -> float | None:
    """Sente's score in a game that ended so; None when it does not count (aborted)."""
    if outcome.termination is Termination.ABORT:
        return None
    if outcome.winner is None:
        return DRAW
    return WIN if outcome.winner is Color.SENTE else LOSS


def glicko(row: RatingRow | None) -> Rating:
    """The rating a stored row holds (a member never rated starts at the default)."""
    if row is None:
        return DEFAULT
    return Rating(row.rating, row.deviation, row.volatility)


@dataclass(frozen=True, slots=True)
class RatedSide:
    """One player's part in a rated game: the history entry and their new rating row."""

    entry: RatingEntry
    after: RatingRow


def rate(
    guild_id: int,
    game_id: int,
    players: tuple[int, int],
    before: tuple[RatingRow | None, RatingRow | None],
    score: float,
    at: datetime,
) -> tuple[RatedSide, RatedSide]:
    """Both players' sides of a game the first of `players` scored `score` in, from their
    ratings `before` it (None: never rated), ended `at`. Idle time counts from each
    player's last rated game; a game stored as ended before it counts none."""
    idle = [timedelta() if row is None else at - row.rated_at for row in before]
    first, second = rate_game(
        glicko(before[0]), glicko(before[1]), score, first_idle=idle[0], second_idle=idle[1]
    )
    sides = []
    for index, after in enumerate((first, second)):
        user, opponent = players[index], players[1 - index]
        previous = before[index]
        old = glicko(previous)
        games = 0 if previous is None else previous.games
        last = at if previous is None else max(at, previous.rated_at)
        entry = RatingEntry(
            guild_id=guild_id,
            game_id=game_id,
            user_id=user,
            opponent_id=opponent,
            score=score if index == 0 else 1.0 - score,
            rated_at=at,
            rating_before=old.rating,
            deviation_before=old.deviation,
            volatility_before=old.volatility,
            rating=after.rating,
            deviation=after.deviation,
            volatility=after.volatility,
        )
        row = RatingRow(
            guild_id, user, after.rating, after.deviation, after.volatility, games + 1, last
        )
        sides.append(RatedSide(entry, row))
    return sides[0], sides[1]


def change_of(entry: RatingEntry) -> RatingChange:
    """What a history entry says the game did to its player's rating."""
    before = Rating(entry.rating_before, entry.deviation_before, entry.volatility_before)
    after = Rating(entry.rating, entry.deviation, entry.volatility)
    return RatingChange(entry.user_id, before, after)


async def rate_ending(
    tx: Session, row: GameRow, outcome: Outcome, at: datetime, *, plies: int
) -> tuple[RatingChange, ...]:
    """Update both players' ratings for a game that just ended after `plies` moves, if it
    is rated, inside the transaction that stored the ending (see the module's docstring);
    what changed, sente first (nothing for an unrated game)."""
    score = score_of(outcome)
    if not row.terms.rated or score is None or not both_have_moved(plies):
        return ()
    done = await tx.ratings.of_game(row.id)
    if done:  # rated already: a damaged row that said the game went on, now repaired
        return tuple(change_of(entry) for entry in done)
    players = (row.sente.user_id, row.gote.user_id)
    await tx.ratings.lock(row.guild_id, players)
    before = (
        await tx.ratings.get(row.guild_id, players[0]),
        await tx.ratings.get(row.guild_id, players[1]),
    )
    sides = rate(row.guild_id, row.id, players, before, score, at)
    for side in sides:
        await tx.ratings.record(side.entry)
        await tx.ratings.put(side.after)
    return tuple(change_of(side.entry) for side in sides)


def replay(entries: Iterable[RatingEntry], plies: Mapping[int, int]) -> dict[int, RatingRow]:
    """A server's ratings rebuilt from its history (entries in the order they were rated,
    both players of a game together) and the number of moves each game had (`plies`, by
    game id), by user id. A game that ended before both players had moved counts for
    nothing, as `rate_ending` rates it now, also when an older version stored it."""
    ratings: dict[int, RatingRow] = {}
    seen: set[int] = set()
    for entry in entries:
        if entry.game_id in seen:
            continue  # the opponent's entry of a game already replayed
        seen.add(entry.game_id)
        length = plies.get(entry.game_id)
        if length is not None and not both_have_moved(length):
            continue
        players = (entry.user_id, entry.opponent_id)
        before = (ratings.get(players[0]), ratings.get(players[1]))
        for side in rate(
            entry.guild_id, entry.game_id, players, before, entry.score, entry.rated_at
        ):
            ratings[side.after.user_id] = side.after
    return ratings
