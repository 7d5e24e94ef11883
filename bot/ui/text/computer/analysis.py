"""`/analyse`: its progress, the marked moves with the engine's choice, and the chart's
title and alt text."""

from __future__ import annotations

from bot.services import BLUNDER, MISTAKE, Analysis, GameSnapshot, Mark, MarkedMove, Numbering
from rules import Color, Handicap

from ..base import move_echo, named, plural_translator, translator
from ..sides import players_line

#: The marked moves an analysis lists; the chart shows them all.
MAX_MARKS_SHOWN = 12


def analysis_progress_text(lang: str, game_id: int, done: int, total: int) -> str:
    """The one message an analysis edits as it goes."""
    _ = translator(lang)
    return _("Analysing game #{game_id}: {done} of {total} positions evaluated…").format(
        game_id=game_id, done=done, total=total
    )


def _mark_line(lang: str, marked: MarkedMove, numbering: Numbering) -> str:
    """One marked move, under the number the game's thread gave it."""
    _ = translator(lang)
    kind = _("Blunder") if marked.mark is Mark.BLUNDER else _("Mistake")
    line = _("{move_number}. {move}: {kind} (−{drop})").format(
        move_number=numbering.number(marked.ply),
        move=move_echo(lang, marked.mover, marked.played),
        kind=kind,
        drop=marked.drop,
    )
    if marked.best is not None:
        best = _("best was {move}").format(move=move_echo(lang, marked.mover, marked.best))
        line += _(", ") + best
    return line


def analysis_text(lang: str, analysis: Analysis) -> str:
    """The analysis: each player's count of mistakes and blunders, the marked moves with
    the engine's choice, and how moves are marked."""
    _, _n = translator(lang), plural_translator(lang)
    game = analysis.game
    lines = [_("Analysis of game #{game_id}:").format(game_id=game.id)]
    for color in Color:
        mistakes = analysis.count(color, Mark.MISTAKE)
        blunders = analysis.count(color, Mark.BLUNDER)
        lines.append(
            _("{player}: {mistakes}, {blunders}").format(
                player=named(lang, game, color),
                mistakes=_n("{count} mistake", "{count} mistakes", mistakes).format(count=mistakes),
                blunders=_n("{count} blunder", "{count} blunders", blunders).format(count=blunders),
            )
        )
    if analysis.marks:
        lines.append("")
        numbering = analysis.game.numbering
        lines += [_mark_line(lang, m, numbering) for m in analysis.marks[:MAX_MARKS_SHOWN]]
        hidden = len(analysis.marks) - MAX_MARKS_SHOWN
        if hidden > 0:
            lines.append(_("…and {count} more on the chart.").format(count=hidden))
    else:
        lines.append(_("No mistakes: well played."))
    lines.append("")
    lines.append(
        _(
            "A move that drops the engine's evaluation by {mistake} centipawns or more is a "
            "mistake; by {blunder} or more, a blunder."
        ).format(mistake=MISTAKE, blunder=BLUNDER)
    )
    return "\n".join(lines)


def evaluation_chart_title(lang: str, game: GameSnapshot) -> str:
    """The chart's title: which game, and whose lead is above the line (sente's, or in a
    handicap game shitate's)."""
    _ = translator(lang)
    if game.handicap is not Handicap.EVEN:
        title = _("Game #{game_id}: evaluation (above the line, Shitate is ahead)")
    else:
        title = _("Game #{game_id}: evaluation (above the line, Sente is ahead)")
    return title.format(game_id=game.id)


def evaluation_chart_description(lang: str, game: GameSnapshot) -> str:
    """The chart's alternative text, for screen readers."""
    _ = translator(lang)
    players = players_line(lang, game.sente.name, game.gote.name, game.handicap)
    return _("Evaluation chart of game #{game_id}, {players}").format(
        game_id=game.id, players=players
    )
