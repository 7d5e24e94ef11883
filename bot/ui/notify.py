"""Direct messages: the one place that sends them, for every event of `bot.services.club.audience`.

A correspondence player is rarely looking at the game's thread when something happens
there; the mention in it notifies them only as far as their server notification settings
allow. So the players the table says are told of an event get a direct message too, if
they asked for them with `/preferences` (turn messages for the turn that begins, direct
messages for everything else), each in the language stored with their choice, with a link
to the game's thread (or the challenge's message). A message that falls in a player's
quiet hours is sent silently (Discord's suppress-notifications flag): it is there when
they look, and it wakes nobody; none is dropped.

Each message is decided and written after the post it follows, in a task of its own (the
action's answer never waits for it, and nothing that goes wrong with it touches the
action), then queued in the service's outbox, written in its recipient's language and
with its silent flag, to be sent by the outbox's paced sender (`deliver`), after the
posts by the clock and before the digests. Discord refuses direct messages to a user who
closed them (403, code 50007); that is logged at INFO and the player is left to the
thread's mention: the service remembers their closed inbox in the database, so no
process tries them again, after a restart too, until they change their `/preferences`
(every refused message counts against the bot with Discord).
"""

from __future__ import annotations

import asyncio
import logging
import zoneinfo
from collections.abc import Callable
from datetime import datetime, tzinfo
from typing import Protocol

import discord

from bot.services import (
    Audience,
    BadTimeZone,
    Cast,
    Challenge,
    Event,
    GameService,
    GameSnapshot,
    PlayedMove,
    PlayerRef,
    Preferences,
    Send,
    Sending,
    ending_event,
)
from bot.services.club.audience import audience
from bot.services.club.zones import zone_named

from . import text
from .i18n import SOURCE_LANGUAGE

log = logging.getLogger(__name__)
CANNOT_MESSAGE_USER = 50007  # Discord's code for a user who does not accept direct messages

#: A direct message's text in the language it is written in (the recipient's).
News = Callable[[str], str]
#: What a feature does when the turn of the bot itself begins in a game against it (the
#: computer feature makes its engine play): called at once, it must not wait for anything.
BotTurn = Callable[[GameSnapshot], None]


class Host(Protocol):
    """What the sender needs of the bot (`host.GameBot`), said here so that this module
    does not import the one that builds it."""

    bot_turns: list[BotTurn]

    @property
    def service(self) -> GameService: ...

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel: ...

    async def server_zone(self, guild_id: int | None) -> zoneinfo.ZoneInfo: ...


def game_link(game: GameSnapshot) -> str:
    """The link that opens the game's thread (or its channel, without a thread)."""
    return f"https://discord.com/channels/{game.guild_id}/{game.thread_id or game.channel_id}"


def challenge_link(challenge: Challenge) -> str:
    """The link that opens the challenge's message (or its channel, before it has one)."""
    where = f"{challenge.guild_id}/{challenge.channel_id}"
    message = "" if challenge.message_id is None else f"/{challenge.message_id}"
    return f"https://discord.com/channels/{where}{message}"


def _wants_turn_message(preferences: Preferences) -> bool:
    """Whether the player asked to hear of each turn that begins."""
    return preferences.turn_messages


def _wants_event_message(preferences: Preferences) -> bool:
    """Whether the player accepts direct messages of endings, offers and the like (all
    but those who chose none: a digest reader hears of these at once too)."""
    return preferences.direct_messages


class DirectMessages:
    """Decides and queues the direct messages of every event in the background (`close()`
    waits for them), and delivers them when the outbox's sender gets to them."""

    def __init__(self, bot: Host) -> None:
        self._bot = bot
        self._pending: set[asyncio.Task[None]] = set()

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
        link = game_link(game)
        self.tell(
            Event.TURN_BEGAN,
            Cast.of_game(game, actor=by),
            lambda lang: text.turn_message(lang, game, link),
            about=game.id,
            guild_id=game.guild_id,
        )

    def moved(self, played: PlayedMove, *, by: int | None) -> None:
        """A move was played by `by` (None: the computer or a forecast): the next turn
        begins, or the ending is told to those the table names. A forecast reply that
        followed at once began the mover's turn again, which they did not see."""
        if played.forecast is not None:
            self.moved(played.forecast, by=None)
            return
        game = played.game
        if game.outcome is None:
            self.turn_began(game, by=by)
            return
        outcome = game.outcome
        self.about_game(
            ending_event(outcome),
            game,
            lambda lang: text.outcome_text(lang, outcome, game),
            cast=Cast.of_game(game, actor=played.mover.user_id),
        )

    def ended(self, game: GameSnapshot, *, by: int | None, by_clock: bool = False) -> None:
        """`game` ended by `by`'s action (None: the clock): tell those the table names."""
        outcome = game.outcome
        if outcome is None:
            return
        event = ending_event(outcome, by_clock=by_clock)
        wording = (
            (lambda lang: text.idle_abort_text(lang, game))
            if event is Event.IDLE_ABORT
            else (lambda lang: text.outcome_text(lang, outcome, game))
        )
        self.about_game(event, game, wording, cast=Cast.of_game(game, actor=by))

    def about_game(self, event: Event, game: GameSnapshot, wording: News, *, cast: Cast) -> None:
        """Tell of `event` in `game` (what its post says, `wording`), with the game's link."""
        link = game_link(game)
        players = (game.sente, game.gote)
        self.tell(
            event,
            cast,
            lambda lang: text.game_news(lang, game, unmention(wording(lang), players), link),
            about=game.id,
            guild_id=game.guild_id,
        )

    def about_challenge(
        self, event: Event, challenge: Challenge, wording: News, *, actor: int | None
    ) -> None:
        """Tell of `event` to a challenge (its message's text, `wording`), with its link."""
        link = challenge_link(challenge)
        players = tuple(p for p in (challenge.challenger, challenge.opponent) if p is not None)
        self.tell(
            event,
            Cast.of_challenge(challenge, actor=actor),
            lambda lang: text.challenge_news(lang, unmention(wording(lang), players), link),
            about=None,
            guild_id=challenge.guild_id,
        )

    def tell(
        self,
        event: Event,
        cast: Cast,
        news: News,
        *,
        about: int | None,
        guild_id: int,
        told: Audience | None = None,
    ) -> None:
        """Send `news` to whom the table says is messaged of `event` (or `told`), each in
        a task of its own; `about` is the game's id, for the log, `guild_id` the server
        whose zone dates the quiet hours of a player who chose none."""
        chosen = audience(event, cast) if told is None else told
        for player in chosen.messaged:
            task = asyncio.get_running_loop().create_task(
                self._send(event, chosen.sending, player, news, about, guild_id),
                name=f"direct-message-{player.user_id}",
            )
            self._pending.add(task)
            task.add_done_callback(self._pending.discard)

    async def close(self) -> None:
        """Wait for the messages still being sent (before the bot disconnects)."""
        while self._pending:
            await asyncio.gather(*self._pending, return_exceptions=True)

    @property
    def deciding(self) -> int:
        """How many messages are being decided and queued right now."""
        return len(self._pending)

    async def digest(self, user_id: int, content: str) -> None:
        """Queue a player's daily digest (`content`, written for them), after every other
        kind of send. Quiet hours do not apply: the player chose the digest's hour."""
        await self._bot.service.outbox.message(Send.DIGEST, user_id, content, silent=False)

    async def deliver(self, user_id: int, content: str, *, silent: bool) -> None:
        """Send a queued direct message now (the outbox's sender calls it). A closed inbox
        is remembered; any refusal drops the message with one log line."""
        try:
            if await self._bot.service.preferences.inbox_closed(user_id):
                return  # closed since the message was queued: Discord would refuse it
            channel = await self._bot.create_dm(discord.Object(user_id))
            await channel.send(
                content, allowed_mentions=discord.AllowedMentions.none(), silent=silent
            )
            log.info("sent %s a direct message%s", user_id, " silently" * silent)
        except discord.Forbidden as error:
            if error.code == CANNOT_MESSAGE_USER and await self._closed(user_id):
                log.info(
                    "%s does not accept direct messages; the mention in the thread will have to do",
                    user_id,
                )
            else:
                log.warning("could not message %s: %s", user_id, error)
        except discord.HTTPException as error:
            log.warning("could not message %s: %s", user_id, error)

    async def _closed(self, user_id: int) -> bool:
        """Discord refused a direct message to `user_id`: the service remembers it for every
        process. False if that failed (logged: the next message tries again)."""
        try:
            await self._bot.service.preferences.close_inbox(user_id)
        except Exception:
            log.exception("could not remember that %s does not accept direct messages", user_id)
            return False
        return True

    async def _quiet(self, preferences: Preferences, at: datetime, guild_id: int) -> bool:
        """Whether `at` falls in the player's quiet hours, in their zone, or the server's
        when they chose none (or one this machine no longer knows)."""
        if preferences.quiet_hours is None:
            return False
        zone: tzinfo | None = None
        if preferences.time_zone is not None:
            try:
                zone = zone_named(preferences.time_zone)
            except BadTimeZone:
                log.info("zone %r is unknown here; the server's is used", preferences.time_zone)
        if zone is None:
            zone = await self._bot.server_zone(guild_id)
        return preferences.quiet_at(at, zone)

    async def _send(
        self,
        event: Event,
        sending: Sending,
        player: PlayerRef,
        news: News,
        about: int | None,
        guild_id: int,
    ) -> None:
        user_id = player.user_id
        what = f"game {about}" if about is not None else "a challenge"
        try:
            preferences = await self._bot.service.preferences.of(user_id)
            wants = _wants_turn_message if sending is Sending.TURN else _wants_event_message
            if not wants(preferences):
                return
            if await self._bot.service.preferences.inbox_closed(user_id):
                return
            lang = preferences.language or SOURCE_LANGUAGE
            silent = await self._quiet(preferences, self._bot.service.store.now(), guild_id)
            kind = Send.TURN if sending is Sending.TURN else Send.MESSAGE
            content = text.truncate(news(lang))
            await self._bot.service.outbox.message(kind, user_id, content, silent=silent)
            quietly = " (silent)" * silent
            log.info("%s: queued %s's message of %s%s", what, user_id, event.name, quietly)
        except Exception:
            log.exception("direct message to %s about %s failed", user_id, what)


def unmention(content: str, players: tuple[PlayerRef, ...]) -> str:
    """`content` with the mentions of `players` written as their names: a direct message
    names people rather than pinging them."""
    for player in players:
        content = content.replace(text.mention(player), text.safe(player.name))
    return content
