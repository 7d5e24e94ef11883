"""What a tournament command's `tournament` option suggests as a member types: the
server's tournaments the command can act on, newest first, each as `#12 春季リーグ ·
registration open` in the reader's language, picked among by part of a name or the number.

Autocomplete is asked on every keystroke and cannot be deferred, so its cost must not grow
with the server: the service reads the newest `SUGGESTION_WINDOW` tournaments of each state
(an indexed read stopped at its limit), and what is typed is matched against those alone.
"""

from __future__ import annotations

import unicodedata
from typing import Any

import discord
from discord.app_commands import Choice

from bot.services.tournaments.model import State

from . import text
from .host import host_of
from .options import MAX_CHOICES, server_of
from .replies import reader_language

#: How many of a server's newest tournaments in each state the suggestions look through.
SUGGESTION_WINDOW = 50
#: The longest text typed that a suggestion can hold (a number, a name of 100 characters
#: and the state); what is longer matches nothing and is not looked at.
MAX_TYPED = 200
#: The most digits of a tournament number: Discord's largest integer option has 16.
_MOST_DIGITS = 16


async def suggested(
    interaction: discord.Interaction[Any], current: str, states: tuple[State, ...]
) -> list[Choice[int]]:
    """The server's tournaments in `states` whose suggestion holds what is typed, newest
    first, the one numbered as typed first.

    Example: with `春季リーグ` (#12) taking entries, typing `春季` into
    `/tournament_start tournament:` offers `#12 春季リーグ · registration open`, value 12.
    """
    if len(current) > MAX_TYPED:
        return []  # longer than any suggestion: nothing can hold it
    typed = folded(current)
    digits = typed.lstrip("#")
    number = None
    if digits.isascii() and digits.isdigit() and len(digits) <= _MOST_DIGITS:
        number = int(digits)
    found = await host_of(interaction).service.tournaments.latest(
        server_of(interaction), states, limit=SUGGESTION_WINDOW, number=number
    )
    lang = reader_language(interaction)
    choices = []
    for tournament in found:
        name = text.tournament_choice(lang, tournament)
        if typed in folded(name):
            choices.append(Choice(name=name, value=tournament.id))
    return choices[:MAX_CHOICES]


def folded(typed: str) -> str:
    """Text as suggestions compare it: width and case folded, spaces collapsed, so a name
    is found however it is typed.

    >>> folded("ＳＰＲＩＮＧ　League ＃１２")
    'spring league #12'
    """
    return " ".join(unicodedata.normalize("NFKC", typed).casefold().split())
