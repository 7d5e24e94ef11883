"""Posting into a game's thread: moves, endings, reminders, proposals.

A post in the thread is a new message, so the mention in it notifies the player
(the edit of a deferred answer would not).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.services import GameSnapshot, PlayerRef

from . import text
from .host import GameBot
from .replies import mentions

log = logging.getLogger(__name__)


async def game_channel(bot: GameBot, game: GameSnapshot) -> discord.abc.Messageable:
    """The game's thread, or the channel it started in if the thread is gone."""
    for channel_id in (game.thread_id, game.channel_id):
        if channel_id is None:
            continue
        channel = bot.get_channel(channel_id)
        if channel is None:
            try:
                channel = await bot.fetch_channel(channel_id)
            except discord.HTTPException:
                continue
        if isinstance(channel, discord.abc.Messageable):
            return channel
    raise LookupError(f"no channel left for game {game.id}")


async def post_to_game(
    bot: GameBot,
    game: GameSnapshot,
    content: str,
    *,
    board: discord.File | bool = False,
    ping: PlayerRef | None = None,
    view: discord.ui.View | None = None,
) -> discord.Message:
    """Post in the game's thread; `board=True` renders the board, a `File` is sent as is."""
    channel = await game_channel(bot, game)
    kwargs: dict[str, Any] = {"allowed_mentions": mentions(ping)}
    if board is True:
        kwargs["file"] = await bot.boards.file(game)
    elif isinstance(board, discord.File):
        kwargs["file"] = board
    if view is not None:
        kwargs["view"] = view
    return await channel.send(text.truncate(content), **kwargs)


async def announce_end(bot: GameBot, game: GameSnapshot) -> None:
    """Post the ending with the final board, then note it is posted: a restart posts
    endings that were stored but not posted (see `Deadlines.post_left_over_endings`)."""
    if game.outcome is None:
        return
    log.info("game %s ended: %s", game.id, game.outcome.termination.value)
    await post_to_game(bot, game, text.outcome_text(game.outcome, game), board=True)
    await bot.service.store.mark_end_announced(game.id)
