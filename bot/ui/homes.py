"""Where a game's posts go: its thread; a new thread in its channel if a moderator deleted
the old one while the game goes on; else the channel itself.

A deleted thread answers 404 to every post, and each such answer counts toward Discord's
ban of the bot's address, so the bot asks for a thread Discord said is gone only once (see
`GameBot.channel_if_there`). A game still being played then needs a place where its
players can type their moves and read the board: the bot opens a new thread in the
game's channel and says there why. Two processes may find the thread gone at once; the
database moves the game to one new thread only, and the other process deletes its own.
A finished game gets no new thread: its last posts go to its channel.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord

from bot.services import GameSnapshot

from . import text
from .host import GameBot

log = logging.getLogger(__name__)
THREAD_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week, the longest Discord allows
#: Discord's error code when a server has as many active threads as it may.
ACTIVE_THREAD_CAP = 160006


class ThreadCapReached(Exception):
    """The server has as many active threads as Discord allows: no thread until some are
    archived."""


async def game_channel(bot: GameBot, game: GameSnapshot) -> discord.abc.Messageable:
    """The game's thread, a new one if it is gone and the game goes on, or the channel it
    started in (`LookupError` if that is gone too)."""
    if game.thread_id is not None:
        thread = await bot.channel_if_there(game.thread_id)
        if isinstance(thread, discord.abc.Messageable):
            return thread
        if game.outcome is None:
            new_home = await _rehome(bot, game, game.thread_id)
            if new_home is not None:
                return new_home
    channel = await bot.channel_if_there(game.channel_id)
    if isinstance(channel, discord.abc.Messageable):
        return channel
    raise LookupError(f"no channel left for game {game.id}")


async def open_thread(
    bot: GameBot,
    game: GameSnapshot,
    message: discord.Message | discord.PartialMessage | None,
    name: str,
    *,
    cap_raises: bool = False,
) -> discord.Thread | None:
    """A thread on the message, or in the game's channel; None where threads are
    impossible (a channel that takes none, a permission or a limit Discord refused).
    With `cap_raises`, the server's cap on active threads raises `ThreadCapReached`
    instead: the caller waits for threads to be archived rather than play on without."""
    try:
        if message is not None:
            return await message.create_thread(
                name=name, auto_archive_duration=THREAD_ARCHIVE_MINUTES
            )
        channel = bot.get_channel(game.channel_id)
        if isinstance(channel, discord.TextChannel):
            return await channel.create_thread(  # discord.py's default is a private one
                name=name,
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
                type=discord.ChannelType.public_thread,
            )
    except discord.HTTPException as error:
        if cap_raises and error.code == ACTIVE_THREAD_CAP:
            raise ThreadCapReached(name) from error
        log.warning("could not open a thread for %s", name, exc_info=True)
    return None


async def _rehome(bot: GameBot, game: GameSnapshot, lost_thread_id: int) -> discord.Thread | None:
    """A new thread for `game`, whose thread `lost_thread_id` is gone: opened in its
    channel, stored as the game's, with a first post saying why. If another process moved
    the game first, its thread is the one used and this one is deleted. None if no thread
    could be opened (the caller posts in the channel)."""
    lang = await bot.post_language(game.guild_id)
    thread = await open_thread(bot, game, None, text.thread_name(lang, game))
    if thread is None:
        return None
    if not await bot.service.games.move_thread(game.id, lost_thread_id, thread.id):
        await _delete_spare(thread)
        moved = await bot.service.games.get(game.id)
        if moved.thread_id is None or moved.thread_id == lost_thread_id:
            return None
        found = await bot.channel_if_there(moved.thread_id)
        return found if isinstance(found, discord.Thread) else None
    log.info("game %s: its thread %s is gone; it goes on in %s", game.id, lost_thread_id, thread.id)
    try:
        await thread.send(
            text.rehomed_text(lang, game), allowed_mentions=discord.AllowedMentions.none()
        )
    except discord.HTTPException:
        log.warning("could not say why game %s has a new thread", game.id, exc_info=True)
    return thread


async def _delete_spare(thread: discord.Thread) -> None:
    """Delete a thread opened for a game another process had already re-homed."""
    try:
        await thread.delete()
    except discord.HTTPException:
        log.warning("could not delete the spare thread %s", thread.id, exc_info=True)
