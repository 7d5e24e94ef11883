"""Every sentence the bot shows, as pure functions of a language and the service's values.

Each function takes the reader's language first (`"en"` or `"ja"`, see `i18n`) and
looks its sentences up in the message catalogs: the English text written here is
the message id, `_(...)` marks it for the catalogs and translates it. Values are
formatted after translation, so a translation may put them in any order. The
service's refusals and the rules' explanations arrive as `rules.Sentence`s, which
`say` translates the same way, formatting pieces, squares and sides in the
reader's language.
Names typed by users are escaped here: a player called `**@everyone**` is shown
as written, never formatted and never pinging.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from datetime import datetime, timedelta

import discord
from babel.units import format_unit

from bot.services import (
    Challenge,
    ChooseGame,
    Forecast,
    GameSnapshot,
    GameSummary,
    ImpasseReport,
    ImpasseRule,
    MoveText,
    Note,
    PlayedMove,
    PlayerRef,
    Preferences,
    Takeback,
    TakebackPolicy,
    TimeControl,
    Vacation,
    VacationStatus,
)
from rules import Color, Handicap, Outcome, Role, Sentence, Square, Termination
from rules.notation.common import japanese_square

from .i18n import N_, SOURCE_LANGUAGE, gettext

MAX_MESSAGE = 2000

_DISCORD_TAG = re.compile(r"<(?=[#@:]|a:|t:|/)")


def translator(lang: str) -> Callable[[str], str]:
    """The `_` of a text function: English text in, the reader's language out."""
    return functools.partial(gettext, lang)


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


# ---------------------------------------------------------------- values in a language


def square_text(lang: str, square: Square) -> str:
    """`5e` in English, `５五` in Japanese (file in full-width digits, rank in kanji)."""
    return str(square) if lang == SOURCE_LANGUAGE else japanese_square(square)


def side_name(lang: str, color: Color) -> str:
    """`sente` / `gote` in English, 先手 / 後手 in Japanese."""
    _ = translator(lang)
    return _("sente") if color is Color.SENTE else _("gote")


def value_text(lang: str, value: object) -> str:
    """A value of a `Sentence` as the reader's language writes it; text is escaped."""
    if isinstance(value, Sentence):
        return say(lang, value)
    if isinstance(value, Role):
        return value.english if lang == SOURCE_LANGUAGE else value.kanji
    if isinstance(value, Color):
        return side_name(lang, value)
    if isinstance(value, Square):
        return square_text(lang, value)
    if isinstance(value, str):
        return safe(value)
    return str(value)


def say(lang: str, sentence: Sentence) -> str:
    """A refusal or explanation from the service or the rules, in the reader's language."""
    values = {key: value_text(lang, value) for key, value in sentence.params.items()}
    return gettext(lang, sentence.template).format_map(values)


_UNITS = ((86_400, "duration-day"), (3_600, "duration-hour"), (60, "duration-minute"))


@functools.lru_cache(maxsize=256)
def duration_text(lang: str, duration: timedelta) -> str:
    """`3 days`, `1 day 12 hours` in English; `3日`, `1日12時間` in Japanese (Babel's
    locale data names the units)."""
    seconds = int(duration.total_seconds())
    parts = []
    for size, unit in _UNITS:
        amount, seconds = divmod(seconds, size)
        if amount:
            # Babel's Japanese data has only the short unit names (日, 時間, 分).
            if lang == SOURCE_LANGUAGE:
                parts.append(format_unit(amount, unit, length="long", locale=lang))
            else:
                parts.append(format_unit(amount, unit, length="short", locale=lang))
    if not parts:
        parts.append(format_unit(0, "duration-minute", length="short", locale=lang))
    if lang == SOURCE_LANGUAGE:
        return " ".join(parts)
    return "".join(part.replace(" ", "").replace("\u00a0", "") for part in parts)


def time_control_text(lang: str, control: TimeControl) -> str:
    """A time control as the settings of a game say it."""
    _ = translator(lang)
    if control.period is None:
        return _("no time limit")
    period = duration_text(lang, control.period)
    if control.bank:
        return _("{bank} + {period} per move").format(
            bank=duration_text(lang, control.bank), period=period
        )
    return _("{period} per move").format(period=period)


def deadline_text(lang: str, deadline: datetime | None) -> str:
    """When the player to move must move, in the reader's own time zone."""
    _ = translator(lang)
    if deadline is None:
        return _("no time limit")
    return _("deadline {relative} ({date})").format(
        relative=timestamp(deadline), date=timestamp(deadline, "f")
    )


def handicap_text(lang: str, handicap: Handicap) -> str:
    """A handicap's name: its English name, or as a KIF header writes it (香落ち)."""
    return handicap.english if lang == SOURCE_LANGUAGE else handicap.japanese


def _named(game: GameSnapshot, color: Color) -> str:
    return f"{color.symbol}{safe(game.player(color).name)}"


def _move_echo(lang: str, color: Color, move: MoveText) -> str:
    """A move as a post shows it: Japanese first (☗５八金右), then, in English, the
    Western notation too."""
    japanese = f"{color.symbol}{move.japanese}"
    return japanese if lang != SOURCE_LANGUAGE else f"{japanese} ({move.western})"


# ---------------------------------------------------------------- challenges and games


def thread_name(lang: str, game: GameSnapshot) -> str:
    """The name of a game's thread (Discord allows 100 characters)."""
    return players_text(lang, game)[:100]


def challenge_text(lang: str, challenge: Challenge) -> str:
    """The challenge message: who challenges whom, the settings, the expiry."""
    _ = translator(lang)
    colour = {
        "sente": _("{name} plays ☗ sente"),
        "gote": _("{name} plays ☖ gote"),
    }.get(challenge.color, _("colours by lot"))
    settings = [
        time_control_text(lang, challenge.time_control),
        colour.format(name=safe(challenge.challenger.name)),
    ]
    if challenge.handicap is not Handicap.EVEN:
        handicap = handicap_text(lang, challenge.handicap)
        settings.append(_("{handicap} handicap").format(handicap=handicap))
    settings.append(rule_name(lang, challenge.impasse_rule))
    if challenge.takebacks is TakebackPolicy.NEVER:
        settings.append(_("no takebacks"))
    lines = [
        _("{opponent}, {challenger} challenges you to shogi.").format(
            opponent=mention(challenge.opponent), challenger=safe(challenge.challenger.name)
        ),
        _("Settings: {settings}.").format(settings=_(", ").join(settings)),
        _("The challenge expires {relative}.").format(relative=timestamp(challenge.expires_at)),
    ]
    return "\n".join(lines)


def challenge_closed(lang: str, challenge: Challenge) -> str:
    """A challenge message once answered: the challenge, then how it was closed."""
    return challenge_text(lang, challenge) + "\n" + challenge_closed_text(lang, challenge)


def challenge_closed_text(lang: str, challenge: Challenge) -> str:
    """How a challenge was closed: accepted, declined, withdrawn or expired."""
    _ = translator(lang)
    if challenge.status == "declined":
        return _("{name} declined the challenge.").format(name=safe(challenge.opponent.name))
    if challenge.status == "cancelled":
        return _("{name} withdrew the challenge.").format(name=safe(challenge.challenger.name))
    if challenge.status == "expired":
        return _("The challenge expired unanswered.")
    return _("Challenge accepted: good game!")


def game_start_text(lang: str, game: GameSnapshot) -> str:
    """The first post in a game's thread: the players, the time, who moves first."""
    _ = translator(lang)
    lines = [
        _("☗ Sente: {sente}   ☖ Gote: {gote}").format(
            sente=safe(game.sente.name), gote=safe(game.gote.name)
        )
    ]
    if game.handicap is not Handicap.EVEN:
        lines.append(
            _("{handicap} handicap: gote moves first.").format(
                handicap=handicap_text(lang, game.handicap)
            )
        )
    lines.append(_("Time: {time}.").format(time=time_control_text(lang, game.time_control)))
    if game.takebacks is TakebackPolicy.NEVER:
        lines.append(_("No takebacks in this game."))
    if game.to_move is not None:
        lines.append(
            _("{player}, you move first; {deadline}.").format(
                player=mention(game.to_move), deadline=deadline_text(lang, game.deadline)
            )
        )
        lines.append(
            _("Play with `/move`, for example `/move P-7f`, `/move ７六歩` or `/move 7g7f`.")
        )
    return "\n".join(lines)


_HOW = {
    Termination.CHECKMATE: N_("by checkmate"),
    Termination.STALEMATE: N_("because a player had no legal move"),
    Termination.SENNICHITE: N_("in sennichite (repetition)"),
    Termination.PERPETUAL_CHECK: N_("by perpetual check"),
    Termination.RESIGNATION: N_("by resignation"),
    Termination.TIME: N_("on time"),
    Termination.ABORT: N_("by abort"),
    Termination.IMPASSE_24: N_("by the impasse count"),
    Termination.IMPASSE_27: N_("by an impasse declaration"),
    Termination.IMPASSE_JSA24: N_("by an impasse declaration"),
}


def already_ended(lang: str, outcome: Outcome | None) -> str:
    """The refusal for an action in a game that is over, saying how it ended."""
    _ = translator(lang)
    if outcome is None:
        return _("This game has already ended.")
    how = gettext(lang, _HOW[outcome.termination])
    return _("This game has already ended {how}.").format(how=how)


#: The result of a game, by how it ended and whether someone won; in Japanese as a KIF
#: ends (まで83手で先手の勝ち).
_RESULTS = {
    (Termination.CHECKMATE, True): N_("Checkmate after move {ply}: {winner} wins."),
    (Termination.STALEMATE, True): N_(
        "{loser} has no legal move after move {ply} and loses: {winner} wins."
    ),
    (Termination.SENNICHITE, False): N_(
        "Sennichite after move {ply}: the same position appeared four times. Draw."
    ),
    (Termination.PERPETUAL_CHECK, True): N_(
        "Perpetual check by {loser}, who loses after move {ply}: {winner} wins."
    ),
    (Termination.RESIGNATION, True): N_("{loser} resigned after move {ply}: {winner} wins."),
    (Termination.TIME, True): N_("{loser} ran out of time after move {ply}: {winner} wins."),
    (Termination.ABORT, False): N_("The game was aborted; it has no result."),
    (Termination.IMPASSE_24, True): N_("Impasse count after move {ply}: {winner} wins."),
    (Termination.IMPASSE_24, False): N_("Impasse count after move {ply}: jishogi, a draw."),
    (Termination.IMPASSE_27, True): N_(
        "{winner} declared an impasse win (27-point rule) after move {ply}."
    ),
    (Termination.IMPASSE_JSA24, True): N_("Impasse declaration after move {ply}: {winner} wins."),
    (Termination.IMPASSE_JSA24, False): N_(
        "Impasse declaration after move {ply}: jishogi, a draw."
    ),
}
#: An ending the rules never produce (a checkmate without a winner) still gets a sentence.
_ENDED = N_("The game ended after move {ply}.")


def result_text(lang: str, outcome: Outcome, game: GameSnapshot) -> str:
    """How the game ended, in one sentence."""
    won = outcome.winner
    template = _RESULTS.get((outcome.termination, won is not None), _ENDED)
    names: dict[str, object] = {"ply": game.ply}
    if won is not None:
        names |= {"winner": _named(game, won), "loser": _named(game, won.opponent)}
    return gettext(lang, template).format_map(names)


def outcome_text(lang: str, outcome: Outcome, game: GameSnapshot) -> str:
    """The ending as posted: the result, and where to get the record."""
    _ = translator(lang)
    return result_text(lang, outcome, game) + " " + _("Get the record with `/export`.")


def idle_abort_text(lang: str, game: GameSnapshot) -> str:
    """The ending of a game whose player to move never made a first move in time."""
    _ = translator(lang)
    late = game.player(game.turn)
    return _(
        "{player} did not make a first move in time, so the game is aborted without a result."
    ).format(player=mention(late))


def move_text(lang: str, result: PlayedMove) -> str:
    """The public answer to a move: what was played, check, and who is next."""
    _ = translator(lang)
    game = result.game
    color = game.color_of(result.mover.user_id) or Color.SENTE
    first = _("{ply}. {move} by {player}.").format(
        ply=game.ply, move=_move_echo(lang, color, result.move), player=safe(result.mover.name)
    )
    if result.outcome is not None:
        return f"{first}\n{outcome_text(lang, result.outcome, game)}"
    lines = [first + (" " + _("Check!") if result.check else "")]
    if result.next_player is not None:
        lines.append(to_move_text(lang, result.next_player, result.deadline, ping=True))
    lines += away_lines(lang, game)
    return "\n".join(lines)


def away_lines(lang: str, game: GameSnapshot) -> list[str]:
    """A line for each player of an active game who is on vacation, and until when."""
    _ = translator(lang)
    if not game.is_active:
        return []
    lines = []
    for color in Color:
        until = game.away_until(color)
        if until is not None:
            lines.append(
                _(
                    "{name} is on vacation until {date} at the latest; their clock is paused."
                ).format(name=safe(game.player(color).name), date=timestamp(until, "f"))
            )
    return lines


def to_move_text(lang: str, player: PlayerRef, deadline: datetime | None, *, ping: bool) -> str:
    """Whose move it is and until when; `ping` names them with a mention."""
    _ = translator(lang)
    who = mention(player) if ping else safe(player.name)
    return _("{player} to move; {deadline}.").format(
        player=who, deadline=deadline_text(lang, deadline)
    )


def board_caption(lang: str, game: GameSnapshot) -> str:
    """Text above a `/board` image: players, move number, last move, whose turn."""
    _ = translator(lang)
    lines = [
        _("☗{sente} vs ☖{gote} · move {ply}").format(
            sente=safe(game.sente.name), gote=safe(game.gote.name), ply=game.ply
        )
    ]
    written = game.last_move_text
    if written is not None:
        mover = game.turn.opponent
        lines.append(_("Last move: {move}").format(move=_move_echo(lang, mover, written)))
    if game.outcome is not None:
        lines.append(outcome_text(lang, game.outcome, game))
    elif game.to_move is not None:
        lines.append(to_move_text(lang, game.to_move, game.deadline, ping=False))
    lines += away_lines(lang, game)
    return "\n".join(lines)


def image_caption(lang: str, game: GameSnapshot) -> str:
    """The line drawn on the board image: the move count, whose turn, or the result."""
    _ = translator(lang)
    outcome = game.outcome
    if outcome is None:
        return _("Move {ply} · {side} to move").format(
            ply=game.ply, side=side_name(lang, game.turn)
        )
    if outcome.termination is Termination.ABORT:
        return _("Move {ply} · aborted").format(ply=game.ply)
    if outcome.winner is None:
        return _("Move {ply} · draw").format(ply=game.ply)
    return _("Move {ply} · {side} wins").format(ply=game.ply, side=side_name(lang, outcome.winner))


def board_alt_text(lang: str, game: GameSnapshot) -> str:
    """The alt text of a board image, for screen readers."""
    _ = translator(lang)
    values = {"players": players_text(lang, game), "caption": image_caption(lang, game)}
    written = game.last_move_text
    if written is None:
        return _("Shogi board. {players}. {caption}.").format_map(values)
    values["move"] = _move_echo(lang, game.turn.opponent, written)
    return _("Shogi board. {players}. {caption}. Last move: {move}.").format_map(values)


def players_text(lang: str, game: GameSnapshot) -> str:
    """Who plays whom, as written (not escaped: for alt text and thread names)."""
    _ = translator(lang)
    return _("☗{sente} vs ☖{gote}").format(sente=game.sente.name, gote=game.gote.name)


def games_list_text(lang: str, owner: PlayerRef, games: list[GameSummary], *, own: bool) -> str:
    """`/games`: a member's active games, theirs to move first; `own` when the reader is
    that member (then it is "your turn", else theirs "to move")."""
    _ = translator(lang)
    if not games:
        return _("{name} has no active games. Start one with `/challenge`.").format(
            name=safe(owner.name)
        )
    lines = [_("Active games of {name}:").format(name=safe(owner.name))]
    for summary in games:
        to_move = _("**your turn**") if own else _("**to move**")
        turn = to_move if summary.your_turn else _("waiting")
        deadline = f", {timestamp(summary.deadline)}" if summary.deadline else ""
        lines.append(
            _("• {where}: {color} vs {opponent}, move {ply}, {turn}").format(
                where=_where(lang, summary),
                color=summary.your_color.symbol,
                opponent=safe(summary.opponent.name),
                ply=summary.ply,
                turn=turn,
            )
            + deadline
        )
    return truncate("\n".join(lines))


def _where(lang: str, summary: GameSummary) -> str:
    _ = translator(lang)
    if summary.thread_id:
        return f"<#{summary.thread_id}>"
    return _("game {id}").format(id=summary.id)


def choose_game_text(lang: str, question: ChooseGame) -> str:
    """The answer when a command could mean several games: which ones, and how to say."""
    _ = translator(lang)
    lines = [say(lang, question.sentence)]
    for summary in question.games[:20]:
        turn = _("your turn") if summary.your_turn else _("waiting")
        lines.append(
            _("• {where} (game {id}): vs {opponent}, move {ply}, {turn}").format(
                where=_where(lang, summary),
                id=summary.id,
                opponent=safe(summary.opponent.name),
                ply=summary.ply,
                turn=turn,
            )
        )
    lines.append(_("Use the command in the game's thread, or pick the game in its `game` option."))
    return truncate("\n".join(lines))


def impasse_text(lang: str, report: ImpasseReport) -> str:
    """What `/jishogi` shows: both players' counts and what the rule allows now."""
    _ = translator(lang)
    game = report.game
    lines = [_("Impasse count ({rule}):").format(rule=rule_name(lang, report.rule))]
    for color in Color:
        count = report.counts[color]
        values = {
            "player": _named(game, color),
            "pieces": count.pieces_in_camp,
            "points": count.camp_points,
            "required": report.required_27[color],
            "total": count.total_points,
        }
        line = (
            _(
                "{player}: king entered; {pieces}/10 pieces in camp; {points}/{required} "
                "points in camp + hand; {total}/24 points on board + hand."
            )
            if count.king_in_camp
            else _(
                "{player}: king not entered; {pieces}/10 pieces in camp; {points}/{required} "
                "points in camp + hand; {total}/24 points on board + hand."
            )
        )
        lines.append(line.format_map(values))
    if report.declaration is not None:
        verdict = report.declaration
        who = safe(game.player(verdict.declarer).name)
        if verdict.reason is None:
            lines.append(_("{name} can declare now and would win.").format(name=who))
        else:
            lines.append(
                _("{name} cannot declare yet: {reason}").format(
                    name=who, reason=say(lang, verdict.reason)
                )
            )
    if report.can_propose_count:
        lines.append(_("Both kings have entered: either player may propose the 24-point count."))
    return "\n".join(lines)


def reminder_text(lang: str, game: GameSnapshot) -> str:
    """The reminder to the player to move, before their deadline; the button under it is
    for the opponent, who may give them more time."""
    _ = translator(lang)
    if game.to_move is None or game.deadline is None:
        return ""
    late = game.to_move
    return _(
        "{player}, your move is due {relative} ({date}). {opponent} can give you more "
        "time with the button."
    ).format(
        player=mention(late),
        relative=timestamp(game.deadline),
        date=timestamp(game.deadline, "f"),
        opponent=safe(game.opponent_of(late.user_id).name),
    )


def truncate(text: str, limit: int = MAX_MESSAGE) -> str:
    """`text` cut to Discord's message limit, with an ellipsis if cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


HELP = N_("""\
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
and an analysis link. `/language` sets the language of the bot's posts in this server.
`/preferences`: confirm each move on its board first, and a direct message on your turn. \
`/takeback` asks your opponent to take back your last move. \
`/note` keeps a private note on any game, `/notes` lists them; your private `/export` \
carries them. `/vacation` pauses your clocks while you are away (14 days a year). \
`/forecast` stores replies to the moves you expect, played for you when they come.
**Rules in brief:** checkmate wins; a player with no legal move loses; a pawn drop may not \
give checkmate; no two unpromoted pawns of yours on one file; pieces that could never move \
again must promote. The same position four times is a draw (sennichite), unless one player \
gave check with every move: that player loses. A game can be aborted before both players \
have moved. Running out of time loses; a game whose player never made a first move is \
aborted instead.""")


def help_text(lang: str) -> str:
    """`/help`: written for each language's players, not translated word by word."""
    return gettext(lang, HELP)


# ---------------------------------------------------------------- short answers

APOLOGY = Sentence(
    "Sorry, something went wrong on our side. The game is unchanged; please try again."
)
NOT_POSTED = Sentence(
    "Done, but I could not post it in the game's thread; "
    "check that I may send messages there. /board shows the game."
)
BAD_OPTION = Sentence("I could not use one of the options; pick it from the list Discord offers.")
SERVER_ONLY = Sentence("This command works only inside a server.")
BAD_GAME_OPTION = Sentence("Pick a game from the list, or give its number, e.g. 12.")
RESIGNED = Sentence("You resigned.")
ABORTED = Sentence("The game is aborted.")
PROPOSAL_SENT = Sentence("Proposal sent.")
IMPASSE_SETTLED = Sentence("The impasse is settled.")
TIME_GIVEN = Sentence("Done: your opponent has a full period again.")
MANAGE_SERVER_ONLY = Sentence("Only members who may manage this server can change its language.")
MOVE_CANCELLED = Sentence("Cancelled: the move was not played.")


def language_set(lang: str, chosen: str | None) -> str:
    """The answer to `/language`, in the language just chosen."""
    _ = translator(lang)
    if chosen is None:
        return _("The bot's posts here now follow this server's language in Discord.")
    return _("The bot's posts in this server are now in {language}.").format(
        language=LANGUAGE_NAMES[chosen]
    )


def _private_echo(lang: str, move: MoveText) -> str:
    """A move in a private answer: Japanese, and in English the Western notation too."""
    return move.japanese if lang != SOURCE_LANGUAGE else f"{move.japanese} ({move.western})"


def played_note(lang: str, move: MoveText, *, posted_in: int | None = None) -> str:
    """The private note to the mover: what was understood, and where the board went
    when that is not where they typed (`posted_in`, a thread id; 0: the game's channel)."""
    _ = translator(lang)
    echo = _private_echo(lang, move)
    if posted_in is None:
        return _("Played {move}.").format(move=echo)
    if posted_in:
        return _("Played {move} in {thread}.").format(move=echo, thread=f"<#{posted_in}>")
    return _("Played {move} in the game's channel.").format(move=echo)


def which_move(lang: str, typed: str) -> str:
    """The private question when what a player typed fits several pieces' moves."""
    _ = translator(lang)
    return _("Several of your pieces can play '{typed}': which one do you mean?").format(
        typed=safe(typed.strip()[:40])
    )


def confirm_question(lang: str, move: MoveText) -> str:
    """The private question of a player who confirms their moves, above the board as it
    would be after the move."""
    _ = translator(lang)
    return _(
        "Play {move}? The board shows the position after it. Nothing is played until you confirm."
    ).format(move=_private_echo(lang, move))


def preferences_text(lang: str, preferences: Preferences, *, changed: bool) -> str:
    """`/preferences`: the player's settings, just saved (`changed`) or as they are."""
    _ = translator(lang)
    on, off = _("on"), _("off")
    lines = [_("Your preferences are saved:") if changed else _("Your preferences:")]
    lines.append(
        _("• Confirm each move on its board before it is played: {state}").format(
            state=on if preferences.confirm_moves else off
        )
    )
    lines.append(
        _("• A direct message when it becomes your turn: {state}").format(
            state=on if preferences.turn_messages else off
        )
    )
    if preferences.turn_messages:
        lines.append(
            _(
                "The messages are written in the language your Discord is in now. If none "
                "arrives, allow direct messages from this server's members in its privacy "
                "settings; the game's thread still mentions you."
            )
        )
    if not changed:
        lines.append(_("Change them with the options of `/preferences`."))
    return "\n".join(lines)


def turn_message(lang: str, game: GameSnapshot, link: str) -> str:
    """The direct message to a player whose turn has come: which game, the last move,
    until when, and the link to the game's thread."""
    _ = translator(lang)
    players = _("☗{sente} vs ☖{gote}").format(
        sente=safe(game.sente.name), gote=safe(game.gote.name)
    )
    lines = [
        _("Your move in game {id} ({players}); {deadline}.").format(
            id=game.id, players=players, deadline=deadline_text(lang, game.deadline)
        )
    ]
    written = game.last_move_text
    if written is not None:
        mover = game.turn.opponent
        lines.append(_("Last move: {move}").format(move=_move_echo(lang, mover, written)))
    lines.append(_("The game: {link}").format(link=link))
    return truncate("\n".join(lines))


def resign_question(lang: str, opponent: PlayerRef) -> str:
    """The private confirmation `/resign` asks for."""
    _ = translator(lang)
    return _("Resign the game against {name}?").format(name=safe(opponent.name))


def count_proposed(lang: str, opponent: PlayerRef) -> str:
    """Posted in the thread: the opponent is asked to accept the 24-point count."""
    _ = translator(lang)
    return _(
        "{player}, your opponent proposes to settle the impasse by the 24-point count. "
        "Accept with the button or keep playing."
    ).format(player=mention(opponent))


def time_given(lang: str, game: GameSnapshot) -> str:
    """Posted in the thread when a player gave the one to move a fresh period."""
    _ = translator(lang)
    if game.to_move is None:
        return ""
    return _("{player}, your opponent gave you more time; {deadline}.").format(
        player=mention(game.to_move), deadline=deadline_text(lang, game.deadline)
    )


def takeback_moves(lang: str, takeback: Takeback) -> str:
    """The moves a takeback request takes back, as posts show moves (☗７六歩, ☖３四歩):
    the asker's first, then the opponent's reply."""
    _ = translator(lang)
    colors = (takeback.asker_color, takeback.asker_color.opponent)
    echoes = [_move_echo(lang, c, m) for c, m in zip(colors, takeback.moves, strict=False)]
    return _(", ").join(echoes)


def takeback_question(lang: str, takeback: Takeback) -> str:
    """Posted in the thread: the opponent is asked to accept or decline a takeback."""
    _ = translator(lang)
    values = {
        "player": mention(takeback.answerer),
        "asker": safe(takeback.asker.name),
        "move": _move_echo(lang, takeback.asker_color, takeback.moves[0]),
    }
    if len(takeback.moves) == 1:
        question = _("{player}, {asker} asks to take back their move {move}.")
    else:
        values["reply"] = _move_echo(lang, takeback.asker_color.opponent, takeback.moves[1])
        question = _(
            "{player}, {asker} asks to take back their move {move} and your reply {reply}."
        )
    how = _("Accept or decline with the buttons; a move by either player cancels the request.")
    return question.format_map(values) + " " + how


def takeback_sent(lang: str, takeback: Takeback) -> str:
    """The private answer to `/takeback`: the request went to the opponent."""
    _ = translator(lang)
    return _("Takeback asked: {name} can accept or decline it in the game's thread.").format(
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
        lines.append(to_move_text(lang, game.to_move, game.deadline, ping=True))
    return "\n".join(lines)


def takeback_declined(lang: str, takeback: Takeback) -> str:
    """Posted in the thread when the opponent declines, so that the asker hears of it."""
    _ = translator(lang)
    return _("{player}, {name} declined your takeback; the game goes on.").format(
        player=mention(takeback.asker), name=safe(takeback.answerer.name)
    )


def forecast_played_text(lang: str, reply: PlayedMove) -> str:
    """Posted in the thread with the board after a forecast reply (予約手): the move,
    said to be the forecaster's conditional move, and who is to move now."""
    _ = translator(lang)
    game = reply.game
    color = game.color_of(reply.mover.user_id) or Color.SENTE
    first = _("{ply}. {move} by {player}, played by forecast.").format(
        ply=game.ply, move=_move_echo(lang, color, reply.move), player=safe(reply.mover.name)
    )
    if reply.outcome is not None:
        return f"{first}\n{outcome_text(lang, reply.outcome, game)}"
    lines = [first + (" " + _("Check!") if reply.check else "")]
    if reply.next_player is not None:
        lines.append(to_move_text(lang, reply.next_player, reply.deadline, ping=True))
    return "\n".join(lines)


def forecast_line_text(lang: str, forecast: Forecast, moves: tuple[MoveText, ...]) -> str:
    """One forecast line as the player reads it: each of the opponent's moves with the
    reply, ☖３四歩 → ☗２六歩, pairs separated by commas."""
    _ = translator(lang)
    mine, theirs = forecast.color, forecast.color.opponent
    pairs = [
        f"{_move_echo(lang, theirs, moves[i])} → {_move_echo(lang, mine, moves[i + 1])}"
        for i in range(0, len(moves) - 1, 2)
    ]
    return _(", ").join(pairs)


def forecast_text(
    lang: str, forecast: Forecast, *, added: bool = False, cleared: int | None = None
) -> str:
    """The private answer to `/forecast`: what was done (a line stored, lines cleared),
    then the player's lines in the game as they now stand."""
    _ = translator(lang)
    game_id = forecast.game.id
    lines = []
    if cleared is not None:
        lines.append(
            _("Cleared your forecasts in game {id} ({count}).").format(id=game_id, count=cleared)
        )
    if added:
        lines.append(_("Forecast stored."))
        if forecast.replaced:
            lines.append(
                _("It replaces {count} older line(s) that answered differently.").format(
                    count=forecast.replaced
                )
            )
    if not forecast.lines:
        lines.append(
            _(
                "You have no forecasts in game {id}. While you wait, add a line with /forecast:"
                " your opponent's move, then your reply, e.g. 3c3d 2g2f."
            ).format(id=game_id)
        )
        return "\n".join(lines)
    lines.append(_("Your forecasts in game {id} (only you see them):").format(id=game_id))
    for number, line in enumerate(forecast.lines, start=1):
        lines.append(f"{number}. {forecast_line_text(lang, forecast, line.moves)}")
    return "\n".join(lines)


def export_caption(lang: str, game_id: int, fmt: str, link: str) -> str:
    """Above an exported record: which game and format, and the analysis link if it fits."""
    _ = translator(lang)
    text = _("Record of game {id} ({format}).").format(id=game_id, format=fmt.upper())
    if len(text) + len(link) < MAX_MESSAGE - 100:
        text += "\n" + _("Analyse on lishogi: {link}").format(link=f"<{link}>")
    return text


def note_saved(lang: str, note: Note) -> str:
    """The private answer to `/note`: where the note was stored and who can see it."""
    _ = translator(lang)
    return _(
        "Note {number} saved at move {ply}. Only you can see it: `/notes` lists your notes, "
        "and your private `/export` carries them as comments."
    ).format(number=note.id, ply=note.ply)


#: How much of each note `/notes` shows: fifty full notes would not fit in one message.
NOTE_PREVIEW = 200


def notes_text(lang: str, game_id: int, notes: list[Note], *, deleted: int | None) -> str:
    """`/notes`: the member's own notes on a game, each with its number and move, after
    saying how many were just deleted (`deleted`)."""
    _ = translator(lang)
    lines = []
    if deleted is not None:
        lines.append(_("Deleted {count} of your notes.").format(count=deleted))
    if not notes:
        lines.append(
            _("You have no notes on game {id}. Write one with `/note`.").format(id=game_id)
        )
        return "\n".join(lines)
    lines.append(_("Your notes on game {id} (only you can see them):").format(id=game_id))
    for note in notes:
        body = " ".join(note.text.split())
        if len(body) > NOTE_PREVIEW:
            body = body[: NOTE_PREVIEW - 1] + "…"
        lines.append(
            _("• {number} (move {ply}): {text}").format(
                number=note.id, ply=note.ply, text=safe(body)
            )
        )
    lines.append(
        _("Delete one with `/notes delete:<number>` or all of them with `/notes delete:all`.")
    )
    return truncate("\n".join(lines))


def vacation_started(lang: str, game: GameSnapshot, vacation: Vacation) -> str:
    """Posted in each active game of a player who went on vacation."""
    _ = translator(lang)
    name = safe(game.player(game.color_of(vacation.user_id) or game.turn).name)
    return _(
        "{name} is on vacation until {date} at the latest: their clock is paused in this "
        "game, and their deadline moves later by the time they are away."
    ).format(name=name, date=timestamp(vacation.ends_by, "f"))


def vacation_ended(lang: str, game: GameSnapshot, vacation: Vacation) -> str:
    """Posted in each active game of a player back from vacation: whose move, until when."""
    _ = translator(lang)
    name = safe(game.player(game.color_of(vacation.user_id) or game.turn).name)
    lines = [_("{name} is back from vacation; their clock runs again.").format(name=name)]
    if game.to_move is not None:
        lines.append(to_move_text(lang, game.to_move, game.deadline, ping=False))
    return "\n".join(lines)


def vacation_text(lang: str, status: VacationStatus, *, games: int | None = None) -> str:
    """`/vacation`: the player's vacation now, and the year's allowance; `games`, after a
    start or an end, how many active games were told."""
    _ = translator(lang)
    lines = []
    current = status.current
    if current is not None:
        lines.append(
            _("You are on vacation until {date} at the latest; your clocks are paused.").format(
                date=timestamp(current.ends_by, "f")
            )
        )
    elif games is not None:
        lines.append(_("Welcome back: your vacation is over and your clocks run again."))
    else:
        lines.append(_("You are not on vacation."))
    lines.append(
        _("Vacation in {year}: {used} used of {allowance}, {left} left.").format(
            year=status.year,
            used=duration_text(lang, status.used),
            allowance=duration_text(lang, status.allowance),
            left=duration_text(lang, status.left),
        )
    )
    # One sentence per case rather than plural machinery: "1 games" must never be read.
    if games == 1:
        lines.append(_("Your opponent was told in your game's thread."))
    elif games:
        lines.append(
            _("Your opponents were told in the threads of your {count} games.").format(count=games)
        )
    if current is None and games is None:
        lines.append(_("Start one with `/vacation start`; each hour begun counts."))
    return "\n".join(lines)


def game_choice(lang: str, game: GameSummary) -> str:
    """One game among the suggestions of a `game` option."""
    _ = translator(lang)
    turn = _("your turn") if game.your_turn else _("waiting")
    return _("#{id} vs {opponent} · move {ply} · {turn}").format(
        id=game.id, opponent=game.opponent.name, ply=game.ply, turn=turn
    )[:100]


def move_choice(move: MoveText) -> str:
    """One move among the suggestions of `/move`, in the three notations."""
    return f"{move.japanese}  ·  {move.western}  ·  {move.usi}"[:100]


def typed_time_choice(lang: str, typed: str) -> str:
    """The suggestion that takes a time control as typed."""
    _ = translator(lang)
    return _("{typed} (as typed)").format(typed=typed.strip()[:90])


# ---------------------------------------------------------------- buttons

#: Keyed like the buttons' ids: their prefix, and the action where one prefix has several.
BUTTON_LABELS = {
    "ch:accept": N_("Accept"),
    "ch:decline": N_("Decline"),
    "ch:cancel": N_("Cancel"),
    "rs": N_("Yes, resign"),
    "pr:promote": N_("Promote"),
    "pr:keep": N_("Don't promote"),
    "js:propose": N_("Propose count"),
    "js:accept": N_("Accept count"),
    "js:declare": N_("Declare impasse"),
    "gt": N_("Give more time"),
    "cf:play": N_("Confirm move"),
    "cf:cancel": N_("Cancel move"),
    "tb:accept": N_("Accept takeback"),
    "tb:decline": N_("Decline takeback"),
}


def button_label(lang: str, key: str) -> str:
    """A button's label in the reader's language (`key` as in `BUTTON_LABELS`)."""
    return gettext(lang, BUTTON_LABELS[key])


# ---------------------------------------------------------------- commands and options
# These English texts are what discord.py publishes; the command translator (`i18n`)
# gives Discord their Japanese from the `commands.po` catalog.

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
    "language": "Set the language of the bot's posts in this server.",
    "preferences": "Your own settings: confirm moves, a direct message on your turn.",
    "takeback": "Ask your opponent to take back your last move.",
    "forecast": "Forecasts: replies played for you if your opponent plays what you expect.",
    "note": "Write a private note on a game, at its current move.",
    "notes": "List or delete your private notes on a game.",
    "vacation": "Pause your clocks while you are away (14 days a year).",
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
    "public": "Post it for everyone (default: yes for the game's players, no for others)",
    "language": "The language of posts (default: the server's language in Discord)",
    "confirm": "Show the board after your move and ask before playing it (default: off)",
    "turn_message": "A direct message when it becomes your turn (default: off)",
    "takebacks": "May a player ask to take back a move (default: allowed)",
    "line": "Their move, then your reply (more pairs may follow), e.g. 3c3d 2g2f",
    "clear": "Clear your forecasts in this game first (default: no)",
    "note_text": "Your note; only you will see it (up to 1,000 characters)",
    "delete": "The number of a note to delete, or all (all your notes on this game)",
    "action": "Start or end your vacation, or see it (default: see it)",
}
VACATION_ACTIONS = {"status": "Status", "start": "Start", "end": "End"}
COLOR_NAMES = {
    "random": "Random",
    "sente": "Sente (☗, moves first in even games)",
    "gote": "Gote (☖)",
}
RULE_NAMES = {
    ImpasseRule.DECLARATION_27: N_("27-point declaration"),
    ImpasseRule.COUNT_24: N_("24-point count"),
}
RULE_CHOICE_NOTES = {
    ImpasseRule.DECLARATION_27: "modern standard",
    ImpasseRule.COUNT_24: "classic rules",
}
SWITCH_NAMES = {"on": "On", "off": "Off"}
LANGUAGE_NAMES = {
    "server": "The server's language in Discord",
    "ja": "日本語",
    "en": "English",
}


def rule_name(lang: str, rule: ImpasseRule) -> str:
    """An impasse rule as the settings of a game say it."""
    return gettext(lang, RULE_NAMES[rule])


def rule_choice(rule: ImpasseRule) -> str:
    """An impasse rule as a choice of `/challenge`."""
    return f"{RULE_NAMES[rule]} ({RULE_CHOICE_NOTES[rule]})"


TAKEBACK_NAMES = {
    TakebackPolicy.ALLOWED: "Allowed, if the opponent accepts",
    TakebackPolicy.NEVER: "Never",
}
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
