"""Playing the computer: the post that opens a game against it, its failures, and the
word while it thinks."""

from __future__ import annotations

from bot.services import GameSnapshot
from rules import Color

from ..base import named, translator


def computer_start_text(lang: str, game: GameSnapshot, level: int) -> str:
    """The post that opens a game against the computer: who plays whom, at what level."""
    _ = translator(lang)
    return _("{sente} vs {gote}: a game against the computer at level {level} of 8.").format(
        sente=named(lang, game, Color.SENTE), gote=named(lang, game, Color.GOTE), level=level
    )


def computer_failed_text(lang: str, game: GameSnapshot) -> str:
    """Posted in the thread when the engine failed twice: the game waits for a retry."""
    _ = translator(lang)
    return _(
        "The computer could not find a move in game #{game_id} (its engine failed twice). "
        "Press Retry to ask it again."
    ).format(game_id=game.id)


def computer_thinking_text(lang: str) -> str:
    _ = translator(lang)
    return _("The computer is thinking about its move.")
