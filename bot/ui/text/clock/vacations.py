"""Vacations: `/vacation`, the posts in a player's games when they leave and come back,
and the line under a game's posts while a player is away."""

from __future__ import annotations

from bot.services import GameSnapshot, PlayerRef, Vacation, VacationStatus
from rules import Color

from ..base import duration_text, safe, timestamp, translator
from ..play.turns import to_move_text


def away_lines(lang: str, game: GameSnapshot) -> list[str]:
    """A line for each player of an active game who is on vacation, and until when."""
    _ = translator(lang)
    if not game.is_active:
        return []
    lines = []
    for color in Color:
        until = game.away_until(color)
        if until is not None:
            lines.append(
                _(
                    "{name} is on vacation until {date} at the latest; their clock is paused."
                ).format(name=safe(game.player(color).name), date=timestamp(until, "f"))
            )
    return lines


def _away_player(game: GameSnapshot, vacation: Vacation) -> PlayerRef:
    """The player the vacation is about (a vacation is only ever posted in its own
    player's games)."""
    color = game.color_of(vacation.user_id)
    assert color is not None  # posted only in the games of the player away
    return game.player(color)


def vacation_started(lang: str, game: GameSnapshot, vacation: Vacation) -> str:
    """Posted in each active game of a player who went on vacation."""
    _ = translator(lang)
    name = safe(_away_player(game, vacation).name)
    return _(
        "{name} is on vacation until {date} at the latest: their clock is paused in this "
        "game, and their deadline moves later by the time they are away."
    ).format(name=name, date=timestamp(vacation.ends_by, "f"))


def vacation_ended(lang: str, game: GameSnapshot, vacation: Vacation) -> str:
    """Posted in each active game of a player back from vacation: whose move, until when."""
    _ = translator(lang)
    name = safe(_away_player(game, vacation).name)
    lines = [_("{name} is back from vacation; their clock runs again.").format(name=name)]
    if game.to_move is not None:
        lines.append(to_move_text(lang, game, game.to_move, game.deadline, ping=False))
    return "\n".join(lines)


def vacation_text(lang: str, status: VacationStatus, *, games: int | None = None) -> str:
    """`/vacation`: the player's vacation now, and the year's allowance; `games`, after a
    start or an end, how many active games were told."""
    _ = translator(lang)
    lines = []
    current = status.current
    if current is not None:
        lines.append(
            _("You are on vacation until {date} at the latest; your clocks are paused.").format(
                date=timestamp(current.ends_by, "f")
            )
        )
    elif games is not None:
        lines.append(_("Welcome back: your vacation is over and your clocks run again."))
    else:
        lines.append(_("You are not on vacation."))
    lines.append(
        _("Vacation in {year}: {used} used of {allowance}, {left} left.").format(
            year=status.year,
            used=duration_text(lang, status.used),
            allowance=duration_text(lang, status.allowance),
            left=duration_text(lang, status.left),
        )
    )
    # One sentence per case rather than plural machinery: "1 games" must never be read.
    if games == 1:
        lines.append(_("Your opponent was told in your game's thread."))
    elif games:
        lines.append(
            _("Your opponents were told in the threads of your {count} games.").format(count=games)
        )
    if current is None and games is None:
        lines.append(_("Start one with `/vacation action:Start`; each hour begun counts."))
    return "\n".join(lines)
