"""A tournament game's result, mirrored onto its scheduled game in the transaction that
ends the game: every such transaction calls `mirror_ending`, so a result is mirrored
exactly when the ending is stored, once, and the tournament finds it there (after a
restart too) to act on it (`progress`)."""

from __future__ import annotations

from bot.db import Session
from rules import Color, Outcome, Termination


def result_of(outcome: Outcome) -> str:
    """The scheduled game's result: the winner's colour, `draw` (sennichite, impasse) or
    `void` (an aborted game, which a tournament plays again).

    Example: `result_of(Outcome(Termination.RESIGNATION, Color.GOTE)) == "gote"`.
    """
    if outcome.winner is Color.SENTE:
        return "sente"
    if outcome.winner is Color.GOTE:
        return "gote"
    return "void" if outcome.termination is Termination.ABORT else "draw"


async def mirror_ending(tx: Session, game_id: int, outcome: Outcome) -> bool:
    """In the transaction that stored game `game_id`'s end: its result on its scheduled
    game, if a tournament's or a team match's; whether it was one."""
    result = result_of(outcome)
    if await tx.tournaments.mirror_result(game_id, result):
        return True
    return await tx.team_matches.mirror_result(game_id, result)
