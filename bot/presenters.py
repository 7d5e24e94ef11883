"""Every text the bot shows, as pure functions of the service's result objects.

Kept apart from the handlers so that wording can be tested without Discord and
so that one place decides how a game, a move or an outcome reads.
Names typed by users are escaped here: a player called `**@everyone**` is shown
as written, never formatted and never pinging.
"""

from __future__ import annotations

import re
from datetime import datetime

import discord

from rules import Color, Outcome, Termination

from .services import (
    ChallengeView,
    ChooseGame,
    GameSummary,
    GameView,
    ImpasseReport,
    MoveResult,
    PlayerRef,
)

MAX_MESSAGE = 2000


_DISCORD_TAG = re.compile(r"<(?=[#@:]|a:|t:|/)")


def safe(text: str) -> str:
    """User-provided text made inert: no markdown, no mentions, and no channel links,
    emoji or timestamps (`<#id>`, `<:name:id>`, `<t:...>`), which Discord would render."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return _DISCORD_TAG.sub("<\u200b", escaped)


def mention(player: PlayerRef) -> str:
    return f"<@{player.user_id}>"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def side(color: Color) -> str:
    return f"{color.symbol} {'Sente' if color is Color.SENTE else 'Gote'}"


def thread_name(game: GameView) -> str:
    name = f"☗{game.sente.name} vs ☖{game.gote.name}"
    return name[:100]


def deadline_text(deadline: datetime | None) -> str:
    if deadline is None:
        return "no time limit"
    return f"deadline {timestamp(deadline)} ({timestamp(deadline, 'f')})"


def challenge_text(challenge: ChallengeView) -> str:
    colour = {
        "sente": "plays ☗ sente",
        "gote": "plays ☖ gote",
        "random": "colours by lot",
    }.get(challenge.color, challenge.color)
    handicap = "" if challenge.handicap.id == "even" else f", handicap {challenge.handicap.english}"
    rule = "27-point declaration" if challenge.impasse_rule.value == "27" else "24-point count"
    lines = [
        f"{mention(challenge.opponent)}, {safe(challenge.challenger.name)} "
        "challenges you to shogi.",
        f"Settings: {challenge.time_control.describe()}, {safe(challenge.challenger.name)} "
        f"{colour}{handicap}, impasse by {rule}.",
        f"The challenge expires {timestamp(challenge.expires_at)}.",
    ]
    return "\n".join(lines)


def challenge_closed_text(challenge: ChallengeView) -> str:
    verbs = {
        "declined": f"{safe(challenge.opponent.name)} declined the challenge.",
        "cancelled": f"{safe(challenge.challenger.name)} withdrew the challenge.",
        "expired": "The challenge expired after 7 days.",
        "accepted": "Challenge accepted.",
    }
    return verbs.get(challenge.status, f"The challenge is {challenge.status}.")


def game_start_text(game: GameView) -> str:
    handicap = (
        ""
        if game.handicap.id == "even"
        else f" {game.handicap.english} handicap: gote moves first."
    )
    first = game.to_move
    lines = [
        f"☗ Sente: {safe(game.sente.name)}   ☖ Gote: {safe(game.gote.name)}.{handicap}",
        f"Time: {game.time_control.describe()}.",
    ]
    if first is not None:
        lines.append(f"{mention(first)}, you move first; {deadline_text(game.deadline)}.")
        lines.append("Play with `/move`, for example `/move P-7f`, `/move ７六歩` or `/move 7g7f`.")
    return "\n".join(lines)


def _named(game: GameView, color: Color) -> str:
    return f"{color.symbol}{safe(game.player(color).name)}"


def outcome_text(outcome: Outcome, game: GameView) -> str:
    """How the game ended, in one sentence."""
    won = outcome.winner
    name_w = _named(game, won) if won is not None else ""
    name_l = _named(game, won.opponent) if won is not None else ""
    texts = {
        Termination.CHECKMATE: f"Checkmate. {name_w} wins.",
        Termination.STALEMATE: f"{name_l} has no legal move and loses. {name_w} wins.",
        Termination.SENNICHITE: "Sennichite: the same position appeared four times. Draw.",
        Termination.PERPETUAL_CHECK: f"Perpetual check by {name_l}, who loses. {name_w} wins.",
        Termination.RESIGNATION: f"{name_l} resigned. {name_w} wins.",
        Termination.TIME: f"{name_l} ran out of time. {name_w} wins.",
        Termination.ABORT: "The game was aborted; it has no result.",
        Termination.IMPASSE_24: (
            f"Impasse count: {name_w} wins."
            if won is not None
            else "Impasse count: jishogi, a draw."
        ),
        Termination.IMPASSE_27: f"{name_w} declared an impasse win (27-point rule).",
        Termination.IMPASSE_JSA24: (
            f"Impasse declaration: {name_w} wins."
            if won is not None
            else "Impasse declaration: draw."
        ),
    }
    return texts[outcome.termination] + " Get the record with `/export`."


def move_text(result: MoveResult) -> str:
    """The public answer to a move: what was played, check, and who is next."""
    game = result.game
    mover = game.color_of(result.mover.user_id)
    color = Color.SENTE if mover is None else mover
    first = (
        f"{game.ply}. {color.symbol}{result.move.japanese} ({result.move.western}) "
        f"by {safe(result.mover.name)}"
    )
    if result.outcome is not None:
        return f"{first}.\n{outcome_text(result.outcome, game)}"
    check = " Check!" if result.check else ""
    lines = [first + "." + check]
    if result.next_player is not None:
        lines.append(f"{mention(result.next_player)} to move; {deadline_text(result.deadline)}.")
    return "\n".join(lines)


def board_caption(game: GameView) -> str:
    """Text above a `/board` image: players, move number, last move, whose turn."""
    lines = [f"☗{safe(game.sente.name)} vs ☖{safe(game.gote.name)} · move {game.ply}"]
    if game.last_move_text is not None:
        lines.append(f"Last move: {game.last_move_text.japanese} ({game.last_move_text.western})")
    if game.outcome is not None:
        lines.append(outcome_text(game.outcome, game))
    elif game.to_move is not None:
        lines.append(f"{safe(game.to_move.name)} to move; {deadline_text(game.deadline)}.")
    return "\n".join(lines)


def games_list_text(owner: PlayerRef, games: list[GameSummary]) -> str:
    if not games:
        return f"{safe(owner.name)} has no active games. Start one with `/challenge`."
    lines = [f"Active games of {safe(owner.name)}:"]
    for summary in games:
        turn = "**your turn**" if summary.your_turn else "waiting"
        where = f"<#{summary.thread_id}>" if summary.thread_id else f"game {summary.id}"
        deadline = f", {timestamp(summary.deadline)}" if summary.deadline else ""
        lines.append(
            f"• {where}: {summary.your_color.symbol} vs {safe(summary.opponent.name)}, "
            f"move {summary.ply}, {turn}{deadline}"
        )
    return truncate("\n".join(lines))


def choose_game_text(question: ChooseGame) -> str:
    """The answer when a command could mean several games: which ones, and how to say."""
    lines = [question.message]
    for summary in question.games[:20]:
        where = f"<#{summary.thread_id}>" if summary.thread_id else f"game {summary.id}"
        turn = "your turn" if summary.your_turn else "waiting"
        lines.append(
            f"• {where} (game {summary.id}): vs {safe(summary.opponent.name)}, "
            f"move {summary.ply}, {turn}"
        )
    lines.append("Use the command in the game's thread, or pick the game in its `game` option.")
    return truncate("\n".join(lines))


def impasse_text(report: ImpasseReport) -> str:
    game = report.game
    rule = "24-point count" if report.rule.value == "24" else "27-point declaration"
    lines = [f"Impasse count ({rule}):"]
    for color in Color:
        count = report.counts[color]
        player = game.player(color)
        entered = "entered" if count.king_in_camp else "not entered"
        lines.append(
            f"{color.symbol}{safe(player.name)}: king {entered}; "
            f"{count.pieces_in_camp}/10 pieces in camp; "
            f"{count.camp_points}/{report.required_27[color]} points in camp + hand; "
            f"{count.total_points}/24 points on board + hand."
        )
    if report.declaration is not None:
        verdict = report.declaration
        who = game.player(verdict.declarer).name
        if verdict.reason is None:
            lines.append(f"{safe(who)} can declare now and would win.")
        else:
            lines.append(f"{safe(who)} cannot declare yet: {verdict.reason}")
    if report.can_propose_count:
        lines.append("Both kings have entered: either player may propose the 24-point count.")
    return "\n".join(lines)


def reminder_text(game: GameView) -> str:
    player = game.to_move
    who = mention(player) if player else "Next player"
    return f"{who}, a reminder: your move in this game is due {deadline_text(game.deadline)}."


def truncate(text: str, limit: int = MAX_MESSAGE) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


HELP_TEXT = """\
**Correspondence shogi**
`/challenge @member` starts a game (colour, time per move, handicap, impasse rule). \
The challenged member accepts with a button; the game gets its own thread.
`/move` plays a move in any notation:
• Western: `P-7f`, `P-76`, `Bx2b+`, `S*5e`, `G6i-5h`, `N-3c=` (= declines promotion)
• Japanese: `７六歩`, `76歩`, `同　銀`, `５五角打`, `４八金右`, `２二角成`, `２三歩不成`
• USI or CSA: `7g7f`, `8h2b+`, `P*5e`, `+7776FU`
Start typing and pick from the suggestions. If a move is ambiguous the bot asks.
`/board` shows a game, `/games` lists your games, `/resign` resigns (with confirmation), \
`/jishogi` shows the impasse count, `/export` gives the record (KIF, KI2, CSA, SFEN, USI) \
and an analysis link.
**Rules in brief:** checkmate wins; a player with no legal move loses; a pawn drop may not \
give checkmate; no two unpromoted pawns of yours on one file; pieces that could never move \
again must promote. The same position four times is a draw (sennichite), unless one player \
gave check with every move: that player loses. A game can be aborted before both players \
have moved. Running out of time loses."""
