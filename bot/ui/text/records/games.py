"""A member's games, listed and named: `/games` (active or finished, with each game's
result for the member) and the thread names that carry a game's number and, once it has
ended, its result."""

from __future__ import annotations

from collections.abc import Mapping

from bot.services import GameList, GameSnapshot, GameSummary, ListedStatus, PlayerRef
from bot.services import Result as GameResult
from rules import Handicap, Outcome, Termination
from rules.openings import Openings

from ...i18n import N_, gettext
from ..base import bank_text, safe, timestamp, translator, truncate
from ..sides import players_line, side_mark
from .openings import game_openings_line

MAX_THREAD_NAME = 100  # Discord's limit on a channel's or thread's name

#: A finished game's result for the member it is listed for.
RESULT_WORDS = {
    GameResult.WON: N_("won"),
    GameResult.LOST: N_("lost"),
    GameResult.DRAW: N_("draw"),
    GameResult.ABORTED: N_("aborted"),
}


def result_word(lang: str, result: GameResult) -> str:
    return gettext(lang, RESULT_WORDS[result])


def outcome_tag(lang: str, outcome: Outcome, handicap: Handicap) -> str:
    """A result in a few characters, as a thread's name ends: ☗ wins (☖uwate wins, in a
    handicap game), draw, aborted."""
    _ = translator(lang)
    if outcome.termination is Termination.ABORT:
        return _("aborted")
    if outcome.winner is None:
        return _("draw")
    return _("{side} wins").format(side=side_mark(lang, outcome.winner, handicap))


def thread_name(lang: str, game: GameSnapshot) -> str:
    """A game's thread name: `#12 ☗alice vs ☖bob`, and once it has ended, its result
    after a dot. Names too long for Discord's 100 characters are shortened, each ending
    in an ellipsis, so that the number and the result always show."""
    _ = translator(lang)
    outcome = game.outcome
    suffix = "" if outcome is None else " · " + outcome_tag(lang, outcome, game.handicap)
    names = (game.sente.name, game.gote.name)
    room = max(len(name) for name in names)
    while True:
        sente, gote = (_shortened(name, room) for name in names)
        players = players_line(lang, sente, gote, game.handicap)
        name = f"#{game.id} {players}{suffix}"
        if len(name) <= MAX_THREAD_NAME or room <= 1:
            return name[:MAX_THREAD_NAME]
        room -= 1


def rehomed_text(lang: str, game: GameSnapshot) -> str:
    """The first post of a game's new thread, opened because its old one was deleted."""
    _ = translator(lang)
    return _(
        "Game #{number}'s thread was deleted, so the game goes on in this new thread:"
        " type your moves here."
    ).format(number=game.id)


def _shortened(name: str, room: int) -> str:
    return name if len(name) <= room else name[: max(room - 1, 0)].rstrip() + "…"


# ---------------------------------------------------------------- /games

_HEADINGS = {
    ListedStatus.ACTIVE: N_("Active games of {name}:"),
    ListedStatus.FINISHED: N_("Finished games of {name}, latest first:"),
    ListedStatus.ALL: N_("Games of {name}:"),
}


def games_list_text(
    lang: str,
    owner: PlayerRef,
    listed: GameList,
    status: ListedStatus,
    *,
    own: bool,
    openings: Mapping[int, Openings] | None = None,
) -> str:
    """`/games`: a member's games, active ones first (theirs to move first), then finished
    ones with their result for that member and when they ended; `own` when the reader is
    that member (then it is "your turn", else theirs "to move"). A game whose openings
    (`openings`, by game id) are named says them after its line."""
    _ = translator(lang)
    name = safe(owner.name)
    if not listed.games:
        return _empty_list(lang, name, status)
    lines = [gettext(lang, _HEADINGS[status]).format(name=name)]
    for summary in listed.games:
        if summary.is_active:
            line = _active_line(lang, summary, own=own)
        else:
            line = _finished_line(lang, summary, own=own)
        named = (openings or {}).get(summary.id)
        said = None if named is None else game_openings_line(lang, named)
        lines.append(line if said is None else f"{line} · {said}")
    if listed.more:
        lines.append(_("…and {count} more.").format(count=listed.more))
    return truncate("\n".join(lines))


def _empty_list(lang: str, name: str, status: ListedStatus) -> str:
    _ = translator(lang)
    if status is ListedStatus.FINISHED:
        return _("{name} has no finished games here yet.").format(name=name)
    if status is ListedStatus.ALL:
        return _("{name} has no games here yet. Start one with `/challenge`.").format(name=name)
    return _(
        "{name} has no active games. Start one with `/challenge`;"
        " finished games are listed with `/games status:finished`."
    ).format(name=name)


def _where(summary: GameSummary) -> str:
    """The game's number, and a link to its thread if it has one."""
    number = f"#{summary.id}"
    return f"{number} <#{summary.thread_id}>" if summary.thread_id else number


def _active_line(lang: str, summary: GameSummary, *, own: bool) -> str:
    """`• #12 <#thread>: You (☗) vs bob, move 3, **your turn**`; in another member's list,
    whose heading names them, `playing ☗ against bob`: the colour is always the owner's,
    and the line says so without repeating their name on every line."""
    _ = translator(lang)
    to_move = _("**your turn**") if own else _("**to move**")
    values = {
        "where": _where(summary),
        "color": side_mark(lang, summary.your_color, summary.handicap),
        "opponent": safe(summary.opponent.name),
        "move_number": summary.move_number,
        "turn": to_move if summary.your_turn else _("waiting"),
    }
    if own:
        line = _("• {where}: You ({color}) vs {opponent}, move {move_number}, {turn}")
    else:
        line = _("• {where}: playing {color} against {opponent}, move {move_number}, {turn}")
    deadline = _(", ") + timestamp(summary.deadline) if summary.deadline else ""
    if summary.clock_waits:  # an event's game: its clock starts with its first post
        deadline = _(", its thread is being opened")
    banks = ""
    if summary.banks is not None:
        banks = _(", main time ☗{sente} · ☖{gote}").format(
            sente=bank_text(lang, summary.banks[0]), gote=bank_text(lang, summary.banks[1])
        )
    return line.format_map(values) + deadline + banks


def _finished_line(lang: str, summary: GameSummary, *, own: bool) -> str:
    _ = translator(lang)
    assert summary.result is not None
    values = {
        "where": _where(summary),
        "color": side_mark(lang, summary.your_color, summary.handicap),
        "opponent": safe(summary.opponent.name),
        "result": result_word(lang, summary.result),
        "move_number": summary.move_number,
    }
    if own:
        line = _("• {where}: You ({color}) vs {opponent}, **{result}** after move {move_number}")
    else:
        line = _(
            "• {where}: played {color} against {opponent}, **{result}** after move {move_number}"
        )
    ended = _(", ") + timestamp(summary.finished_at, "d") if summary.finished_at else ""
    return line.format_map(values) + ended
