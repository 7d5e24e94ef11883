"""Moves: the public post of a move (what was played, check, who is next), and the private
notes and questions of `/move` (what was understood, which piece, confirm it)."""

from __future__ import annotations

from bot.services import MoveText, PlayedMove
from rules import Sentence

from ...i18n import SOURCE_LANGUAGE
from ..base import move_echo, safe, translator
from ..clock.vacations import away_lines
from ..records.openings import named_line
from .endings import outcome_text
from .turns import banks_lines, to_move_text

MOVE_CANCELLED = Sentence("Cancelled: the move was not played.")


def move_text(lang: str, result: PlayedMove, *, by_forecast: bool = False) -> str:
    """The public answer to a move: what was played, check, and who is next. A reply a
    forecast (予約手) played is said to be one, and the away lines are left to the move
    it answered, whose post stands just above."""
    _ = translator(lang)
    game = result.game
    color = game.color_of(result.mover.user_id)
    assert color is not None  # the mover is one of the game's players
    values = {
        "move_number": game.move_number,
        "move": move_echo(lang, color, result.move),
        "player": safe(result.mover.name),
    }
    if by_forecast:
        first = _("{move_number}. {move} by {player}, played by forecast.").format_map(values)
    else:
        first = _("{move_number}. {move} by {player}.").format_map(values)
    named = named_line(lang, result.openings)
    if result.outcome is not None:
        lines = [first, outcome_text(lang, result.outcome, game)]
        return "\n".join(lines if named is None else [lines[0], named, lines[1]])
    lines = [_("{text} Check!").format(text=first) if result.check else first]
    if named is not None:
        lines.append(named)
    if result.next_player is not None and not result.next_player.is_bot:
        lines.append(to_move_text(lang, game, result.next_player, result.deadline, ping=True))
        lines += banks_lines(lang, game)
    if not by_forecast:
        lines += away_lines(lang, game)
    return "\n".join(lines)


def _private_echo(lang: str, move: MoveText) -> str:
    """A move in a private answer: Japanese, and in English the Western notation too."""
    return move.japanese if lang != SOURCE_LANGUAGE else f"{move.japanese} ({move.western})"


def played_note(lang: str, move: MoveText, *, posted_in: int | None = None) -> str:
    """The private note to the mover: what was understood, and where the board went
    when that is not where they typed (`posted_in`, a thread id; 0: the game's channel)."""
    _ = translator(lang)
    echo = _private_echo(lang, move)
    if posted_in is None:
        return _("Played {move}.").format(move=echo)
    if posted_in:
        return _("Played {move} in {thread}.").format(move=echo, thread=f"<#{posted_in}>")
    return _("Played {move} in the game's channel.").format(move=echo)


def which_move(lang: str, typed: str) -> str:
    """The private question when what a player typed fits several pieces' moves."""
    _ = translator(lang)
    return _("Several of your pieces can play '{typed}': which one do you mean?").format(
        typed=safe(typed.strip()[:40])
    )


def confirm_question(lang: str, move: MoveText) -> str:
    """The private question of a player who confirms their moves, above the board as it
    would be after the move."""
    _ = translator(lang)
    return _(
        "Play {move}? The board shows the position after it. Nothing is played until you confirm."
    ).format(move=_private_echo(lang, move))
