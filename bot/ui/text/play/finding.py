"""Which game a command means, when a member plays several and did not say."""

from __future__ import annotations

from bot.services import ChooseGame, GameSummary

from ..base import safe, say, translator, truncate


def _where(lang: str, summary: GameSummary) -> str:
    _ = translator(lang)
    if summary.thread_id:
        return f"<#{summary.thread_id}>"
    return _("game #{id}").format(id=summary.id)


def choose_game_text(lang: str, question: ChooseGame) -> str:
    """The answer when a command could mean several games: which ones, and how to say."""
    _ = translator(lang)
    lines = [say(lang, question.sentence)]
    for summary in question.games[:20]:
        turn = _("your turn") if summary.your_turn else _("waiting")
        lines.append(
            _("• {where} (game #{id}): vs {opponent}, move {move_number}, {turn}").format(
                where=_where(lang, summary),
                id=summary.id,
                opponent=safe(summary.opponent.name),
                move_number=summary.move_number,
                turn=turn,
            )
        )
    lines.append(_("Use the command in the game's thread, or pick the game in its `game` option."))
    return truncate("\n".join(lines))
