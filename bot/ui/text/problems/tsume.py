"""The daily mate problem (`/tsume`): its post, the private answers, the reveal, the
month's table, and what administrators and players choose about it."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.services import MoveText
from bot.services.problems.judging import Judged
from rules import Color, Handicap, Position, Sentence

from ..base import move_echo, plural_translator, translator
from ..sides import side_name

TSUME_MANAGERS_ONLY = Sentence(
    "Only members who may manage this server can change its daily problem or scan its games."
)

TSUME_HOUR_NEEDED = Sentence("Give the hour of the daily problem (0-23) with the channel.")


def hands_text(lang: str, position: Position) -> str:
    """Both hands in a few characters: `☗ 飛 銀  ☖ なし` or `☗ R S  ☖ none`."""
    _ = translator(lang)
    parts = []
    for color in (Color.SENTE, Color.GOTE):
        pieces = [
            (role.kanji if lang != "en" else role.sfen) + (str(count) if count > 1 else "")
            for role, count in position.hand(color).items()
            if count
        ]
        parts.append(f"{color.symbol} {' '.join(pieces) if pieces else _('none')}")
    return "  ".join(parts)


def problem_caption(lang: str, plies: int, side: Color) -> str:
    """Under the problem's board: `Mate in 3 — Sente to move` (`3手詰 先手番`)."""
    _ = translator(lang)
    return _("Mate in {plies}, {side} to move").format(
        plies=plies, side=side_name(lang, side, Handicap.EVEN)
    )


def problem_post(
    lang: str, number: int, plies: int, position: Position, game_id: int, link: str | None
) -> str:
    """The daily post: which problem, how long, who moves, the hands, where it comes from."""
    _ = translator(lang)
    side = side_name(lang, position.turn, Handicap.EVEN)
    lines = [
        _("**Problem of the day #{number}**: mate in {plies} ({side} to move).").format(
            number=number, plies=plies, side=side
        ),
        _("Pieces in hand: {hands}").format(hands=hands_text(lang, position)),
        _("From game #{id} of this server").format(id=game_id)
        + (f": {link}" if link is not None else _(".")),
        _("Answer with the button below or with `/tsume`: only you see your answer."),
    ]
    return "\n".join(lines)


def streak_text(lang: str, streak: int) -> str:
    """How many daily problems in a row the member solved."""
    _n = plural_translator(lang)
    return _n(
        "You have solved {count} daily problem in a row.",
        "You have solved {count} daily problems in a row.",
        streak,
    ).format(count=streak)


def answer_text(lang: str, judged: Judged, move: MoveText, color: Color, streak: int) -> str:
    """The private answer to a member's move."""
    _ = translator(lang)
    shown = move_echo(lang, color, move)
    if judged is Judged.RIGHT:
        line = _("{move} is right: it mates in time whatever the defence.").format(move=shown)
        return line + " " + streak_text(lang, streak)
    if judged is Judged.NOT_CHECK:
        return _("{move} is not a check: every move of a mate problem gives check.").format(
            move=shown
        )
    if judged is Judged.ESCAPES:
        return _("{move} is wrong: the king escapes, or the mate takes too long.").format(
            move=shown
        )
    return _(
        "{move} could not be judged in the time allowed: your answer is not counted, try it "
        "again or another move."
    ).format(move=shown)


def reveal_text(
    lang: str, number: int, line: Sequence[tuple[Color, MoveText]], solvers: Sequence[int]
) -> str:
    """The solution of a problem posted before, and who solved it (mentions, not pinged)."""
    _ = translator(lang)
    moves = " ".join(move_echo(lang, color, move) for color, move in line)
    head = _("Solution of problem #{number}: {moves}").format(number=number, moves=moves)
    if not solvers:
        return head + "\n" + _("Nobody solved it.")
    names = ", ".join(f"<@{user_id}>" for user_id in solvers[:50])
    more = len(solvers) - 50
    solved = _("Solved by {names}").format(names=names)
    if more > 0:
        solved += " " + _("and {count} more").format(count=more)
    return head + "\n" + solved


def table_text(lang: str, since: datetime, rows: Sequence[tuple[int, int]]) -> str:
    """This month's solvers, most first."""
    _ = translator(lang)
    head = _("Daily problems solved since {date}:").format(date=f"{since:%Y-%m-%d}")
    if not rows:
        return head + "\n" + _("Nobody yet.")
    return (
        head
        + "\n"
        + "\n".join(
            f"{place}. <@{user_id}> {count}" for place, (user_id, count) in enumerate(rows, 1)
        )
    )


def schedule_text(lang: str, channel_id: int, hour: int, first: datetime) -> str:
    _ = translator(lang)
    return _(
        "The daily problem will be posted in <#{channel}> at {hour}:00 every day, from "
        "<t:{first}:f>."
    ).format(channel=channel_id, hour=hour, first=int(first.timestamp()))


def unscheduled_text(lang: str, stopped: bool) -> str:
    _ = translator(lang)
    if stopped:
        return _("The daily problem is no longer posted in this server.")
    return _("This server has no daily problem: choose a channel and an hour first.")


def scan_progress_text(lang: str, finished: int, scanned: int, queued: int, problems: int) -> str:
    """One sentence of progress of the scan of the server's finished games."""
    _ = translator(lang)
    return _(
        "{scanned} of this server's {finished} finished games are searched for mate problems "
        "({queued} waiting); {problems} problems found so far."
    ).format(scanned=scanned, finished=finished, queued=queued, problems=problems)


def sharing_text(lang: str, shared: bool) -> str:
    _ = translator(lang)
    if shared:
        return _("• Your finished games may become mate problems (`/tsume`): on")
    return _("• Your finished games may become mate problems (`/tsume`): off")


def modal_title(lang: str, number: int) -> str:
    """The title of the box an answer is typed in."""
    _ = translator(lang)
    return _("Problem #{number}").format(number=number)


def modal_label(lang: str) -> str:
    """The label of its one field."""
    _ = translator(lang)
    return _("Your first move (R*5b, ５二飛, 7g7f...)")
