"""Short answers to a player: refusals, confirmations, questions before an action, the
suggestions of autocomplete."""

from __future__ import annotations

from bot.services import (
    AlreadyStarted,
    GameSnapshot,
    GameSummary,
    MoveText,
    PlayerRef,
)
from rules import Sentence
from rules.errors import quote

from ..i18n import SOURCE_LANGUAGE
from .base import MAX_MESSAGE, deadline_text, mention, safe, say, sentences, translator
from .controls import LANGUAGE_NAMES
from .records.finished import result_word

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
STALE_BUTTON = Sentence("This button no longer works; use the command again.")
NOT_OFFERED = Sentence("This bot no longer offers that command; `/help` lists the ones it has.")
BAD_GAME_OPTION = Sentence("Pick a game from the list, or give its number, e.g. 12.")
RESIGNED = Sentence("You resigned.")
ABORTED = Sentence("The game is aborted.")
PROPOSAL_SENT = Sentence("Proposal sent.")
IMPASSE_SETTLED = Sentence("The impasse is settled.")
TIME_GIVEN = Sentence("Done: your opponent has a full move's time again, from now.")
MANAGE_SERVER_ONLY = Sentence("Only members who may manage this server can change its language.")
ZONE_MANAGERS_ONLY = Sentence("Only members who may manage this server can change its time zone.")
BAD_QUIET_HOURS = Sentence("Write quiet hours as two hours from 0 to 23, e.g. 22-7, or off.")
#: The value of the suggestion that takes a server back to its language's zone.
DEFAULT_ZONE = "default"
MAX_CHOICE_NAME = 100  # Discord refuses a suggestion with a longer name
MOVE_CANCELLED = Sentence("Cancelled: the move was not played.")


def out_of_range(low: float, high: float) -> Sentence:
    """A number option outside the range its command declares (sent by a modified client)."""
    return Sentence(
        "That number is out of range: give one from {low} to {high}.", low=low, high=high
    )


def text_length(low: int, high: int) -> Sentence:
    """A text option shorter or longer than its command allows."""
    return Sentence("That text must be {low} to {high} characters long.", low=low, high=high)


def language_set(lang: str, chosen: str | None) -> str:
    """The answer to `/language`, in the language just chosen."""
    _ = translator(lang)
    if chosen is None:
        return _("The bot's posts here now follow this server's language in Discord.")
    return _("The bot's posts in this server are now in {language}.").format(
        language=LANGUAGE_NAMES[chosen]
    )


def server_zone_text(lang: str, zone: str, *, chosen: bool, changed: bool) -> str:
    """The answer to `/timezone`: the zone the server's records and digests are dated in,
    just chosen (`changed`) or as it is; `chosen` is False for its language's default."""
    _ = translator(lang)
    if changed and chosen:
        return _("This server's records and digests are now dated in `{zone}`.").format(zone=zone)
    if changed:
        return _(
            "This server's records and digests are dated in `{zone}` again, the zone of its "
            "language."
        ).format(zone=zone)
    if chosen:
        return _("This server's records and digests are dated in `{zone}`.").format(zone=zone)
    return _(
        "This server's records and digests are dated in `{zone}`, the zone of its language; "
        "choose another with the option of `/timezone`."
    ).format(zone=zone)


def default_zone_choice(lang: str, zone: str) -> str:
    """The suggestion that takes a server back to its language's zone."""
    _ = translator(lang)
    return _("The zone of the server's language ({zone})").format(zone=zone)


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


def already_started(lang: str, error: AlreadyStarted) -> str:
    """A second press of a button that starts a game: that it started, and its thread."""
    _ = translator(lang)
    said = say(lang, error.sentence)
    if error.thread_id is None:  # the first press is still opening it
        return said
    return sentences(said, _("It is played in {thread}.").format(thread=f"<#{error.thread_id}>"))


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


def withdrawn_text(lang: str, *, ended: bool) -> str:
    """Added to a takeback request or count proposal that lapsed unanswered, when its
    buttons are taken away: a move was played, or the game ended, first."""
    _ = translator(lang)
    if ended:
        return _("Withdrawn: the game ended before this was answered.")
    return _("Withdrawn: a move was played before this was answered.")


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


#: The UTF-8 file that keeps what a Shift_JIS one cannot hold.
_UTF8_FORMATS = {"kif": "KIFU", "ki2": "KI2U"}


def export_caption(
    lang: str, game_id: int, fmt: str, link: str | None, *, replaced: int = 0
) -> str:
    """Above an exported record: which game and format, what Shift_JIS could not hold (then
    the UTF-8 format that keeps it), and the analysis link if it fits (a game still going
    on has none, and the caption says when it comes)."""
    _ = translator(lang)
    text = _("Record of game #{id} ({format}).").format(id=game_id, format=fmt.upper())
    if replaced:
        text += "\n" + _(
            "Japanese software reads a `.{ending}` file as Shift_JIS, which has no place for some "
            "characters of this record (an emoji in a name, say): they are written as 〓. "
            "The {format} format keeps every character (UTF-8)."
        ).format(ending=fmt.lower(), format=_UTF8_FORMATS.get(fmt.lower(), "KIFU"))
    if link is None:
        text += "\n" + _("The lishogi analysis link comes once the game is over.")
    elif len(text) + len(link) < MAX_MESSAGE - 100:
        text += "\n" + _("Analyse on lishogi: {link}").format(link=f"<{link}>")
    return text


def game_choice(lang: str, game: GameSummary) -> str:
    """One game among the suggestions of a `game` option: an active game with whose turn
    it is, a finished one with its result for the member."""
    _ = translator(lang)
    if game.result is not None:
        return _("#{id} vs {opponent} · {result} after move {move_number}").format(
            id=game.id,
            opponent=game.opponent.name,
            result=result_word(lang, game.result),
            move_number=game.move_number,
        )[:100]
    turn = _("your turn") if game.your_turn else _("waiting")
    return _("#{id} vs {opponent} · move {move_number} · {turn}").format(
        id=game.id, opponent=game.opponent.name, move_number=game.move_number, turn=turn
    )[:100]


def move_choice(move: MoveText) -> str:
    """One move among the suggestions of `/move`, in the three notations."""
    return f"{move.japanese}  ·  {move.western}  ·  {move.usi}"[:100]


def typed_time_choice(lang: str, typed: str) -> str:
    """The suggestion that takes a time control as typed: one line, and within the 100
    characters Discord allows a suggestion's name whatever was typed."""
    _ = translator(lang)
    return _("{typed} (as typed)").format(typed=quote(typed, 60))[:MAX_CHOICE_NAME]
