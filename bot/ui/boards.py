"""Board images, game animations, rating and evaluation charts as Discord attachments,
rendered off the event loop: boards and charts in one small pool of threads, animations
in another, so that a long game's GIF never queues a board behind it."""

from __future__ import annotations

import asyncio
import functools
import io
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TypeVar

import discord

from bot.services import CAP, Analysis, GameSnapshot, Mark, Profile, ShownPosition
from bot.services.stats import Timing
from render import (
    BoardOptions,
    Ending,
    GifTooLarge,
    Marks,
    frames_within,
    render_board,
    render_evaluation_chart,
    render_gif,
    render_rating_chart,
)
from render.arrows import Arrow, render_arrows
from rules import Color, Handicap, Move, Position, Termination

from . import text

#: Threads that render boards. Rendering holds the GIL for most of its time, so more threads
#: add no speed; but every thread that allocates images gets its own glibc malloc arena, and
#: with the default executor (up to 32 threads) many busy games multiply the bot's memory.
RENDER_THREADS = 2
#: Threads that build animations, apart from the boards' (a long game's takes seconds):
#: at most this many are built at once in the process, the others wait their turn there.
GIF_THREADS = 1
#: Members whose animations may wait or be built at once; one more is asked to come back
#: later, so that a game's ending never waits behind more than this many animations.
GIF_QUEUE = 4
#: Animations kept, newest used last: a finished game's never changes, so the one posted
#: at its end also answers `/export format:gif` and a second export. A 120-move game's is
#: under a megabyte, so the cache stays under ten.
GIF_CACHE_SIZE = 8
#: The most frames of an animation, whatever the upload limit: a longer game shows its
#: last moves (a frame costs some milliseconds to draw and a few kilobytes).
MAX_GIF_FRAMES = 1001
#: Room left under the upload limit for the rest of the message (the board beside it).
UPLOAD_MARGIN = 256 * 1024

_T = TypeVar("_T")
_GifKey = tuple[int, int, str, str, bool, int]
_Built = tuple[bytes, int]


class AnimationBusy(Exception):
    """The member already waits for an animation being made (one at a time each), or
    `crowded`: `GIF_QUEUE` members do (the endings' animations would wait behind them)."""

    def __init__(self, *, crowded: bool = False) -> None:
        super().__init__(crowded)
        self.crowded = crowded


@dataclass(frozen=True, slots=True)
class Animation:
    """A game's animation as an attachment; `shown_moves` is how many of the game's last
    moves it shows when the whole game would not fit the upload limit, else None."""

    file: discord.File
    shown_moves: int | None


def image_names(lang: str, game: GameSnapshot) -> tuple[str, str]:
    """The players' names as a board of the game draws them (sente's, gote's), with their
    side in a handicap game (`上手 alice`)."""
    return (
        text.image_name(lang, Color.SENTE, game.sente.name, game.handicap),
        text.image_name(lang, Color.GOTE, game.gote.name, game.handicap),
    )


def ending_of(lang: str, game: GameSnapshot) -> Ending | None:
    """How the final board shows the game's end in `lang`, or None while it goes on."""
    outcome = game.outcome
    if outcome is None:
        return None
    resigned = outcome.loser if outcome.termination is Termination.RESIGNATION else None
    return Ending(
        text.image_result(lang, game),
        winner=outcome.winner,
        mate=outcome.termination is Termination.CHECKMATE and game.last_move is not None,
        resigned=resigned,
    )


def position_ending(lang: str, shown: ShownPosition) -> Ending | None:
    """How a record's board shows its end at its last move, or None (see `ending_of`)."""
    outcome, line = shown.outcome, text.position_ending(lang, shown)
    if outcome is None or line is None:
        return None
    resigned = outcome.loser if outcome.termination is Termination.RESIGNATION else None
    return Ending(
        line,
        winner=outcome.winner,
        mate=outcome.termination is Termination.CHECKMATE and shown.last_move is not None,
        resigned=resigned,
    )


class BoardRenderer:
    """Renders a game's board, its animation and a member's rating chart in a small pool
    of threads; `close()` when the bot stops."""

    def __init__(self) -> None:
        self._pool: ThreadPoolExecutor | None = None
        self._gif_pool: ThreadPoolExecutor | None = None
        #: Each animation with the frame it starts at (later than planned if the game's
        #: frames ran larger than `frames_within` plans).
        self._gifs: OrderedDict[_GifKey, _Built] = OrderedDict()
        #: Animations being built, so that a second request for one waits for it.
        self._building: dict[_GifKey, asyncio.Future[_Built]] = {}
        #: Members waiting for an animation they asked for (the endings' are not counted).
        self._waiting: set[int] = set()
        #: How long rendering took, by image kind (for the operator's `/metrics`).
        self.timings: dict[str, Timing] = {"board": Timing(), "gif": Timing(), "chart": Timing()}

    async def _run(self, work: Callable[[], _T], kind: str = "board") -> _T:
        if kind == "gif":
            if self._gif_pool is None:
                self._gif_pool = ThreadPoolExecutor(GIF_THREADS, thread_name_prefix="render-gif")
            pool = self._gif_pool
        else:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(RENDER_THREADS, thread_name_prefix="render")
            pool = self._pool
        started = time.perf_counter()
        result = await asyncio.get_running_loop().run_in_executor(pool, work)
        self.timings[kind].observe(time.perf_counter() - started)
        return result

    async def file(
        self,
        game: GameSnapshot,
        lang: str,
        *,
        perspective: Color | None = None,
        marks: Marks | None = None,
        alt: str | None = None,
    ) -> discord.File:
        """The game's board as a PNG attachment, its caption and alt text in `lang`; a
        finished game's shows how it ended. The picker's gives its `marks` and the `alt`
        text naming them."""
        position = game.game.position
        last = game.last_move
        sente, gote = image_names(lang, game)
        ending = ending_of(lang, game)
        caption = None if ending is not None else text.image_caption(lang, game)
        if alt is None:
            alt = text.board_alt_text(lang, game)
        options: BoardOptions = {
            "last_move": last,
            "perspective": Color.SENTE if perspective is None else perspective,
            "sente_name": sente,
            "gote_name": gote,
            "caption": caption,
            "ending": ending,
            "marks": marks,
        }
        return await self._png(position, options, f"game-{game.id}.png", alt)

    async def position_file(
        self, shown: ShownPosition, lang: str, *, perspective: Color = Color.SENTE
    ) -> discord.File:
        """A position from an SFEN or a record as a PNG attachment, with the record's
        names when it gives them, its caption and alt text in `lang`."""
        ending = position_ending(lang, shown)
        caption = None if ending is not None else text.position_image_caption(lang, shown)
        alt = text.position_alt_text(lang, shown)
        # A side the record names nobody for is named in the reader's language; in a
        # handicap game each side is named uwate or shitate.
        names = {Color.SENTE: shown.sente, Color.GOTE: shown.gote}
        for color, name in names.items():
            if shown.handicap is not Handicap.EVEN:
                written = "" if name is None else name
                names[color] = text.image_name(lang, color, written, shown.handicap).strip()
            elif name is None:
                names[color] = text.side_label(lang, color)
        options: BoardOptions = {
            "last_move": shown.last_move,
            "perspective": perspective,
            "sente_name": names[Color.SENTE],
            "gote_name": names[Color.GOTE],
            "caption": caption,
            "ending": ending,
        }
        return await self._png(shown.position, options, "position.png", alt)

    async def arrows_file(
        self, position: Position, arrows: Sequence[Arrow], lang: str, alt: str
    ) -> discord.File:
        """`position` with `arrows` (the explorer's board), its sides named in `lang`."""
        sente, gote = (text.side_label(lang, color) for color in (Color.SENTE, Color.GOTE))
        png = await self._run(
            lambda: render_arrows(position, arrows, sente_name=sente, gote_name=gote)
        )
        return discord.File(io.BytesIO(png), filename="explorer.png", description=alt)

    async def problem_file(
        self,
        position: Position,
        *,
        attacker: Color,
        caption: str,
        alt: str,
        filename: str,
        last_move: Move | None = None,
    ) -> discord.File:
        """A mate problem's position (or its final mate) as a PNG attachment, the attacker
        at the bottom, as problems are printed."""
        options: BoardOptions = {"perspective": attacker, "caption": caption}
        if last_move is not None:
            options["last_move"] = last_move
        return await self._png(position, options, filename, alt)

    async def _png(
        self, position: Position, options: BoardOptions, filename: str, alt: str
    ) -> discord.File:
        """The board drawn in a render thread, as an attachment with its alt text."""
        png = await self._run(lambda: render_board(position, **options))
        return discord.File(io.BytesIO(png), filename=filename, description=alt)

    async def animation(
        self,
        game: GameSnapshot,
        lang: str,
        *,
        limit: int = discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES,
        member: int | None = None,
    ) -> Animation:
        """The game from its start to its current move as an animated GIF under `limit`
        bytes, the last frame showing how it ended if it has; built once per game, move
        and language. A game too long for the limit shows its last moves, so as many
        frames as fit (the bytes of a frame are bounded, see `frames_within`) and the
        build that cannot fit is never started; one whose frames run larger than planned
        stops at the limit and is built again from as late a move as its frames showed
        will fit (a second overflow raises `GifTooLarge`). With `member`, raises
        `AnimationBusy` while that member waits for another animation, or `GIF_QUEUE`
        members wait."""
        moves = game.game.ply  # the frames are of these moves
        framed = min(frames_within(limit - UPLOAD_MARGIN), MAX_GIF_FRAMES)
        first_frame = max(0, moves + 1 - framed)
        key = (game.id, game.ply, game.position_mark, lang, game.outcome is not None, first_frame)
        built = self._gifs.get(key)
        if built is None:
            work = self._gif_work(game, lang, first_frame, limit - UPLOAD_MARGIN)
            if member is None:
                built = await self._built(key, work)
            elif member in self._waiting:
                raise AnimationBusy
            elif len(self._waiting) >= GIF_QUEUE:
                raise AnimationBusy(crowded=True)
            else:
                self._waiting.add(member)
                try:
                    built = await self._built(key, work)
                finally:
                    self._waiting.discard(member)
        if key in self._gifs:  # kept when built (see `_keep`), unless failed
            self._gifs.move_to_end(key)
        data, first_frame = built
        file = discord.File(
            io.BytesIO(data),
            filename=f"game-{game.id}.gif",
            description=text.animation_alt_text(lang, game),
        )
        return Animation(file, moves - first_frame if first_frame else None)

    async def _built(self, key: _GifKey, work: Callable[[], _Built]) -> _Built:
        """The animation of `key`, built once however many ask for it at the same time; a
        build goes on (and is kept) if the one who asked first stops waiting for it."""
        task = self._building.get(key)
        if task is None:
            task = asyncio.ensure_future(self._run(work, "gif"))
            self._building[key] = task
            task.add_done_callback(functools.partial(self._keep, key))
        return await asyncio.shield(task)

    def _keep(self, key: _GifKey, task: asyncio.Future[_Built]) -> None:
        del self._building[key]
        if task.cancelled() or task.exception() is not None:
            return  # those waiting hear of it; nothing to keep
        self._gifs[key] = task.result()
        while len(self._gifs) > GIF_CACHE_SIZE:
            self._gifs.popitem(last=False)

    @staticmethod
    def _gif_work(
        game: GameSnapshot, lang: str, first_frame: int = 0, max_bytes: int | None = None
    ) -> Callable[[], _Built]:
        """The rendering of the animation as a function for the pool, giving the GIF and
        the frame it starts at: everything it needs is read from the snapshot here, on
        the event loop; the frames' captions (a long game has a thousand, pure functions
        of the language and the move numbers) are worded in the worker, which keeps that
        time off the loop."""
        start = game.game.start.copy()  # the worker thread gets its own
        moves = list(game.game.moves)
        ending = ending_of(lang, game)
        framed = len(moves) + (0 if ending is not None else 1)
        numbering = game.numbering
        sente, gote = image_names(lang, game)
        handicap = game.handicap

        def work() -> _Built:
            turn = start.turn
            captions = []
            for ply in range(framed):
                captions.append(text.frame_caption(lang, numbering.number(ply), turn, handicap))
                turn = turn.opponent

            def build(first: int) -> bytes:
                return render_gif(
                    start,
                    moves,
                    sente_name=sente,
                    gote_name=gote,
                    captions=captions,
                    ending=ending,
                    first_frame=first,
                    max_bytes=max_bytes,
                )

            try:
                return build(first_frame), first_frame
            except GifTooLarge as large:
                # The frames that fitted, less a tenth: later frames may be larger.
                fitting = max(1, (large.frames - 1) * 9 // 10)
                later = max(first_frame + 1, len(moves) + 1 - fitting)
                return build(later), later

        return work

    async def rating_chart(self, profile: Profile, name: str, lang: str) -> discord.File:
        """The profile's rating history as a PNG attachment, titled and described in `lang`."""
        ratings = [point.rating for point in profile.history]
        title = text.chart_title(lang, name)
        png = await self._run(lambda: render_rating_chart(ratings, title=title), "chart")
        return discord.File(
            io.BytesIO(png),
            filename=f"rating-{profile.user_id}.png",
            description=text.chart_description(lang, name, profile),
        )

    async def evaluation_chart(self, analysis: Analysis, lang: str) -> discord.File:
        """An analysed game's evaluation chart, its mistakes and blunders marked, as a PNG
        attachment titled and described in `lang`."""
        marks = analysis.marks
        mistakes = [m.ply for m in marks if m.mark is Mark.MISTAKE]
        blunders = [m.ply for m in marks if m.mark is Mark.BLUNDER]
        title = text.evaluation_chart_title(lang, analysis.game)
        before = analysis.game.numbering.before

        def work() -> bytes:
            return render_evaluation_chart(
                analysis.scores,
                cap=CAP,
                mistakes=mistakes,
                blunders=blunders,
                title=title,
                moves_before=before,
            )

        png = await self._run(work, "chart")
        return discord.File(
            io.BytesIO(png),
            filename=f"analysis-{analysis.game.id}.png",
            description=text.evaluation_chart_description(lang, analysis.game),
        )

    def close(self) -> None:
        for pool in (self._pool, self._gif_pool):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
        self._pool = self._gif_pool = None


def upload_size(file: discord.File) -> int:
    """The bytes an attachment will upload (checked against the server's upload limit,
    which a long game's animation could pass where a board never does)."""
    stream = file.fp
    position = stream.tell()
    size = stream.seek(0, io.SEEK_END)
    stream.seek(position)
    return size
