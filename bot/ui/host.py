"""The bot as feature modules see it: a discord.py bot with the game service, the
board renderer and the direct messages. `bot.client.ShogiBot` builds and wires them;
features only use them.
"""

from __future__ import annotations

import logging
import zoneinfo
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Protocol, cast

import discord
from discord.ext import commands

from bot.db.limiters import Pace
from bot.services import GameService, GameSnapshot, ReaderPool
from bot.services.club.zones import default_zone
from rules import Sentence

from .boards import BoardRenderer
from .i18n import SOURCE_LANGUAGE, language_of
from .notify import BotTurn, DirectMessages
from .pacing import Pacing
from .rejections import Rejections

log = logging.getLogger(__name__)
UNKNOWN_CHANNEL = 10003  # Discord's code for a channel or thread that does not exist (any more)

#: An interaction as a feature's commands and buttons receive it (the bot is any client).
Interaction = discord.Interaction[Any]

#: A button a feature puts under every game's ending post (a rematch, say): built for the
#: game, labelled in the post's language; None leaves that game without it.
EndingButton = Callable[[GameSnapshot, str], discord.ui.Item[Any] | None]
#: A button a feature puts under the board of a game going on (Move, say): the same shape.
TurnButton = EndingButton
#: What a feature does once a game's ending is posted (a tournament acts on its result).
AfterEnding = Callable[[GameSnapshot], Awaitable[None]]


class PlayMove(Protocol):
    """How a feature plays a move it did not read itself (the picker's): the one path of a
    typed `/move`, given the game, the move's text and the ply and position it was chosen
    in (`seen`), so that the rules, records, clocks, confirmations and posts are the same."""

    def __call__(
        self,
        bot: GameBot,
        interaction: discord.Interaction[Any],
        game_id: int | None,
        move: str,
        *,
        seen: tuple[int, str | None] | None = None,
    ) -> Awaitable[None]: ...


#: How `/move` without text opens the picker feature's private picker (the interaction,
#: and the game option if given).
OpenPicker = Callable[[discord.Interaction[Any], int | None], Awaitable[None]]


class EventOpener(Protocol):
    """The one task opening the threads of the games the bot created for an event
    (`bot.ui.openings.Opener`, which imports this module): what features ask of it."""

    def wake(self) -> None:
        """New games may be waiting for their threads: open them in the background."""
        ...


class GameBot(commands.Bot):
    """What every feature needs: `service` (set up in `setup_hook`), `boards`, `readers`
    (the worker processes that read members' records), `direct_messages` (every direct
    message: turns, endings, offers, see `notify`), `ending_buttons` (what features put
    under an ending, wherever it is posted), `turn_buttons` (what they put under the board
    of a game going on), `after_endings` (what they do once an ending is posted),
    `bot_turns` (what features do when the bot's own turn begins in a game against it),
    `play_move` (the moves feature's path of a move, for the others), `open_picker` (the
    picker's, for `/move` without text), `opener` (the one task opening the threads of
    the games the bot created for an event: features `wake` it), `rejections`
    (Discord's 4xx answers to every request, counted) and `pacing` (the global limit
    every request waits for, this process's own bucket until a shared one is put in with
    `pacing.use`)."""

    boards: BoardRenderer
    readers: ReaderPool
    direct_messages: DirectMessages
    ending_buttons: list[EndingButton]
    turn_buttons: list[TurnButton]
    after_endings: list[AfterEnding]
    bot_turns: list[BotTurn]
    play_move: PlayMove | None
    open_picker: OpenPicker | None
    opener: EventOpener
    rejections: Rejections
    pacing: Pacing

    def __init__(self, *, pace: Pace | None = None, **options: Any) -> None:
        #: Discord's 4xx answers to this process, counted for `/metrics` and its alarm.
        self.rejections = Rejections()
        #: Discord's global limit: every global-limited request waits for its slot.
        self.pacing = Pacing.local(Pace() if pace is None else pace)
        options.setdefault("http_trace", self.pacing.attach(self.rejections.trace()))
        super().__init__(**options)
        self.boards = BoardRenderer()
        self.readers = ReaderPool()
        self.direct_messages = DirectMessages(self)
        self.ending_buttons = []
        self.turn_buttons = []
        self.after_endings = []
        self.bot_turns = []
        self.play_move = None
        self.open_picker = None
        #: Commands this bot leaves out of its tree, so never publishes (`withhold`), each
        #: with the sentence that answers a member whose client still offers it.
        self.withheld: dict[str, Sentence] = {}
        self._service: GameService | None = None

    def withhold(self, name: str, why: Sentence) -> None:
        """Take the top-level command `name` out of the tree, so that it is not published
        (a command this bot cannot serve, such as `/computer` without an engine), and
        answer `why` to a member who still sends it: Discord keeps showing a removed global
        command for a while, and a client may have it cached."""
        self.tree.remove_command(name)
        self.withheld[name] = why

    def board_view(self, game: GameSnapshot, lang: str) -> discord.ui.View | None:
        """The buttons under a post of `game`'s board, labelled in `lang`: after its ending
        the ending's (a game ends in several places, a mating move, a resignation, a
        time-out, ...: each posts its ending with this view), while it goes on the turn's;
        None if no feature loaded offers one."""
        builds = self.ending_buttons if game.outcome is not None else self.turn_buttons
        if game.outcome is None and not game.is_active:
            return None
        items = [item for build in builds if (item := build(game, lang)) is not None]
        if not items:
            return None
        view = discord.ui.View(timeout=None)
        for item in items:
            view.add_item(item)
        return view

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service

    async def channel(
        self, channel_id: int
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel:
        """A channel or thread by id: the cached one, else Discord's (`discord.HTTPException`
        if it is gone or the bot may not see it)."""
        return self.get_channel(channel_id) or await self.fetch_channel(channel_id)

    async def channel_if_there(
        self, channel_id: int
    ) -> discord.abc.GuildChannel | discord.Thread | discord.abc.PrivateChannel | None:
        """A channel or thread by id, or None if it is gone or the bot may not see it. One
        Discord says is gone (404, Unknown Channel: a moderator deleted a game's thread) is
        remembered by the service, and not asked for again by any process."""
        cached = self.get_channel(channel_id)
        if cached is not None:
            return cached
        if await self.service.lost_channels.lost(channel_id):
            return None
        try:
            return await self.fetch_channel(channel_id)
        except discord.NotFound as error:
            if error.code == UNKNOWN_CHANNEL:
                log.info("channel %s is gone; not asked for again", channel_id)
                await self.service.lost_channels.lose(channel_id)
        except discord.HTTPException as error:
            log.info("channel %s cannot be reached: %s", channel_id, error)
        return None

    async def post_language(self, guild_id: int | None) -> str:
        """The language of the bot's public posts in a server: the one its administrators
        chose with `/language`, else the server's language in Discord."""
        if guild_id is None:
            return SOURCE_LANGUAGE
        chosen = await self.service.servers.language(guild_id)
        if chosen is not None:
            return chosen
        guild = self.get_guild(guild_id)
        return language_of(None if guild is None else guild.preferred_locale)

    async def server_zone(self, guild_id: int | None) -> zoneinfo.ZoneInfo:
        """The zone a server's records and digests are dated in: the one its
        administrators chose with `/timezone`, else the zone of its posts' language."""
        language = await self.post_language(guild_id)
        if guild_id is None:
            return default_zone(language)
        return await self.service.servers.zone(guild_id, language)


def host_of(interaction: discord.Interaction[Any]) -> GameBot:
    """The bot an interaction came to."""
    return cast(GameBot, interaction.client)


class Feature(commands.Cog):
    """A feature module's cog: it holds the bot, and registers its restart-proof buttons
    (`BUTTONS`) while loaded, so a button and its commands come and go together."""

    BUTTONS: ClassVar[tuple[type[discord.ui.DynamicItem[Any]], ...]] = ()

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        if self.BUTTONS:
            self.bot.add_dynamic_items(*self.BUTTONS)

    async def cog_unload(self) -> None:
        if self.BUTTONS:
            self.bot.remove_dynamic_items(*self.BUTTONS)
