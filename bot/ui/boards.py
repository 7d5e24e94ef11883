"""Board images as Discord attachments, rendered off the event loop."""

from __future__ import annotations

import asyncio
import io
from concurrent.futures import ThreadPoolExecutor

import discord

from bot.services import GameSnapshot
from render import render_board
from rules import Color

from . import text

#: Threads that render boards. Rendering holds the GIL for most of its time, so more threads
#: add no speed; but every thread that allocates images gets its own glibc malloc arena, and
#: with the default executor (up to 32 threads) many busy games multiply the bot's memory.
RENDER_THREADS = 2
ALT_TEXT_LIMIT = 1000


class BoardRenderer:
    """Renders a game's board in a small pool of threads; `close()` when the bot stops."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None

    async def file(
        self, game: GameSnapshot, lang: str, *, perspective: Color | None = None
    ) -> discord.File:
        """The game's board as a PNG attachment, its caption and alt text in `lang`."""
        position = game.game.position
        last = game.last_move
        sente, gote = game.sente.name, game.gote.name
        caption = text.image_caption(lang, game)
        alt = text.board_alt_text(lang, game)

        def work() -> bytes:
            return render_board(
                position,
                last_move=last,
                perspective=Color.SENTE if perspective is None else perspective,
                sente_name=sente,
                gote_name=gote,
                caption=caption,
            )

        if self._pool is None:
            self._pool = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="render")
        png = await asyncio.get_running_loop().run_in_executor(self._pool, work)
        return discord.File(
            io.BytesIO(png), filename=f"game-{game.id}.png", description=alt[:ALT_TEXT_LIMIT]
        )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
