"""Answers every feature shares: the refusals of the one error report (a failure, a stale
button, a bad option), an offer withdrawn when the game moved on, and the suggestions of
autocomplete, within Discord's length for them. A feature's own answers are in its
module."""

from __future__ import annotations

import re
import unicodedata

from bot.services import GameSummary, MoveText
from rules import Sentence
from rules.errors import quote

from .base import translator
from .records.games import result_word

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
MAX_CHOICE_NAME = 100  # Discord refuses a suggestion with a longer name
#: Line breaks and other control characters: a suggestion is one line.
_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
#: What joins the character before it (a variation selector, a zero-width joiner): never
#: the first character kept after a cut.
_JOINING = re.compile("[\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def out_of_range(low: float, high: float) -> Sentence:
    """A number option outside the range its command declares (sent by a modified client)."""
    return Sentence(
        "That number is out of range: give one from {low} to {high}.", low=low, high=high
    )


def text_length(low: int, high: int) -> Sentence:
    """A text option shorter or longer than its command allows."""
    return Sentence("That text must be {low} to {high} characters long.", low=low, high=high)


def withdrawn_text(lang: str, *, ended: bool) -> str:
    """Added to a takeback request or count proposal that lapsed unanswered, when its
    buttons are taken away: a move was played, or the game ended, first."""
    _ = translator(lang)
    if ended:
        return _("Withdrawn: the game ended before this was answered.")
    return _("Withdrawn: a move was played before this was answered.")


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


def units(text: str) -> int:
    """`text`'s length as the stricter of the ways Discord may count it: in UTF-16 code
    units, where a character beyond the Basic Multilingual Plane (an emoji, a rare kanji
    such as 𠮷) counts two, and a kanji or kana of the plane one, as a Latin letter."""
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def fit(text: str, limit: int) -> str:
    """`text` on one line in at most `limit` units (`units`), cut with an ellipsis between
    whole characters: never between a character and the mark, variation selector or
    joiner that belongs to it, so a cut name never ends in half a kanji or emoji.

    >>> fit("春季リーグ", 5), fit("春季リーグ決勝", 5), fit("ab   cd", 10)
    ('春季リーグ', '春季リー…', 'ab cd')
    """
    line = " ".join(_CONTROLS.sub(" ", text).split())
    if units(line) <= limit:
        return line
    end, used = 0, 0
    while end < len(line) and used + units(line[end]) <= limit - 1:
        used += units(line[end])
        end += 1
    while end > 0 and (
        unicodedata.combining(line[end]) or _JOINING.match(line[end]) or line[end - 1] == "\u200d"
    ):
        end -= 1
    return line[:end].rstrip() + "…"
