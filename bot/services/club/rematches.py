"""Rematches: either player of a finished game offers the other the same game again.

The rematch is an ordinary challenge to the other player, with the game's settings (time
control, handicap or set-up position, impasse rule, takeback policy) and the colours
swapped; in a handicap game the giver keeps the handicap, so the colours stay. A game has
at most one rematch open or accepted (the database's unique index on the challenge's link to
the game), so a second press, or both players pressing at once, never makes two: the one who
offered is told the rematch waits for an answer, and the other player's press accepts it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.db import ChallengeRow, Conflict
from rules import Handicap, Sentence

from ..errors import ServiceError
from ..play.game import GameSnapshot
from ..play.store import GameStore
from .challenge import Challenge
from .challenges import Challenges

log = logging.getLogger(__name__)

REMATCH_STARTED = Sentence("The rematch of this game has already started.")


@dataclass(frozen=True, slots=True)
class Rematch:
    """A rematch asked for: the challenge offered, or, when the other player had offered
    it already, that challenge accepted and the `game` it started."""

    challenge: Challenge
    game: GameSnapshot | None = None


class Rematches:
    """Offering a finished game again, and taking up the other player's offer."""

    def __init__(self, store: GameStore, challenges: Challenges) -> None:
        self._store = store
        self._challenges = challenges

    async def ask(self, game_id: int, user_id: int, *, guild_id: int | None = None) -> Rematch:
        """A player of a finished game asks for a rematch: it is offered to the other
        player, or started if they offered it first.

        Example: `rematch = await rematches.ask(game.id, alice.user_id)`;
        `rematch.game` is None while the offer waits for the other player.
        """
        game = await self._store.current(game_id, guild_id=guild_id)
        self._store.player_color(game, user_id)
        if game.is_active:
            raise ServiceError(
                Sentence("This game is still going on; a rematch can be offered once it ends.")
            )
        for _ in range(2):  # the second round follows an offer that raced in first
            existing = await self._standing(game_id)
            if existing is not None:
                return await self._answer(existing, user_id)
            try:
                return Rematch(await self._offer(game, user_id))
            except Conflict:
                log.info("game %s: a rematch was offered meanwhile", game_id)
        raise ServiceError(REMATCH_STARTED)

    async def _standing(self, game_id: int) -> ChallengeRow | None:
        """The game's rematch still open or accepted; one whose week is over expires now."""
        async with self._store.db.read() as tx:
            record = await tx.challenges.rematch_of(game_id)
        if record is None or record.status != "open":
            return record
        if self._store.now() >= record.expires_at:
            await self._challenges.expire(record)
            return None
        return record

    async def _answer(self, record: ChallengeRow, user_id: int) -> Rematch:
        """A press that finds a rematch offered: the other player's accepts it."""
        if record.status == "accepted":
            if record.game_id is not None:  # the answer leads to its game
                raise await self._store.already_started(REMATCH_STARTED, record.game_id)
            raise ServiceError(REMATCH_STARTED)
        if record.challenger.user_id == user_id:
            assert record.opponent is not None  # a rematch always names the other player
            raise ServiceError(
                Sentence(
                    "You have already offered {name} a rematch; it waits for their answer.",
                    name=record.opponent.name,
                )
            )
        game = await self._challenges.accept(record.id, user_id)
        return Rematch(await self._challenges.get(record.id), game)

    async def _offer(self, game: GameSnapshot, user_id: int) -> Challenge:
        """The challenge to play `game` again, from the player `user_id`."""
        mine = game.color_of(user_id)
        assert mine is not None
        handicap = game.handicap
        start = game.row.start_sfen
        wish = mine if handicap is not Handicap.EVEN else mine.opponent
        offered = await self._challenges.offer(
            guild_id=game.guild_id,
            channel_id=game.channel_id,
            challenger=game.player(mine),
            opponent=game.player(mine.opponent),
            color=wish.name.lower(),
            time_control=game.time_control,
            handicap=handicap,
            impasse_rule=game.impasse_rule,
            start_sfen=None if start == handicap.sfen else start,
            takebacks=game.takebacks,
            rated=game.rated,
            rematch_of=game.id,
        )
        log.info("game %s: rematch offered by %s (challenge %s)", game.id, user_id, offered.id)
        return offered
