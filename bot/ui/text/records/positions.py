"""Wording of positions and records from anywhere: `/board` showing an SFEN or a record at
a ply (its caption, alt text and the note on an irregular start), and the start a
challenge offers to play from."""

from __future__ import annotations

from bot.services import ShownPosition
from rules import Color, Handicap, Sentence, Termination

from ...i18n import N_, SOURCE_LANGUAGE, gettext
from ..base import move_echo, safe, say, translator
from ..sides import players_line, side_name
from .board import ending_line, fit_sentences, position_sentences

#: Said when `/board` is given both a game and a position.
GAME_OR_POSITION = Sentence(
    "Give a game, or a position or record to show, not both; a record as text or as a file."
)
#: Said when `/board` is given a move number but no record to take it from.
BOARD_MOVE_WITHOUT_RECORD = Sentence(
    "`at_move` goes with a position or record; to see a game at a move, use `/replay`."
)
#: Said when `/challenge` is given a move number but no start to take it from.
START_MOVE_WITHOUT_START = Sentence(
    "`start_move` goes with a record given in `start` or as a file in `record`."
)
#: Said when `/challenge` is given a start both as text and as a file.
START_OR_RECORD = Sentence("Give the start as text in `start` or as a file in `record`, not both.")


#: A record's result, at the move the record numbers its last; in Japanese as a KIF ends
#: (まで77手で先手の勝ち).
_RECORD_WINS = {
    Termination.RESIGNATION: N_("{side} won by resignation at move {move_number}."),
    Termination.CHECKMATE: N_("{side} won by checkmate at move {move_number}."),
    Termination.STALEMATE: N_(
        "{side} won at move {move_number}: the other side had no legal move."
    ),
    Termination.PERPETUAL_CHECK: N_(
        "{side} won at move {move_number}: the other side gave perpetual check."
    ),
    Termination.TIME: N_("{side} won on time at move {move_number}."),
    Termination.FOUL: N_("{side} won by an illegal move at move {move_number}."),
    Termination.IMPASSE_24: N_("{side} won by the impasse count at move {move_number}."),
    Termination.IMPASSE_27: N_("{side} won by an impasse declaration at move {move_number}."),
    Termination.IMPASSE_JSA24: N_("{side} won by an impasse declaration at move {move_number}."),
}
_RECORD_DRAWS = {
    Termination.SENNICHITE: N_("Sennichite at move {move_number}: a draw."),
    Termination.IMPASSE_24: N_("Jishogi at move {move_number}: a draw."),
    Termination.IMPASSE_JSA24: N_("Jishogi at move {move_number}: a draw."),
    Termination.ABORT: N_("Aborted at move {move_number}, without a result."),
}


def record_result(lang: str, shown: ShownPosition) -> str | None:
    """How the record ended, in one sentence, or None when it does not say: `Sente won by
    resignation at move 77.`, `まで77手で先手の勝ち。`"""
    outcome = shown.result
    if outcome is None:
        return None
    won = outcome.winner
    template = (_RECORD_WINS if won is not None else _RECORD_DRAWS).get(outcome.termination)
    if template is None:
        return None
    side = "" if won is None else side_name(lang, won, shown.handicap)
    said = gettext(lang, template).format(side=side, move_number=shown.last_number)
    return said[:1].upper() + said[1:]


def position_image_caption(lang: str, shown: ShownPosition) -> str:
    """The line drawn on the board: the move and whose turn."""
    _ = translator(lang)
    turn = side_name(lang, shown.position.turn, shown.handicap)
    return _("Move {move_number} · {side} to move").format(move_number=shown.move_number, side=turn)


def _heading(lang: str, shown: ShownPosition) -> str:
    _ = translator(lang)
    if shown.sente is None and shown.gote is None:
        return _("Move {move_number} of {last}").format(
            move_number=shown.move_number, last=shown.last_number
        )
    sente = side_name(lang, Color.SENTE, shown.handicap) if shown.sente is None else shown.sente
    gote = side_name(lang, Color.GOTE, shown.handicap) if shown.gote is None else shown.gote
    if shown.handicap is Handicap.EVEN:
        return _("☗{sente} vs ☖{gote} · move {move_number} of {last}").format(
            sente=safe(sente),
            gote=safe(gote),
            move_number=shown.move_number,
            last=shown.last_number,
        )
    players = players_line(lang, safe(sente), safe(gote), shown.handicap)
    return _("{players} · move {move_number} of {last}").format(
        players=players, move_number=shown.move_number, last=shown.last_number
    )


def position_caption(lang: str, shown: ShownPosition) -> str:
    """The text above a shown position: the names and move, the last move, whose turn,
    and a note when the record's start is irregular (nifu, no king at all...)."""
    _ = translator(lang)
    lines = [_heading(lang, shown)]
    if shown.last_move_text is not None:
        mover = shown.position.turn.opponent
        lines.append(
            _("Last move: {move}").format(move=move_echo(lang, mover, shown.last_move_text))
        )
    result = record_result(lang, shown)
    if shown.outcome is None or result is None:  # the game goes on at this move
        lines.append(position_image_caption(lang, shown))
    if result is not None:
        lines.append(result)
    if shown.warnings:
        joiner = " " if lang == SOURCE_LANGUAGE else ""
        found = joiner.join(say(lang, warning) for warning in shown.warnings)
        lines.append(
            _("Note: the record starts from an irregular position: {warnings}").format(
                warnings=found
            )
        )
    return "\n".join(lines)


def position_alt_text(lang: str, shown: ShownPosition) -> str:
    """The alt text of a shown position: what it is, then the whole position in words."""
    _ = translator(lang)
    ending = position_ending(lang, shown)
    caption = position_image_caption(lang, shown) if ending is None else ending
    head = _("Shogi board. {caption}.").format(caption=caption)
    result = record_result(lang, shown)
    said = [head] if result is None or ending is not None else [head, result]
    return fit_sentences(lang, [*said, *position_sentences(lang, shown.position, shown.handicap)])


def position_ending(lang: str, shown: ShownPosition) -> str | None:
    """The result line drawn on a record's board at its last move (None before it, or
    for a record that ends without a result): `まで77手で先手の勝ち（投了）`."""
    outcome = shown.outcome
    if outcome is None:
        return None
    side = "" if outcome.winner is None else side_name(lang, outcome.winner, shown.handicap)
    return ending_line(lang, outcome, shown.last_number, side)
