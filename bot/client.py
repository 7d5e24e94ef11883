"""The bot: settings, database, game service, feature extensions, the clock task.

It loads the features by extension name and imports none of them, so adding a
feature is one line in `EXTENSIONS`. `create_bot` does nothing at import and
nothing on the network until started, so tests can build as many bots as they
like against a fake Discord.
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from .config import Settings
from .db import Database, ShardScope, open_database
from .engine import EnginePool
from .monitoring import Monitor
from .publishing import PublishReport, announce_ready, publish_at_start
from .services import DeadlineScheduler, GameService, OutboxSender
from .services.budgets import from_settings as budgets_from
from .services.play.store import ENDING_LEASE, utc_now
from .services.stats import Timing
from .ui.errors import GameTree, answer_unknown_button
from .ui.event_games import open_event_game
from .ui.host import GameBot
from .ui.i18n import CommandTranslator
from .ui.openings import Opener
from .ui.pacing import shared_limiter

log = logging.getLogger(__name__)

#: The feature modules, each with its commands and buttons and an `async def setup(bot)`.
EXTENSIONS = (
    "bot.cogs.club.challenges",
    "bot.cogs.play.moves",
    "bot.cogs.play.mentions",
    "bot.cogs.play.picker",
    "bot.cogs.records.board",
    "bot.cogs.play.endings",
    "bot.cogs.play.impasse",
    "bot.cogs.play.takebacks",
    "bot.cogs.play.forecasts",
    "bot.cogs.clock.announcements",
    "bot.cogs.records.exports",
    "bot.cogs.club.help",
    "bot.cogs.club.settings",
    "bot.cogs.club.preferences",
    "bot.cogs.play.notes",
    "bot.cogs.ratings.standings",
    "bot.cogs.clock.vacations",
    "bot.cogs.records.replays",
    "bot.cogs.computer.opponent",
    "bot.cogs.computer.analysis",
    "bot.cogs.play.your_move",
    "bot.cogs.explorer.explorer",
    "bot.cogs.problems.tsume",
    "bot.cogs.tournaments.tournaments",
    "bot.cogs.tournaments.team_matches",
)
WARM_UP_GAMES = 200


class ShogiBot(GameBot):
    """A discord.py bot that plays correspondence shogi through a `GameService`."""

    def __init__(
        self,
        settings: Settings,
        *,
        database: Database | None = None,
        clock: Callable[[], datetime] | None = None,
        sync_global: bool = False,
        scope: ShardScope | None = None,
        **options: Any,
    ) -> None:
        # Guild and channel events, and guild messages (not privileged) for moves typed by
        # mentioning the bot; never their content (privileged): Discord gives the text of
        # the messages that mention the bot without it, and the rest are no business of ours.
        options.setdefault("intents", discord.Intents(guilds=True, guild_messages=True))
        # No message cache: nothing reads it (a move written by mention is read from its
        # event, announcements ask Discord for a channel's history), and discord.py's default
        # keeps the last thousand messages of every busy game thread, each with its author.
        options.setdefault("max_messages", None)
        options.setdefault("help_command", None)
        options.setdefault("tree_cls", GameTree)
        # discord.py warns at the first client that voice needs PyNaCl and davey; a shogi
        # bot never joins a voice channel, and the warnings would only puzzle its owner.
        discord.VoiceClient.warn_nacl = False
        discord.VoiceClient.warn_dave = False
        if scope is not None:  # read by `AutoShardedBot` (a plain `Bot` takes no such options)
            options.update(shard_ids=sorted(scope.shard_ids), shard_count=scope.shard_count)
        super().__init__(command_prefix=commands.when_mentioned, pace=settings.pace, **options)
        self.settings = settings
        self.sync_global = sync_global
        #: The shards this process runs (None: all of them, in one process).
        self.scope = scope
        self.opener: Opener = Opener(self, functools.partial(open_event_game, self))
        self.after_endings.append(self.opener.after_ending)  # a place under the cap
        self._clock = clock
        self._database = database
        self._owns_database = database is None
        self._scheduler: DeadlineScheduler | None = None
        self._digests: DeadlineScheduler | None = None
        self._outbox: OutboxSender | None = None
        self._monitor: Monitor | None = None
        self._closing_down: asyncio.Task[None] | None = None
        self._warm_up: asyncio.Task[int] | None = None
        self._publication: PublishReport | None = None
        self._announced = False
        self._engine: EnginePool | None = None

    async def setup_hook(self) -> None:
        await self.load_features()
        self.add_listener(answer_unknown_button, "on_interaction")
        assert self._service is not None
        # One of several processes looks again every few minutes even with nothing due:
        # a peer may have died with an ending unposted, whose lease then runs out.
        max_sleep = timedelta(hours=1) if self.scope is None else 2 * ENDING_LEASE
        self._scheduler = DeadlineScheduler(self._service.deadlines, max_sleep=max_sleep)
        self._scheduler.start()
        # The daily digests wait for the next one due; a change of preferences in another
        # process is seen within `max_sleep`.
        self._digests = DeadlineScheduler(
            self._service.digests, max_sleep=max_sleep, name="digests"
        )
        self._digests.start()
        # What the bot sends on its own goes out from the outbox at the operator's pace.
        self._outbox = OutboxSender(self._service.outbox, rate=self.settings.outbox_rate)
        self._outbox.start()
        if self.settings.metrics_port is not None:
            self._monitor = Monitor(self, self.settings.metrics_port)
            await self._monitor.start()
        # Replay recently active games into the cache in the background, so the first
        # move after a restart does not pay for a full replay.
        self._warm_up = asyncio.get_running_loop().create_task(
            self._service.games.warm_up(limit=WARM_UP_GAMES), name="warm-up"
        )
        await self._publish_commands()

    @property
    def scheduler(self) -> DeadlineScheduler | None:
        """The deadline task, once the bot is set up (the operator's `/healthz` reads it)."""
        return self._scheduler

    @property
    def digest_scheduler(self) -> DeadlineScheduler | None:
        """The daily digests' task, once the bot is set up."""
        return self._digests

    @property
    def outbox_sender(self) -> OutboxSender | None:
        """The task that sends what the outbox holds, once the bot is set up."""
        return self._outbox

    async def sends_settled(self) -> None:
        """Wait until everything this process decided to send on its own has gone out:
        the direct messages being decided are queued, and the outbox's sender found
        nothing more to send (for tests, and tools that stop after a burst)."""
        while True:
            await self.direct_messages.close()
            await self.service.store.events.drain()
            if self._outbox is not None:
                await self._outbox.settled()
            if not self.direct_messages.deciding:
                return

    @property
    def render_timings(self) -> dict[str, Timing]:
        """How long images took to render (the operator's `/metrics` reads it)."""
        return self.boards.timings

    async def load_features(self) -> None:
        """Open the database, build the service and load every feature: after this the
        command tree is complete (what `setup_hook` publishes, and what tests inspect)."""
        if self._database is None:
            self._database = await open_database(self.settings.database)
        shared = await shared_limiter(self.settings, self._database)
        if shared is not None:
            await self.pacing.use(shared)
            log.info("Discord's global limit is shared by every process (%s)", shared.kind)
        if self.settings.engine_path is not None:
            self._engine = EnginePool(
                self.settings.engine_path,
                self.settings.engine_options,
                jobs=self.settings.engine_jobs,
            )
        self._service = GameService(
            self._database,
            clock=self._clock or utc_now,
            engine=self._engine,
            scope=self.scope,
            shared_database=self.scope is not None,
            budgets=budgets_from(self.settings.limits),
        )
        await self.tree.set_translator(CommandTranslator())
        for extension in EXTENSIONS:
            await self.load_extension(extension)

    @property
    def publishes_commands(self) -> bool:
        """Whether this process publishes the slash commands: the one that runs shard 0.
        Commands belong to the application, not to a shard, so one process publishes
        them; every complete set of shard processes has exactly one shard 0, so no flag
        can be forgotten or given twice (two publishing at once during a deploy would
        only publish the same commands twice)."""
        return self.scope is None or 0 in self.scope.shard_ids

    async def _publish_commands(self) -> None:
        """Publish the slash commands if they changed since the last start (or if forced
        with `--sync`), so a first start shows them without a deploy step."""
        assert self._database is not None and self.application_id is not None
        if not self.publishes_commands:
            return
        self._publication = await publish_at_start(
            self.tree,
            self._database,
            application_id=self.application_id,
            dev_guild_id=self.settings.dev_guild_id,
            force=self.sync_global,
        )

    async def on_message(self, message: discord.Message, /) -> None:
        """Nothing: the bot has no prefix commands (a mention followed by a move would be
        reported as an unknown one). The features that read messages listen for them."""

    async def on_ready(self) -> None:
        """Say who the bot is, its commands and its invite link, once: `on_ready` fires
        again after every reconnect that could not resume."""
        if not self._announced:
            self._announced = True
            announce_ready(self, self._publication, publishes=self.publishes_commands)
        # The event games created before a stop that came before their threads were
        # opened (in the background, as after a start). Again after a reconnect: the one
        # opener task finds what waits, or is already at it.
        self.opener.wake()

    async def close(self) -> None:
        """Stop everything once, in order, the database last. Close can be asked twice (a
        signal's handler, then the code that started the bot): the second call waits for
        the first instead of running beside it, and is shielded, so that a caller being
        cancelled never leaves the database's thread at work after the event loop ends."""
        if self._closing_down is None:
            self._closing_down = asyncio.get_running_loop().create_task(
                self._close_down(), name="closing down"
            )
        await asyncio.shield(self._closing_down)

    async def _close_down(self) -> None:
        await self.opener.stop()  # the game being opened gets its thread stored first
        if self._monitor is not None:
            await self._monitor.stop()
            self._monitor = None
        if self._warm_up is not None and not self._warm_up.done():
            self._warm_up.cancel()
            await asyncio.gather(self._warm_up, return_exceptions=True)
        if self._scheduler is not None:
            await self._scheduler.stop()
        if self._digests is not None:
            await self._digests.stop()
        if self._outbox is not None:
            await self._outbox.stop()  # the sends under way finish; the queued ones wait
        if self._service is not None:
            await self._service.close()  # reports still being posted need the connection
        await self.direct_messages.close()  # so do direct messages still being sent
        if self._engine is not None:
            await self._engine.close()
        await super().close()
        await self.pacing.close()  # after the last request
        self.boards.close()
        await self.readers.close()
        if self._database is not None and self._owns_database:
            await self._database.close()


class ShardedShogiBot(ShogiBot, commands.AutoShardedBot):
    """The bot as one of several shard processes: discord.py's `AutoShardedBot` for the
    shards of its scope (one gateway connection each)."""


def create_bot(
    settings: Settings, *, scope: ShardScope | None = None, **client_options: Any
) -> ShogiBot:
    """Build the bot (no network, no database until it starts).

    Options: `database` (an open `Database` to use instead of the settings' path),
    `clock` (for tests), `sync_global` (publish the commands even if they look up to
    date: `--sync`), `scope` (run only these shards: `--shards`, `--shard-count`),
    and any discord.py client option such as `intents` or `guild_ready_timeout`.
    """
    if scope is not None:
        return ShardedShogiBot(settings, scope=scope, **client_options)
    return ShogiBot(settings, **client_options)
