"""What happens by the clock, posted where the players will see it: time-outs,
reminders (with a button to give the late player more time), expired challenges,
endings a previous run stored but never posted, and the direct messages queued in the
outbox, each when the outbox's sender gets to it.

`Announcer` is the service's `GameEvents`; this feature registers it while loaded.
"""

from __future__ import annotations

import logging

import discord

from bot.services import Cast, Challenge, Event, GameSnapshot, VacationChange
from bot.services.club.audience import audience
from bot.ui import text
from bot.ui.challenges import close_challenge_message
from bot.ui.errors import GameButton, view_of
from bot.ui.homes import game_channel
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.options import by_member
from bot.ui.replies import reader_language, send_ephemeral
from bot.ui.threads import (
    announce,
    announce_end,
    ending_posted,
    post_to_game,
    tell_vacation,
)
from rules import Termination

log = logging.getLogger(__name__)
HISTORY_LOOKBACK = 25  # the bot's last messages in a thread searched for an ending


class GiveTimeButton(GameButton):
    """Give the opponent a fresh period for this move."""

    KEY, STYLE = "gt", discord.ButtonStyle.secondary

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        game = await by_member(interaction, bot.service.extra_time.give, self.game_id)
        await send_ephemeral(interaction, text.say(reader_language(interaction), text.TIME_GIVEN))
        try:
            told = audience(Event.TURN_BEGAN, Cast.of_game(game, actor=interaction.user.id))
            await post_to_game(bot, game, lambda lang: text.time_given(lang, game), told=told)
        finally:  # their turn begins again, with a full period
            bot.direct_messages.turn_began(game, by=interaction.user.id)


class Announcer:
    """The service's `GameEvents`, answered by posting into the game's thread."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def game_timed_out(self, game: GameSnapshot) -> None:
        log.info("game %s ended on time", game.id)
        await announce_end(self.bot, game, by=None, by_clock=True)

    async def ending_unannounced(self, game: GameSnapshot) -> None:
        """Post an ending a previous run stored but did not post; unless the post is
        there after all (that run stopped between posting and noting it)."""
        if game.outcome is None:
            return
        lang = await self.bot.post_language(game.guild_id)
        endings = {text.truncate(text.outcome_text(lang, game.outcome, game))}
        if game.outcome.termination is Termination.ABORT:  # perhaps a time-out's abort
            endings.add(text.truncate(text.idle_abort_text(lang, game)))
        if await self._already_posted(game, endings):
            log.info("game %s: its ending was posted after all", game.id)
            await ending_posted(self.bot, game)  # that run may have stopped before this too
            return
        await announce_end(self.bot, game, by=None)

    async def _already_posted(self, game: GameSnapshot, contents: set[str]) -> bool:
        """Whether the bot's last messages in the game's thread include one of `contents`."""
        me = self.bot.user
        try:
            channel = await game_channel(self.bot, game)
            async for message in channel.history(limit=HISTORY_LOOKBACK):
                mine = me is not None and message.author.id == me.id
                if mine and any(c in message.content for c in contents):  # after mentions
                    return True
        except (discord.HTTPException, LookupError):
            log.warning("could not read game %s's thread", game.id, exc_info=True)
        return False

    async def deadline_reminder(self, game: GameSnapshot) -> None:
        log.info("reminder for game %s", game.id)
        cast = Cast.of_game(game)
        now = self.bot.service.store.now()
        await announce(
            self.bot,
            Event.REMINDER,
            game,
            lambda lang: text.reminder_text(lang, game, now),
            cast=cast,
            view=lambda lang: view_of(GiveTimeButton(game.id, lang)),
        )

    async def direct_message(self, user_id: int, content: str, *, silent: bool) -> None:
        """A direct message the outbox's sender got to."""
        await self.bot.direct_messages.deliver(user_id, content, silent=silent)

    async def vacation_ended(self, change: VacationChange) -> None:
        """A vacation ran out by itself: each of the player's games hears it."""
        log.info("player %s: vacation ran out", change.vacation.user_id)
        await tell_vacation(self.bot, change, by=None)

    async def challenge_expired(self, challenge: Challenge) -> None:
        """Close the expired challenge's message: its buttons go, the reason shows."""
        log.info("challenge %s expired", challenge.id)
        try:
            await close_challenge_message(self.bot, challenge)
        finally:
            self.bot.direct_messages.about_challenge(
                Event.CHALLENGE_EXPIRED,
                challenge,
                lambda lang: text.challenge_closed(lang, challenge),
                actor=None,
            )


class AnnouncementsFeature(Feature):
    """Deadlines and their announcements."""

    BUTTONS = (GiveTimeButton,)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.report_to(Announcer(self.bot))

    async def cog_unload(self) -> None:
        self.bot.service.report_to(None)
        await super().cog_unload()


async def setup(bot: GameBot) -> None:
    await bot.add_cog(AnnouncementsFeature(bot))
