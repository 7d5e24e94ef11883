"""The bot object: wiring of settings, database, service, buttons, commands and the clock task.

`create_bot` does nothing at import and nothing on the network until started,
so tests can build as many bots as they like against a fake Discord.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from typing import Any

import discord
from discord.ext import commands

from render import describe, render_board
from rules import Color

from .config import Settings
from .db import Database
from .services import DeadlineScheduler, GameService, GameView

log = logging.getLogger(__name__)
#: Threads that render boards. Rendering holds the GIL for most of its time, so more threads
#: add no speed; but every thread that allocates images gets its own glibc malloc arena, and
#: with the default executor (up to 32 threads) 50 busy games took the bot from 110 to 330 MiB.
RENDER_THREADS = 2


class ShogiBot(commands.Bot):
    """A discord.py bot that plays correspondence shogi through a `GameService`."""

    def __init__(
        self,
        settings: Settings,
        *,
        database: Database | None = None,
        clock: Callable[[], datetime] | None = None,
        sync_global: bool = False,
        **options: Any,
    ) -> None:
        # Only guild and channel events: the bot reads no messages (everything comes as an
        # interaction), so it does not ask Discord for every message posted in the server
        # (MESSAGE_CREATE would be half the gateway traffic of a busy game channel).
        options.setdefault("intents", discord.Intents(guilds=True))
        options.setdefault("help_command", None)
        super().__init__(command_prefix=commands.when_mentioned, **options)
        self.settings = settings
        self.sync_global = sync_global
        self._clock = clock
        self._database = database
        self._owns_database = database is None
        self._service: GameService | None = None
        self._scheduler: DeadlineScheduler | None = None
        self._warm_up: asyncio.Task[int] | None = None
        self._renderer: ThreadPoolExecutor | None = None

    @property
    def service(self) -> GameService:
        if self._service is None:
            raise RuntimeError("the bot is not set up yet")
        return self._service

    async def setup_hook(self) -> None:
        from .cogs.games import GamesCog
        from .events import DiscordEvents
        from .views.buttons import DYNAMIC_ITEMS

        if self._database is None:
            self._database = await Database.open(self.settings.database_path)
        kwargs: dict[str, Any] = {"events": DiscordEvents(self)}
        if self._clock is not None:
            kwargs["clock"] = self._clock
        self._service = GameService(self._database, **kwargs)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.add_cog(GamesCog(self))
        self._scheduler = DeadlineScheduler(self._service)
        self._scheduler.start()
        # Replay recently active games into the cache in the background, so the first
        # move after a restart does not pay for a full replay.
        self._warm_up = asyncio.get_running_loop().create_task(
            self._service.warm_up(limit=200), name="warm-up"
        )
        await self._sync_commands()

    async def _sync_commands(self) -> None:
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("synced %d commands to guild %s", len(synced), guild_id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("synced %d commands globally", len(synced))

    async def board_file(self, game: GameView, *, perspective: Color | None = None) -> discord.File:
        """The game's board as a PNG attachment with alt text, rendered off the event loop."""
        rules_game = game.game
        position = rules_game.position
        last = rules_game.moves[-1] if rules_game.moves else None
        text = game.last_move_text
        written = (text.japanese, text.western) if last is not None and text is not None else None
        # Without the text, the alt text falls back to USI rather than replaying the game.

        def work() -> tuple[bytes, str]:
            png = render_board(
                position,
                last_move=last,
                perspective=Color.SENTE if perspective is None else perspective,
                sente_name=game.sente.name,
                gote_name=game.gote.name,
            )
            return png, describe(position, last, written=written)

        if self._renderer is None:
            self._renderer = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="render")
        png, alt = await asyncio.get_running_loop().run_in_executor(self._renderer, work)
        return discord.File(io.BytesIO(png), filename=f"game-{game.id}.png", description=alt[:1000])

    async def close(self) -> None:
        if self._warm_up is not None and not self._warm_up.done():
            self._warm_up.cancel()
            await asyncio.gather(self._warm_up, return_exceptions=True)
        if self._scheduler is not None:
            await self._scheduler.stop()
        await super().close()
        if self._renderer is not None:
            self._renderer.shutdown(wait=False, cancel_futures=True)
            self._renderer = None
        if self._database is not None and self._owns_database:
            await self._database.close()


def create_bot(settings: Settings, **client_options: Any) -> ShogiBot:
    """Build the bot (no network, no database until it starts).

    Options: `database` (an open `Database` to use instead of the settings' path),
    `clock` (for tests), `sync_global`, and any discord.py client option such as
    `intents` or `guild_ready_timeout`.
    """
    return ShogiBot(settings, **client_options)
