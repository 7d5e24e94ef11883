"""The endings a player chooses: resigning, and aborting before both have moved."""

from __future__ import annotations

from rules import Outcome, Sentence, Termination

from ..errors import ServiceError
from ..ratings.rated import both_have_moved
from .game import GameSnapshot, PlayerRef
from .store import GameStore, Scheduler


class Endings:
    """A player ending their game: resign (at any moment) or abort (only at the start)."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def resign(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Resign; allowed at any moment, also on the opponent's turn. Before both players
        have moved it aborts the game instead, as running out of time then does: nobody has
        really played, so nobody wins (and an account made to lose at once hands out no
        win). A move played meanwhile makes that a refusal, so it never aborts a game both
        have played in.

        Example: `(await endings.resign(game.id, alice.user_id)).outcome.winner` is Bob's
        colour once both have moved. A tournament's game is lost by resigning at any
        moment: it was scheduled, not chosen, and aborting it would only replay it."""
        game, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if not both_have_moved(game.ply) and not await self._store.in_tournament(game.id):
            aborted = Outcome(Termination.ABORT, None)
            return await self._store.finish_or_refuse(game, aborted, expected_ply=game.ply)
        outcome = Outcome(Termination.RESIGNATION, color.opponent)
        return await self._store.finish_or_refuse(game, outcome, expected_ply=None)

    async def check_resign(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> tuple[GameSnapshot, PlayerRef]:
        """Whether `user_id` may resign `game_id` now (asked before the confirmation
        button is shown); the game and the opponent who would win."""
        game, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        return game, game.player(color.opponent)

    async def abort(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """End the game without a result; only before both players have moved."""
        game, _ = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if both_have_moved(game.ply):
            raise ServiceError(
                Sentence(
                    "A game can only be aborted before both players have moved; resign instead."
                )
            )
        scheduler = await self._store.scheduled_by(game.id)
        if scheduler is Scheduler.TEAM_MATCH:
            raise ServiceError(
                Sentence("A team match game cannot be aborted; resign it if you cannot play.")
            )
        if scheduler is Scheduler.TOURNAMENT:
            raise ServiceError(
                Sentence("A tournament game cannot be aborted; resign it if you cannot play.")
            )
        outcome = Outcome(Termination.ABORT, None)
        return await self._store.finish_or_refuse(game, outcome, expected_ply=game.ply)
