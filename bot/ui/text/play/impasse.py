"""The impasse (jishogi): `/jishogi`'s count under the game's rule, and the proposal to
settle it by the 24-point count."""

from __future__ import annotations

from bot.services import ImpasseReport, ImpasseRule, PlayerRef
from rules import Color, Sentence

from ..base import mention, named, safe, say, translator
from ..controls import rule_name

PROPOSAL_SENT = Sentence("Proposal sent.")
IMPASSE_SETTLED = Sentence("The impasse is settled.")


def count_proposed(lang: str, opponent: PlayerRef) -> str:
    """Posted in the thread: the opponent is asked to accept the 24-point count."""
    _ = translator(lang)
    return _(
        "{player}, your opponent proposes to settle the impasse by the 24-point count. "
        "Accept with the button or keep playing."
    ).format(player=mention(opponent))


def impasse_text(lang: str, report: ImpasseReport) -> str:
    """What `/jishogi` shows: both players' counts under the game's own rule (pieces and
    points in the camp for the 27-point declaration, points on the whole board for the
    24-point count; the other rule's numbers would only mislead), and what it allows now."""
    _ = translator(lang)
    game = report.game
    lines = [_("Impasse count ({rule}):").format(rule=rule_name(lang, report.rule))]
    for color in Color:
        count = report.counts[color]
        values = {
            "player": named(lang, game, color),
            "pieces": count.pieces_in_camp,
            "points": count.camp_points,
            "required": report.required_27[color],
            "total": count.total_points,
        }
        if report.rule is ImpasseRule.COUNT_24:
            line = (
                _("{player}: king entered; {total}/24 points on board + hand.")
                if count.king_in_camp
                else _("{player}: king not entered; {total}/24 points on board + hand.")
            )
        elif count.king_in_camp:
            line = _(
                "{player}: king entered; {pieces}/10 pieces in camp; "
                "{points}/{required} points in camp + hand."
            )
        else:
            line = _(
                "{player}: king not entered; {pieces}/10 pieces in camp; "
                "{points}/{required} points in camp + hand."
            )
        lines.append(line.format_map(values))
    if report.declaration is not None:
        verdict = report.declaration
        who = safe(game.player(verdict.declarer).name)
        if verdict.reason is None:
            lines.append(_("{name} can declare now and would win.").format(name=who))
        else:
            lines.append(
                _("{name} cannot declare yet. {reason}").format(
                    name=who, reason=say(lang, verdict.reason)
                )
            )
    if report.can_propose_count:
        lines.append(_("Both kings have entered: either player may propose the 24-point count."))
    return "\n".join(lines)
