"""Whose turn it is, as every post that leaves a game waiting says it: the player to move
and until when, and both banks. Moves, takebacks, vacations, reminders, a game's start and
its board all end with these lines."""

from __future__ import annotations

from datetime import datetime

from bot.services import GameSnapshot, PlayerRef

from ..base import banks_text, deadline_text, mention, safe, translator
from ..sides import player_in_turn


def to_move_text(
    lang: str, game: GameSnapshot, player: PlayerRef, deadline: datetime | None, *, ping: bool
) -> str:
    """Whose move it is in `game` and until when (with their side in a handicap game:
    「上手の…さんの手番です」); `ping` names them with a mention."""
    _ = translator(lang)
    who = mention(player) if ping else safe(player.name)
    color = game.color_of(player.user_id)
    if color is not None:
        who = player_in_turn(lang, color, who, game.handicap)
    return _("{player} to move; {deadline}.").format(
        player=who, deadline=deadline_text(lang, deadline)
    )


def banks_lines(lang: str, game: GameSnapshot, now: datetime | None = None) -> list[str]:
    """The line of both players' banks, if the game's time control has banks."""
    line = banks_text(lang, game, now)
    return [] if line is None else [line]
