"""Impasse (jishogi): the counts, the 24-point count by agreement, the 27-point declaration.

The rule is fixed per game at the challenge (`ImpasseRule`). Under the
27-point rule the bot refuses a declaration that does not meet the conditions,
with the reason, instead of scoring it as a loss as CSA rules would: a player
pressing a button should not lose a game to a miscount. Gote's threshold is
lowered by a handicap's missing material (the handicap-aware rule lishogi uses),
and in the 24-point count the missing pieces are credited to gote (JSA). Only a
real handicap start counts: a game set up from an arbitrary position has no
uwate, and its absent pieces are not anybody's.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Color, Game, Handicap, Outcome, Sentence, Termination
from rules.impasse import (
    AgreedCount,
    CampCount,
    Declaration,
    Verdict,
    camp_count,
    count_24,
    evaluate_27,
)
from rules.impasse import required_27 as required_points

from ..errors import ImpasseRefused, PositionChanged
from .game import (
    GameSnapshot,
    ImpasseRule,
)
from .snapshots import color_name
from .store import MOVED_ON, GameStore


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


def handicap_points(game: Game) -> int:
    """The points of the pieces a handicap start removed from the giver (0 for the even
    start and for set-up positions, which have no giver)."""
    handicap = game.handicap
    return 0 if handicap is None or handicap is Handicap.EVEN else game.missing_points()


def declaration(game: Game, color: Color) -> Declaration:
    return evaluate_27(game.position, color, missing=handicap_points(game))


def agreed_count(game: Game) -> AgreedCount:
    return count_24(game.position, missing=handicap_points(game))


class Impasse:
    """The impasse rules of a game: counts, the 24-point proposal, the 27-point declaration."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def report(self, game_id: int, *, guild_id: int | None = None) -> ImpasseReport:
        """Both players' counts and what the game's rule allows right now."""
        loaded = await self._store.current(game_id, guild_id=guild_id)
        game = loaded.game
        rule = loaded.impasse_rule
        active = loaded.is_active
        missing = handicap_points(game)
        counts = {color: camp_count(game.position, color) for color in Color}
        required = {color: required_points(color, missing) for color in Color}
        predicted = None
        can_declare = None
        can_count = False
        if active and rule is ImpasseRule.DECLARATION_27:
            predicted = declaration(game, game.position.turn)
            if predicted.verdict is Verdict.WIN:
                can_declare = game.position.turn
        elif active:
            can_count = agreed_count(game).applicable
        return ImpasseReport(
            game=loaded,
            counts=counts,
            required_27=required,
            rule=rule,
            can_propose_count=can_count,
            can_declare=can_declare,
            declaration=predicted,
        )

    async def _count_game(
        self, game_id: int, user_id: int, guild_id: int | None
    ) -> tuple[GameSnapshot, Color]:
        loaded, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if loaded.row.terms.impasse_rule != ImpasseRule.COUNT_24.value:
            raise ImpasseRefused(
                Sentence("This game uses the 27-point declaration: declare on your turn instead.")
            )
        count = agreed_count(loaded.game)
        if not count.applicable:
            assert count.reason is not None  # a count that cannot be made says why
            raise ImpasseRefused(count.reason)
        return loaded, color

    async def propose_count(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Propose the 24-point count (both kings entered); if the opponent already
        proposed it, this agrees and the game ends by the count."""
        loaded, color = await self._count_game(game_id, user_id, guild_id)
        pending = loaded.row.count_proposed_by
        if pending == color_name(color.opponent):
            return await self._settle(loaded)
        if pending == color_name(color):
            other = loaded.player(color.opponent).name
            raise ImpasseRefused(
                Sentence("You have already proposed the count; {name} can accept it.", name=other)
            )
        await self._set_proposal(loaded, color)
        return await self._store.load(game_id)

    async def accept_count(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Accept the opponent's count proposal: the game ends by the 24-point count."""
        loaded, color = await self._count_game(game_id, user_id, guild_id)
        proposer = loaded.row.count_proposed_by
        if proposer == color_name(color):
            other = loaded.player(color.opponent).name
            raise ImpasseRefused(
                Sentence("You proposed the count yourself; only {name} can accept it.", name=other)
            )
        if proposer != color_name(color.opponent):
            raise ImpasseRefused(
                Sentence("Your opponent has not proposed the count (or a move was made).")
            )
        return await self._settle(loaded)

    async def decline_count(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Turn down the opponent's count proposal; the game goes on."""
        loaded, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if loaded.row.count_proposed_by != color_name(color.opponent):
            raise ImpasseRefused(
                Sentence("There is no count proposal from your opponent to decline.")
            )
        await self._set_proposal(loaded, None)
        return await self._store.load(game_id)

    async def _set_proposal(self, loaded: GameSnapshot, color: Color | None) -> None:
        record = loaded.row
        async with self._store.db.transaction() as tx:
            done = await tx.games.set_count_proposal(record.id, color_name(color), record.ply)
        if not done:
            raise PositionChanged(MOVED_ON)

    async def _settle(self, loaded: GameSnapshot) -> GameSnapshot:
        count = agreed_count(loaded.game)
        if not count.applicable:
            assert count.reason is not None  # a count that cannot be made says why
            raise ImpasseRefused(count.reason)
        outcome = Outcome(Termination.IMPASSE_24, count.winner)
        return await self._store.finish_or_refuse(loaded, outcome, expected_ply=loaded.ply)

    async def declare(
        self, game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> GameSnapshot:
        """Declare under the 27-point rule: wins when every condition holds; otherwise
        refused with the reason (the game goes on)."""
        loaded, color = await self._store.for_player(game_id, user_id, guild_id=guild_id)
        if loaded.row.terms.impasse_rule != ImpasseRule.DECLARATION_27.value:
            raise ImpasseRefused(
                Sentence(
                    "This game uses the 24-point count: propose the count once both kings entered."
                )
            )
        self._store.require_turn(loaded, color)
        game = loaded.game
        verdict = declaration(game, color)
        if verdict.verdict is not Verdict.WIN:
            assert verdict.reason is not None  # an invalid declaration always says why
            raise ImpasseRefused(verdict.reason)
        outcome = Outcome(Termination.IMPASSE_27, color)
        return await self._store.finish_or_refuse(loaded, outcome, expected_ply=loaded.ply)
