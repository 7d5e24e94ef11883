"""Moves by mention: a move typed as a message that mentions the bot in its game's thread
(`@bot ７六歩`, or a reply that pings one of the bot's posts there) is played as `/move`
plays it: the same service call, the same forecasts and direct messages after it, and the
board posted in the thread.

The bot asks Discord for guild messages (not privileged) but not for their content
(privileged): Discord then gives it the text of a message only when the message mentions
its user (written, or as the author of a message replied to with the ping on), in direct
messages and in its own. Every other message arrives empty and is ignored here. A reply to
a board that answered a command (a `/move` typed in the thread) is no mention of the bot
for Discord, so that one must name the bot (see the README, "Moves by mention").

A message has no private answer and no locale: a refusal is one sentence replying to it in
the server's language, a player who confirms their moves is sent to `/move` (only a
command's private answer can show the board first), and a move that fits several is
answered with the rules' sentence saying what to add (右, 成...), to be typed again.

Bounded: the mentions are taken out with a linear expression, the service refuses a move's
text past 64 characters before reading it, one member has one mention handled at a time
(the others are dropped while it runs), and a member gets at most one refusal in
`REFUSAL_WINDOW`, so a flood of mentions costs the bot one reply, not one per message.
"""

from __future__ import annotations

import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable

import discord
from discord.ext import commands

from bot.ui import text
from bot.ui.errors import OptionError, reply_for
from bot.ui.host import Feature, GameBot
from bot.ui.played import follow_played
from bot.ui.replies import as_player
from bot.ui.threads import post_move
from rules.notation.parse import MAX_MOVE_TEXT

log = logging.getLogger(__name__)

#: A mention of a user, a nickname or a role, as Discord writes it in a message's text.
_MENTION = re.compile(r"<@[!&]?[0-9]{1,20}>")
#: Seconds after a refusal during which the same member gets no other.
REFUSAL_WINDOW = 10.0
#: Members whose last refusal is remembered at most (the oldest are forgotten first).
REMEMBERED = 10_000


def move_typed(message: discord.Message, me: discord.abc.User | None) -> str | None:
    """The text a member's message gives as a move, its mentions taken out, or None when
    it is no move for the bot: not in a server, from a bot or a webhook, not mentioning
    the bot, or nothing left once the mentions are out."""
    if me is None or message.guild is None or message.author.bot or message.webhook_id:
        return None
    if not any(user.id == me.id for user in message.mentions):
        return None
    typed = " ".join(_MENTION.sub(" ", message.content).split())
    return typed or None


class MentionGate:
    """One mention of a member handled at a time, and at most one refusal for them in
    `window` seconds: what keeps a flood of mentions from costing a reply each. Held in
    this process: a server's messages all reach the one process of its shard."""

    def __init__(
        self, window: float = REFUSAL_WINDOW, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.window = window
        self._clock = clock
        self._busy: set[int] = set()
        self._refused: OrderedDict[int, float] = OrderedDict()

    def enter(self, user_id: int) -> bool:
        """Whether the member's mention may be handled now (False: one still runs)."""
        if user_id in self._busy:
            return False
        self._busy.add(user_id)
        return True

    def leave(self, user_id: int) -> None:
        self._busy.discard(user_id)

    @property
    def handling(self) -> int:
        """Mentions being handled now (one per member at most)."""
        return len(self._busy)

    @property
    def remembered(self) -> int:
        """Members whose last refusal is still remembered."""
        return len(self._refused)

    def may_refuse(self, user_id: int) -> bool:
        """Whether the member may be answered a refusal now; if so, it counts as given."""
        now = self._clock()
        while self._refused:  # oldest first: forget those whose window has passed
            when = next(iter(self._refused.values()))
            if now - when < self.window and len(self._refused) <= REMEMBERED:
                break
            self._refused.popitem(last=False)
        if user_id in self._refused:
            return False
        self._refused[user_id] = now
        return True


class MentionsFeature(Feature):
    """Moves typed as messages that mention the bot."""

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self.gate = MentionGate()

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        typed = move_typed(message, self.bot.user)
        if typed is None:
            return
        author = message.author.id
        if not self.gate.enter(author):
            log.info("dropped a mention by %s: their last one is still being played", author)
            return
        try:
            await self._play(message, typed)
        finally:
            self.gate.leave(author)

    async def _play(self, message: discord.Message, typed: str) -> None:
        """Play `typed` as the author's move in the game of the message's thread."""
        assert message.guild is not None  # `move_typed` took only server messages
        bot, guild_id = self.bot, message.guild.id
        player = as_player(message.author)
        lang = await bot.post_language(guild_id)
        try:
            game_id = await bot.service.games.in_thread(message.channel.id, guild_id=guild_id)
            if game_id is None:
                if len(typed) <= MAX_MOVE_TEXT and len(typed.split()) == 1:
                    await self._refuse(message, text.say(lang, text.MENTION_OUTSIDE_GAME))
                return
            if (await bot.service.preferences.of(player.user_id)).confirm_moves:
                raise OptionError(text.CONFIRM_WITH_COMMAND)
            log.info("move by mention in game %s (user %s)", game_id, player.user_id)
            played = await bot.service.moves.play(
                game_id,
                player.user_id,
                typed,
                name=player.name,
                guild_id=guild_id,
                expected_ply=None,
                expected_position=None,
            )
        except Exception as error:  # a refusal gets its sentence, a bug an apology
            await self._refuse(message, reply_for(error, context="mention", lang=lang))
            return
        await follow_played(bot, played, by=player.user_id, announce=post_move(bot, played))

    async def _refuse(self, message: discord.Message, content: str) -> None:
        if self.gate.may_refuse(message.author.id):
            await self._answer(message, content)
        else:
            log.info("no refusal for %s: they had one just now", message.author.id)

    async def _answer(self, message: discord.Message, content: str) -> None:
        """A reply to the member's message that pings nobody (they are looking at it)."""
        try:
            await message.reply(
                text.truncate(content),
                mention_author=False,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            log.warning("could not answer a move by mention", exc_info=True)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(MentionsFeature(bot))
