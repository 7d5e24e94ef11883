"""Forecasts (予約手): the player's lines in a game, as `/forecast` shows them."""

from __future__ import annotations

from bot.services import Forecast, MoveText

from ..base import move_echo, plural_translator, translator


def forecast_line_text(lang: str, forecast: Forecast, moves: tuple[MoveText, ...]) -> str:
    """One forecast line as the player reads it: each of the opponent's moves with the
    reply, ☖３四歩 → ☗２六歩, pairs separated by commas."""
    _ = translator(lang)
    mine, theirs = forecast.color, forecast.color.opponent
    pairs = [
        f"{move_echo(lang, theirs, moves[i])} → {move_echo(lang, mine, moves[i + 1])}"
        for i in range(0, len(moves) - 1, 2)
    ]
    return _(", ").join(pairs)


def forecast_text(
    lang: str, forecast: Forecast, *, added: bool = False, cleared: int | None = None
) -> str:
    """The private answer to `/forecast`: what was done (a line stored, lines cleared),
    then the player's lines in the game as they now stand."""
    _, _n = translator(lang), plural_translator(lang)
    game_id = forecast.game.id
    lines = []
    if cleared is not None:
        lines.append(
            _("Cleared your forecasts in game #{id} ({count}).").format(id=game_id, count=cleared)
        )
    if added:
        lines.append(_("Forecast stored."))
        if forecast.replaced:
            lines.append(
                _n(
                    "It replaces {count} older line that answered differently.",
                    "It replaces {count} older lines that answered differently.",
                    forecast.replaced,
                ).format(count=forecast.replaced)
            )
    if not forecast.lines:
        lines.append(
            _(
                "You have no forecasts in game #{id}. While you wait, add a line with /forecast:"
                " your opponent's move, then your reply, e.g. 3c3d 2g2f."
            ).format(id=game_id)
        )
        return "\n".join(lines)
    lines.append(_("Your forecasts in game #{id} (only you see them):").format(id=game_id))
    for number, line in enumerate(forecast.lines, start=1):
        lines.append(f"{number}. {forecast_line_text(lang, forecast, line.moves)}")
    return "\n".join(lines)
