"""A challenge's message once the challenge is answered away from it: its buttons go and
it says how the challenge was closed. A challenge closes without a press on its own
buttons in more than one place (it expires; a rematch is accepted by the other player's
Rematch under the ending), and each closes the message the same way."""

from __future__ import annotations

import logging

import discord

from bot.services import Challenge

from . import text
from .host import GameBot

log = logging.getLogger(__name__)

#: Where a challenge's message can be: the channels and threads that hold messages.
_POSTED_IN = discord.TextChannel | discord.Thread | discord.VoiceChannel | discord.StageChannel


async def close_challenge_message(
    bot: GameBot, challenge: Challenge
) -> discord.PartialMessage | None:
    """Show in `challenge`'s message, without its buttons, how the challenge was closed
    (in the server's language); the message, to open the game's thread on, or None if the
    challenge has none or its channel is gone. A message Discord will not edit stays as
    it was: the challenge is closed all the same."""
    if challenge.message_id is None:
        return None
    try:
        channel = await bot.channel(challenge.channel_id)
    except discord.HTTPException:
        log.warning("challenge %s's channel is gone", challenge.id, exc_info=True)
        return None
    if not isinstance(channel, _POSTED_IN):
        return None
    message = channel.get_partial_message(challenge.message_id)
    lang = await bot.post_language(challenge.guild_id)
    try:
        await message.edit(
            content=text.challenge_closed(lang, challenge),
            view=None,
            allowed_mentions=discord.AllowedMentions.none(),
        )
    except discord.HTTPException:
        log.warning("could not close challenge %s's message", challenge.id, exc_info=True)
    return message
