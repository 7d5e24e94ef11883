"""Direct messages to a player whose turn has come, for those who asked for them.

A correspondence player is rarely looking at the game's thread when the opponent moves;
the mention there notifies them only as far as their server notification settings
allow. A player who turned turn messages on with `/preferences` gets a direct message
too, in the language stored with that choice, with a link to the thread.

The message is sent after the thread's post, in a task of its own: the move's answer
never waits for it, and nothing that goes wrong with it touches the move. Discord
refuses direct messages to a user who closed them (403, code 50007); that is logged
once at INFO and the player is left to the thread's mention: no further messages are
tried for them until they run `/preferences` again (or the bot restarts), since every
refused message counts against the bot with Discord.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord

from bot.services import GameSnapshot

from . import text
from .i18n import SOURCE_LANGUAGE

if TYPE_CHECKING:
    from .host import GameBot

log = logging.getLogger(__name__)
CANNOT_MESSAGE_USER = 50007  # Discord's code for a user who does not accept direct messages


def game_link(game: GameSnapshot) -> str:
    """The link that opens the game's thread (or its channel, without a thread)."""
    return f"https://discord.com/channels/{game.guild_id}/{game.thread_id or game.channel_id}"


class TurnMessages:
    """Sends "your move" direct messages in the background; `close()` waits for them."""

    def __init__(self, bot: GameBot) -> None:
        self._bot = bot
        self._pending: set[asyncio.Task[None]] = set()
        self._closed: set[int] = set()  # users whose direct messages Discord refused

    def turn_began(self, game: GameSnapshot, *, by: int | None = None) -> None:
        """The turn of `game.to_move` began (the opponent moved, the game started, they were
        given time): message them if they asked for it. `by` is the member whose action it
        was; they are not told of a turn they just gave themselves. The bot's own turn
        (a game against the computer) goes to the features that play it instead."""
        player = game.to_move
        if player is not None and player.is_bot:  # the computer's turn: its feature plays
            for began in self._bot.bot_turns:
                began(game)
            return
        if player is None or player.user_id == by:
            return
        if player.user_id in self._closed:
            return
        task = asyncio.get_running_loop().create_task(
            self._send(game, player.user_id), name=f"turn-message-{game.id}"
        )
        self._pending.add(task)
        task.add_done_callback(self._pending.discard)

    def reopened(self, user_id: int) -> None:
        """The player changed their preferences: try their direct messages again."""
        self._closed.discard(user_id)

    async def close(self) -> None:
        """Wait for the messages still being sent (before the bot disconnects)."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    async def digest(self, user_id: int, content: str) -> None:
        """Send a player their daily digest (`content`, written for them), now: the digests'
        task sends one after another. A refusal is taken as a turn message's is. Quiet
        hours do not apply: the player chose the digest's hour."""
        if user_id in self._closed:
            return
        try:
            channel = await self._bot.create_dm(discord.Object(user_id))
            await channel.send(content, allowed_mentions=discord.AllowedMentions.none())
            log.info("sent %s their daily digest", user_id)
        except discord.Forbidden as error:
            if error.code == CANNOT_MESSAGE_USER:
                self._closed.add(user_id)
                log.info("%s does not accept direct messages; no digest for them", user_id)
            else:
                log.warning("could not send %s their digest", user_id, exc_info=True)
        except discord.HTTPException:
            log.warning("could not send %s their digest", user_id, exc_info=True)

    async def _send(self, game: GameSnapshot, user_id: int) -> None:
        try:
            preferences = await self._bot.service.preferences.of(user_id)
            if not preferences.turn_messages:
                return
            lang = preferences.language or SOURCE_LANGUAGE
            channel = await self._bot.create_dm(discord.Object(user_id))
            await channel.send(
                text.turn_message(lang, game, game_link(game)),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            log.info("game %s: told %s it is their move", game.id, user_id)
        except discord.Forbidden as error:
            if error.code != CANNOT_MESSAGE_USER:
                log.warning("could not message %s about game %s", user_id, game.id, exc_info=True)
                return
            if user_id not in self._closed:
                self._closed.add(user_id)
                log.info(
                    "%s does not accept direct messages; the mention in game %s's thread "
                    "will have to do",
                    user_id,
                    game.id,
                )
        except discord.HTTPException:
            log.warning("could not message %s about game %s", user_id, game.id, exc_info=True)
        except Exception:
            log.exception("turn message to %s about game %s failed", user_id, game.id)
