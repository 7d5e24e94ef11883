"""Questions in a game's thread that the game answered before a player did: a takeback
request (待った) or a proposal of the 24-point count lapses with the next move or with the
game's end, and its message would otherwise keep buttons that can only be refused. Such a
message loses its buttons and says it was withdrawn.

The messages are found in the thread's recent history, by their buttons: a request's
buttons carry the ply it was asked at, and a proposal holds while the game says one is
pending, so only questions that no longer hold are touched, never one asked since.
"""

from __future__ import annotations

import logging
import re
from typing import Any

import discord

from bot.services import GameSnapshot
from rules import Termination

from . import text
from .host import GameBot

log = logging.getLogger(__name__)
#: How far back the thread is read: a question lapses with the next move, so its message
#: is among the last posts of the thread unless members chatted a lot in between.
LOOKBACK = 100
_TAKEBACK = re.compile(r"tb:(?:accept|decline):(?P<game>\d+):(?P<ply>\d+):\d+")
_COUNT = re.compile(r"js:accept:(?P<game>\d+)")


def _custom_ids(message: discord.Message) -> list[str]:
    found: list[str] = []
    pending: list[Any] = list(message.components)
    while pending:
        component = pending.pop()
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            found.append(custom_id)
        pending.extend(getattr(component, "children", ()))
    return found


def lapsed(custom_id: str, game: GameSnapshot) -> bool:
    """Whether a button of the bot's asks a question `game`, as it now stands, no longer
    holds: a takeback request asked at another ply or in an ended game, or the acceptance
    of a count proposal when none is pending."""
    takeback = _TAKEBACK.fullmatch(custom_id)
    if takeback is not None and int(takeback["game"]) == game.id:
        return not game.is_active or int(takeback["ply"]) != game.ply
    count = _COUNT.fullmatch(custom_id)
    if count is not None and int(count["game"]) == game.id:
        return not game.is_active or game.pending_count_proposal is None
    return False


def _settled_by_count(game: GameSnapshot, message: discord.Message) -> bool:
    """A count proposal whose game the 24-point count ended: it was accepted, not
    withdrawn (accepting it posts the ending, not an edit of the proposal)."""
    outcome = game.outcome
    if outcome is None or outcome.termination not in (
        Termination.IMPASSE_24,
        Termination.IMPASSE_JSA24,
    ):
        return False
    return all(_COUNT.fullmatch(custom_id) for custom_id in _custom_ids(message))


async def withdraw_lapsed(bot: GameBot, game_id: int) -> None:
    """Take the buttons off every question in the game's thread that lapsed, saying it
    was withdrawn (in the server's language). Failures are logged: the buttons left would
    only be refused."""
    game = await bot.service.games.get(game_id)  # as it stands now, not as it was posted
    me = bot.user
    if game.thread_id is None or me is None:
        return
    try:
        channel = await bot.channel(game.thread_id)
        if not isinstance(channel, discord.Thread):
            return
        stale = [
            message
            async for message in channel.history(limit=LOOKBACK)
            if message.author.id == me.id
            and any(lapsed(custom_id, game) for custom_id in _custom_ids(message))
        ]
        if not stale:
            return
        lang = await bot.post_language(game.guild_id)
        note = text.withdrawn_text(lang, ended=not game.is_active)
        for message in stale:
            content = message.content
            if not _settled_by_count(game, message):  # else the ending below says it
                content = text.truncate(f"{content}\n{note}")
            await message.edit(
                content=content, view=None, allowed_mentions=discord.AllowedMentions.none()
            )
    except (discord.NotFound, discord.Forbidden) as error:  # the thread was deleted, or hidden
        log.info("game %s: no question withdrawn in its thread (%s)", game.id, error.text)
    except discord.HTTPException:
        log.warning("could not withdraw the questions of game %s", game.id, exc_info=True)
