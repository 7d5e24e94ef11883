"""Every sentence the bot shows, as constants and pure functions of the service's values.

One place decides how a game, a move or an outcome reads, so wording can be
tested without Discord and, later, moved into message catalogs whole. The
service's refusals are the one exception: they travel as the `message` of a
`ServiceError`, each written once, in the service.
Names typed by users are escaped here: a player called `**@everyone**` is shown
as written, never formatted and never pinging.
"""

from __future__ import annotations

import re
from datetime import datetime

import discord

from bot.services import (
    Challenge,
    ChooseGame,
    GameSnapshot,
    GameSummary,
    ImpasseReport,
    ImpasseRule,
    MoveText,
    PlayedMove,
    PlayerRef,
)
from rules import Color, Handicap, Outcome, Termination

MAX_MESSAGE = 2000


_DISCORD_TAG = re.compile(r"<(?=[#@:]|a:|t:|/)")


def safe(text: str) -> str:
    """User-provided text made inert: no markdown, no mentions, and no channel links,
    emoji or timestamps (`<#id>`, `<:name:id>`, `<t:...>`), which Discord would render."""
    escaped = discord.utils.escape_mentions(discord.utils.escape_markdown(text))
    return _DISCORD_TAG.sub("<\u200b", escaped)


def mention(player: PlayerRef) -> str:
    """A mention of the player; it notifies only where the message allows it."""
    return f"<@{player.user_id}>"


def timestamp(moment: datetime, style: str = "R") -> str:
    """A Discord timestamp, shown in each reader's own time zone and language."""
    return f"<t:{int(moment.timestamp())}:{style}>"


def thread_name(game: GameSnapshot) -> str:
    """The name of a game's thread (Discord allows 100 characters)."""
    name = f"☗{game.sente.name} vs ☖{game.gote.name}"
    return name[:100]


def deadline_text(deadline: datetime | None) -> str:
    """When the player to move must move, in the reader's own time zone."""
    if deadline is None:
        return "no time limit"
    return f"deadline {timestamp(deadline)} ({timestamp(deadline, 'f')})"


def challenge_text(challenge: Challenge) -> str:
    """The challenge message: who challenges whom, the settings, the expiry."""
    colour = {
        "sente": "plays ☗ sente",
        "gote": "plays ☖ gote",
        "random": "colours by lot",
    }.get(challenge.color, challenge.color)
    handicap = "" if challenge.handicap.id == "even" else f", handicap {challenge.handicap.english}"
    rule = RULE_NAMES[challenge.impasse_rule]
    lines = [
        f"{mention(challenge.opponent)}, {safe(challenge.challenger.name)} "
        "challenges you to shogi.",
        f"Settings: {challenge.time_control.describe()}, {safe(challenge.challenger.name)} "
        f"{colour}{handicap}, impasse by {rule}.",
        f"The challenge expires {timestamp(challenge.expires_at)}.",
    ]
    return "\n".join(lines)


def challenge_closed(challenge: Challenge) -> str:
    """A challenge message once answered: the challenge, then how it was closed."""
    return challenge_text(challenge) + "\n" + challenge_closed_text(challenge)


def challenge_closed_text(challenge: Challenge) -> str:
    """How a challenge was closed: accepted, declined, withdrawn or expired."""
    verbs = {
        "declined": f"{safe(challenge.opponent.name)} declined the challenge.",
        "cancelled": f"{safe(challenge.challenger.name)} withdrew the challenge.",
        "expired": "The challenge expired after 7 days.",
        "accepted": "Challenge accepted: good game!",
    }
    return verbs.get(challenge.status, f"The challenge is {challenge.status}.")


def game_start_text(game: GameSnapshot) -> str:
    """The first post in a game's thread: the players, the time, who moves first."""
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


def _named(game: GameSnapshot, color: Color) -> str:
    return f"{color.symbol}{safe(game.player(color).name)}"


_HOW = {
    Termination.CHECKMATE: "by checkmate",
    Termination.STALEMATE: "because a player had no legal move",
    Termination.SENNICHITE: "in sennichite (repetition)",
    Termination.PERPETUAL_CHECK: "by perpetual check",
    Termination.RESIGNATION: "by resignation",
    Termination.TIME: "on time",
    Termination.ABORT: "by abort",
    Termination.IMPASSE_24: "by the impasse count",
    Termination.IMPASSE_27: "by an impasse declaration",
    Termination.IMPASSE_JSA24: "by an impasse declaration",
}


def already_ended(outcome: Outcome | None) -> str:
    """The refusal for an action in a game that is over, saying how it ended."""
    how = "" if outcome is None else " " + _HOW[outcome.termination]
    return f"This game has already ended{how}."


def outcome_text(outcome: Outcome, game: GameSnapshot) -> str:
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


def move_text(result: PlayedMove) -> str:
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


def board_caption(game: GameSnapshot) -> str:
    """Text above a `/board` image: players, move number, last move, whose turn."""
    lines = [f"☗{safe(game.sente.name)} vs ☖{safe(game.gote.name)} · move {game.ply}"]
    if game.last_move_text is not None:
        lines.append(f"Last move: {game.last_move_text.japanese} ({game.last_move_text.western})")
    if game.outcome is not None:
        lines.append(outcome_text(game.outcome, game))
    elif game.to_move is not None:
        lines.append(f"{safe(game.to_move.name)} to move; {deadline_text(game.deadline)}.")
    return "\n".join(lines)


def games_list_text(owner: PlayerRef, games: list[GameSummary], *, own: bool) -> str:
    """`/games`: a member's active games, theirs to move first; `own` when the reader is
    that member (then it is "your turn", else theirs "to move")."""
    if not games:
        return f"{safe(owner.name)} has no active games. Start one with `/challenge`."
    lines = [f"Active games of {safe(owner.name)}:"]
    for summary in games:
        to_move = "**your turn**" if own else "**to move**"
        turn = to_move if summary.your_turn else "waiting"
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
    """What `/jishogi` shows: both players' counts and what the rule allows now."""
    game = report.game
    rule = RULE_NAMES[report.rule]
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


def reminder_text(game: GameSnapshot) -> str:
    """The reminder to the player to move, before their deadline."""
    player = game.to_move
    who = mention(player) if player else "Next player"
    return f"{who}, a reminder: your move in this game is due {deadline_text(game.deadline)}."


def truncate(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to Discord's message limit, with an ellipsis if cut."""
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


# ---------------------------------------------------------------- short answers

APOLOGY = "Sorry, something went wrong on our side. The game is unchanged; please try again."
NOT_POSTED = (
    "Done, but I could not post it in the game's thread; "
    "check that I may send messages there. /board shows the game."
)
BAD_OPTION = "I could not use one of the options; pick it from the list Discord offers."
SERVER_ONLY = "This command works only inside a server."
BAD_GAME_OPTION = "Pick a game from the list, or give its number, e.g. 12."
RESIGNED = "You resigned."
ABORTED = "The game is aborted."
PROPOSAL_SENT = "Proposal sent."
IMPASSE_SETTLED = "The impasse is settled."
TIME_GIVEN = "Done: your opponent has a full period again."


def played_note(move: MoveText, *, posted_in: int | None = None) -> str:
    """The private note to the mover: what was understood, and where the board went
    when that is not where they typed (`posted_in`, a thread id; 0: the game's channel)."""
    played = f"Played {move.japanese} ({move.western})"
    if posted_in is None:
        return played + "."
    where = f"<#{posted_in}>" if posted_in else "the game's channel"
    return f"{played} in {where}."


def resign_question(opponent: PlayerRef) -> str:
    """The private confirmation `/resign` asks for."""
    return f"Resign the game against {safe(opponent.name)}?"


def count_proposed(opponent: PlayerRef) -> str:
    """Posted in the thread: the opponent is asked to accept the 24-point count."""
    return (
        f"{mention(opponent)}, your opponent proposes to settle the impasse by the "
        "24-point count. Accept with the button or keep playing."
    )


def time_given(game: GameSnapshot) -> str:
    """Posted in the thread when a player gave the one to move a fresh period."""
    who = mention(game.to_move) if game.to_move is not None else "Next player"
    return f"{who}, your opponent gave you more time; {deadline_text(game.deadline)}."


def export_caption(game_id: int, fmt: str, link: str) -> str:
    """Above an exported record: which game and format, and the analysis link if it fits."""
    text = f"Record of game {game_id} ({fmt.upper()})."
    if len(text) + len(link) < MAX_MESSAGE - 100:
        text += f"\nAnalyse on lishogi: <{link}>"
    return text


def game_choice(game: GameSummary) -> str:
    """One game among the suggestions of a `game` option."""
    turn = "your turn" if game.your_turn else "waiting"
    return f"#{game.id} vs {game.opponent.name} · move {game.ply} · {turn}"[:100]


def move_choice(move: MoveText) -> str:
    """One move among the suggestions of `/move`, in the three notations."""
    return f"{move.japanese}  ·  {move.western}  ·  {move.usi}"[:100]


def typed_time_choice(typed: str) -> str:
    """The suggestion that takes a time control as typed."""
    return f"{typed.strip()[:90]} (as typed)"


# ---------------------------------------------------------------- buttons

#: Keyed like the buttons' ids: their prefix, and the action where one prefix has several.
BUTTON_LABELS = {
    "ch:accept": "Accept",
    "ch:decline": "Decline",
    "ch:cancel": "Cancel",
    "rs": "Yes, resign",
    "pr:promote": "Promote",
    "pr:keep": "Don't promote",
    "js:propose": "Propose count",
    "js:accept": "Accept count",
    "js:declare": "Declare impasse",
    "gt": "Give more time",
}

# ---------------------------------------------------------------- commands and options

COMMANDS = {
    "challenge": "Challenge a member to a shogi game.",
    "move": "Play a move: P-7f, ７六歩, 7g7f, ...",
    "board": "Show a game's board.",
    "games": "List active games.",
    "resign": "Resign a game (asks to confirm).",
    "abort": "Abort a game before both players have moved.",
    "jishogi": "Impasse count, proposals and declaration.",
    "export": "Download a game record and an analysis link.",
    "help": "How to play: notations, commands, rules.",
}
OPTIONS = {
    "opponent": "The member you want to play",
    "color": "Your colour (default: random)",
    "time": "Time per move: a preset, or e.g. 3d, 12h, 7d+1d (bank + per move)",
    "handicap": "Handicap: the giver plays gote and moves first (default: even)",
    "impasse": "How an impasse (jishogi) is settled (default: 27-point declaration)",
    "move": "Your move in Western (P-7f), Japanese (７六歩) or USI (7g7f) notation",
    "game": "A game id (pick from the list); default: this thread's game or your game to move",
    "finished_game": "A game id, finished games too; default: this thread's game or your game",
    "perspective": "Whose side faces you (default: yours)",
    "member": "Whose games (default: yours)",
    "format": "Record format",
}
TIME_PRESET_NAMES = {
    "1d": "1 day per move",
    "2d": "2 days per move",
    "3d": "3 days per move",
    "5d": "5 days per move",
    "7d": "7 days per move",
    "14d": "14 days per move",
    "7d+1d": "7 days + 1 day per move",
    "unlimited": "Unlimited",
}
COLOR_NAMES = {
    "random": "Random",
    "sente": "Sente (☗, moves first in even games)",
    "gote": "Gote (☖)",
}
RULE_NAMES = {
    ImpasseRule.DECLARATION_27: "27-point declaration",
    ImpasseRule.COUNT_24: "24-point count",
}
RULE_CHOICE_NOTES = {
    ImpasseRule.DECLARATION_27: "modern standard",
    ImpasseRule.COUNT_24: "classic rules",
}


def rule_choice(rule: ImpasseRule) -> str:
    """An impasse rule as a choice of `/challenge`."""
    return f"{RULE_NAMES[rule]} ({RULE_CHOICE_NOTES[rule]})"


PERSPECTIVE_NAMES = {Color.SENTE: "Sente", Color.GOTE: "Gote"}
FORMAT_NAMES = {
    "kif": "KIF",
    "ki2": "KI2",
    "csa": "CSA",
    "sfen": "SFEN (current position)",
    "usi": "USI (position ... moves ...)",
}


def handicap_name(handicap: Handicap) -> str:
    """A handicap as a choice of `/challenge`."""
    return "Even" if handicap is Handicap.EVEN else f"{handicap.english} ({handicap.japanese})"
