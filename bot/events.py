"""What the deadline task reports, posted where the players will see it."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

from . import flows, presenters
from .services import ChallengeView, GameView
from .views.buttons import GiveTimeButton, view_of

if TYPE_CHECKING:
    from .client import ShogiBot

log = logging.getLogger(__name__)


class DiscordEvents:
    """The service's `GameEvents`, answered by posting into the game's thread."""

    def __init__(self, bot: ShogiBot) -> None:
        self.bot = bot

    async def game_timed_out(self, game: GameView) -> None:
        log.info("game %s ended on time", game.id)
        await flows.announce_end(self.bot, game)

    async def ending_unannounced(self, game: GameView) -> None:
        """Post an ending a previous run stored but did not post; unless the post is
        there after all (that run stopped between posting and noting it)."""
        if game.outcome is None:
            return
        text = presenters.truncate(presenters.outcome_text(game.outcome, game))
        if await self._already_posted(game, text):
            log.info("game %s: its ending was posted after all", game.id)
            await self.bot.service.mark_end_announced(game.id)
            return
        await flows.announce_end(self.bot, game)

    async def _already_posted(self, game: GameView, text: str) -> bool:
        """Whether the bot's last messages in the game's thread include `text`."""
        me = self.bot.user
        try:
            channel = await flows.game_channel(self.bot, game)
            async for message in channel.history(limit=25):
                if me is not None and message.author.id == me.id and message.content == text:
                    return True
        except (discord.HTTPException, LookupError):
            log.warning("could not read game %s's thread", game.id, exc_info=True)
        return False

    async def deadline_reminder(self, game: GameView) -> None:
        log.info("reminder for game %s", game.id)
        await flows.post_to_game(
            self.bot,
            game,
            presenters.reminder_text(game),
            ping=game.to_move,
            view=view_of(GiveTimeButton(game.id)),
        )

    async def challenge_expired(self, challenge: ChallengeView) -> None:
        log.info("challenge %s expired", challenge.id)
        if challenge.message_id is None:
            return
        try:
            channel = self.bot.get_channel(challenge.channel_id) or await self.bot.fetch_channel(
                challenge.channel_id
            )
            if isinstance(channel, discord.abc.Messageable):
                message = await channel.fetch_message(challenge.message_id)
                await message.edit(
                    content=presenters.challenge_text(challenge)
                    + "\n"
                    + presenters.challenge_closed_text(challenge),
                    view=None,
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:
            log.warning("could not mark challenge %s as expired", challenge.id, exc_info=True)
