"""Takebacks: the request asked of the opponent, its answers, and the post once the moves
are taken back."""

from __future__ import annotations

from bot.services import Takeback

from ..base import mention, move_echo, safe, sentences, translator
from .turns import to_move_text


def takeback_moves(lang: str, takeback: Takeback) -> str:
    """The moves a takeback request takes back, as posts show moves (☗７六歩, ☖３四歩):
    the asker's first, then the opponent's reply."""
    _ = translator(lang)
    colors = (takeback.asker_color, takeback.asker_color.opponent)
    echoes = [move_echo(lang, c, m) for c, m in zip(colors, takeback.moves, strict=False)]
    return _(", ").join(echoes)


def takeback_question(lang: str, takeback: Takeback) -> str:
    """Posted in the thread: the opponent is asked to accept or decline a takeback."""
    _ = translator(lang)
    values = {
        "player": mention(takeback.answerer),
        "asker": safe(takeback.asker.name),
        "move": move_echo(lang, takeback.asker_color, takeback.moves[0]),
    }
    if len(takeback.moves) == 1:
        question = _("{player}, {asker} asks to take back their move {move}.")
    else:
        values["reply"] = move_echo(lang, takeback.asker_color.opponent, takeback.moves[1])
        question = _(
            "{player}, {asker} asks to take back their move {move} and your reply {reply}."
        )
    how = _("Accept or decline with the buttons; a move by either player cancels the request.")
    return sentences(question.format_map(values), how)


def takeback_sent(lang: str, takeback: Takeback) -> str:
    """The private answer to `/takeback`: the request went to the opponent."""
    _ = translator(lang)
    return _("Takeback requested: {name} can accept or decline it in the game's thread.").format(
        name=safe(takeback.answerer.name)
    )


def takeback_answered(lang: str, takeback: Takeback) -> str:
    """The request's post once answered: the question, then the answer (its buttons go)."""
    _ = translator(lang)
    name = safe(takeback.answerer.name)
    if takeback.request.status == "accepted":
        answer = _("{name} accepted the takeback.").format(name=name)
    else:
        answer = _("{name} declined the takeback.").format(name=name)
    return takeback_question(lang, takeback) + "\n" + answer


def takeback_done(lang: str, takeback: Takeback) -> str:
    """Posted with the board once a takeback is accepted: what was taken back, and that
    the asker is to move again."""
    _ = translator(lang)
    game = takeback.game
    lines = [
        _("Takeback: {moves} taken back with {name}'s consent.").format(
            moves=takeback_moves(lang, takeback), name=safe(takeback.answerer.name)
        )
    ]
    if game.to_move is not None:
        lines.append(to_move_text(lang, game, game.to_move, game.deadline, ping=True))
    return "\n".join(lines)


def takeback_declined(lang: str, takeback: Takeback) -> str:
    """Posted in the thread when the opponent declines, so that the asker hears of it."""
    _ = translator(lang)
    return _("{player}, {name} declined your takeback; the game goes on.").format(
        player=mention(takeback.asker), name=safe(takeback.answerer.name)
    )
