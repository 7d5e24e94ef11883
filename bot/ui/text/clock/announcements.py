"""What the clock posts on its own: the reminder before a deadline, and the post when the
opponent gives the late player more time with its button."""

from __future__ import annotations

from datetime import datetime

from bot.services import GameSnapshot
from rules import Sentence

from ..base import deadline_text, mention, safe, timestamp, translator
from ..play.turns import banks_lines
from ..sides import player_in_turn

TIME_GIVEN = Sentence("Done: your opponent has a full move's time again, from now.")


def reminder_text(lang: str, game: GameSnapshot, now: datetime | None = None) -> str:
    """The reminder to the player to move, before their deadline, with both banks as
    they stand at `now`; the button under it is for the opponent, who may give them
    more time."""
    _ = translator(lang)
    if game.to_move is None or game.deadline is None:
        return ""
    late = game.to_move
    late_color = game.color_of(late.user_id)
    player = mention(late)
    if late_color is not None:
        player = player_in_turn(lang, late_color, player, game.handicap)
    reminder = _(
        "{player}, your move is due {relative} ({date}). {opponent} can give you more "
        "time with the button."
    ).format(
        player=player,
        relative=timestamp(game.deadline),
        date=timestamp(game.deadline, "f"),
        opponent=safe(game.opponent_of(late.user_id).name),
    )
    return "\n".join([reminder, *banks_lines(lang, game, now)])


def time_given(lang: str, game: GameSnapshot) -> str:
    """Posted in the thread when a player gave the one to move a fresh period."""
    _ = translator(lang)
    if game.to_move is None:
        return ""
    return _("{player}, your opponent gave you more time; {deadline}.").format(
        player=mention(game.to_move), deadline=deadline_text(lang, game.deadline)
    )
