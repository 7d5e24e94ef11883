"""How a game ends: the result of each ending, the post that announces it, `/resign`'s
question, and the refusal of an action in a game that is over."""

from __future__ import annotations

from bot.services import GameSnapshot, PlayerRef
from rules import Outcome, Sentence, Termination

from ...i18n import N_, gettext
from ..base import mention, named, safe, sentences, translator
from ..ratings.standings import rating_line

RESIGNED = Sentence("You resigned.")
ABORTED = Sentence("The game is aborted.")


def resign_question(lang: str, opponent: PlayerRef, *, aborts: bool = False) -> str:
    """The private confirmation `/resign` asks for; `aborts`: before both players have
    moved, where resigning aborts the game instead."""
    _ = translator(lang)
    if aborts:
        return _(
            "Resign the game against {name}? Before both players have moved, that aborts it "
            "without a result."
        ).format(name=safe(opponent.name))
    return _("Resign the game against {name}?").format(name=safe(opponent.name))


_HOW = {
    Termination.CHECKMATE: N_("by checkmate"),
    Termination.STALEMATE: N_("because a player had no legal move"),
    Termination.SENNICHITE: N_("in sennichite (repetition)"),
    Termination.PERPETUAL_CHECK: N_("by perpetual check"),
    Termination.RESIGNATION: N_("by resignation"),
    Termination.TIME: N_("on time"),
    Termination.FOUL: N_("by an illegal move"),
    Termination.IMPASSE_24: N_("by the impasse count"),
    Termination.IMPASSE_27: N_("by an impasse declaration"),
    Termination.IMPASSE_JSA24: N_("by an impasse declaration"),
}


def already_ended(lang: str, outcome: Outcome | None) -> str:
    """The refusal for an action in a game that is over, saying how it ended."""
    _ = translator(lang)
    if outcome is None:
        return _("This game has already ended.")
    if outcome.termination is Termination.ABORT:
        return _("This game was already aborted.")
    how = gettext(lang, _HOW[outcome.termination])
    return _("This game has already ended {how}.").format(how=how)


#: The result of a game someone won, by how it ended; in Japanese as a KIF ends
#: (まで83手で先手の勝ち).
_WINS = {
    Termination.CHECKMATE: N_("Checkmate after move {move_number}: {winner} wins."),
    Termination.STALEMATE: N_(
        "{loser} has no legal move after move {move_number} and loses: {winner} wins."
    ),
    Termination.PERPETUAL_CHECK: N_(
        "{loser} loses by perpetual check after move {move_number}: {winner} wins."
    ),
    Termination.RESIGNATION: N_("{loser} resigned after move {move_number}: {winner} wins."),
    Termination.TIME: N_("{loser} ran out of time after move {move_number}: {winner} wins."),
    Termination.FOUL: N_(
        "{loser} lost by an illegal move after move {move_number}: {winner} wins."
    ),
    Termination.IMPASSE_24: N_("Impasse count after move {move_number}: {winner} wins."),
    Termination.IMPASSE_27: N_(
        "{winner} declared an impasse win (27-point rule) after move {move_number}."
    ),
    Termination.IMPASSE_JSA24: N_("Impasse declaration after move {move_number}: {winner} wins."),
}
#: The result of a game no one won (a draw, or an aborted game), by how it ended.
_DRAWS = {
    Termination.SENNICHITE: N_(
        "Sennichite after move {move_number}: the same position appeared four times. Draw."
    ),
    Termination.ABORT: N_("The game was aborted; it has no result."),
    Termination.IMPASSE_24: N_("Impasse count after move {move_number}: jishogi, a draw."),
    Termination.IMPASSE_JSA24: N_("Impasse declaration after move {move_number}: jishogi, a draw."),
}
#: An ending the rules never produce (a checkmate without a winner) still gets a sentence.
_ENDED = N_("The game ended after move {move_number}.")


def result_text(lang: str, outcome: Outcome, game: GameSnapshot) -> str:
    """How the game ended, in one sentence."""
    won = outcome.winner
    template = (_DRAWS if won is None else _WINS).get(outcome.termination, _ENDED)
    names: dict[str, object] = {"move_number": game.move_number}
    if won is not None:
        names |= {"winner": named(lang, game, won), "loser": named(lang, game, won.opponent)}
    return gettext(lang, template).format_map(names)


def outcome_text(lang: str, outcome: Outcome, game: GameSnapshot) -> str:
    """The ending as posted: the result, where to get the record, and what a rated game
    did to the players' ratings."""
    _ = translator(lang)
    ending = sentences(result_text(lang, outcome, game), _("Get the record with `/export`."))
    return _with_ratings(lang, game, ending)


def idle_abort_text(lang: str, game: GameSnapshot) -> str:
    """The ending of a game whose player to move never made a first move in time."""
    _ = translator(lang)
    late = game.player(game.turn)
    ending = _(
        "{player} did not make a first move in time, so the game is aborted without a result."
    ).format(player=mention(late))
    return _with_ratings(lang, game, ending)


def _with_ratings(lang: str, game: GameSnapshot, ending: str) -> str:
    """An ending's post, followed by what a rated game did to the players' ratings."""
    ratings = rating_line(lang, game)
    return f"{ending}\n{ratings}" if ratings else ending
