"""The game's animation as the bot attaches it: a real GIF of the game up to its current
move, built once per game, move and language, and the cache bounded."""

from __future__ import annotations

import asyncio
import io

import pytest
from PIL import Image

import render
from bot.ui.boards import (
    GIF_CACHE_SIZE,
    GIF_QUEUE,
    UPLOAD_MARGIN,
    AnimationBusy,
    BoardRenderer,
    ending_of,
    upload_size,
)
from bot.ui.threads import deserves_animation
from render import frames_within
from rules import Color, Game, Outcome, Termination
from tests.support.long_game import long_game
from tests.support.snapshots import game_view

OPENING = ["7g7f", "3c3d", "8h2b+", "3a2b"]
#: Long enough for a game view at each of more plies than the cache keeps.
LONGER = ["7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b", "2e2d", "2c2d"]


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The number of moves of each GIF actually rendered (not taken from the cache)."""
    rendered: list[int] = []
    real = render.render_gif

    def counting(*args: object, **kwargs: object) -> bytes:
        rendered.append(len(args[1]))  # type: ignore[arg-type]
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("bot.ui.boards.render_gif", counting)
    return rendered


async def test_a_gif_of_the_game_so_far_rendered_once(renders: list[int]) -> None:
    renderer = BoardRenderer()
    try:
        view = game_view(Game(moves=OPENING))
        first = (await renderer.animation(view, "en")).file
        again = (await renderer.animation(view, "en")).file
        japanese = (await renderer.animation(view, "ja")).file
    finally:
        renderer.close()
    data = first.fp.read()
    assert again.fp.read() == data and upload_size(japanese) > 0
    assert renders == [4, 4]  # once per language
    with Image.open(io.BytesIO(data)) as gif:
        assert gif.format == "GIF" and getattr(gif, "n_frames", 1) == len(OPENING) + 1
    assert first.filename == "game-7.gif"
    assert first.description is not None and "Sente: king 5i" in first.description


async def test_the_cache_keeps_the_latest_games_only(renders: list[int]) -> None:
    renderer = BoardRenderer()
    views = [game_view(Game(moves=LONGER[:n])) for n in range(GIF_CACHE_SIZE + 1)]
    try:
        for view in views:
            await renderer.animation(view, "en")
        await renderer.animation(views[-1], "en")  # kept
        await renderer.animation(views[0], "en")  # the oldest was dropped
    finally:
        renderer.close()
    assert len(renders) == len(views) + 1 and renders[-1] == 0


def test_the_ending_drawn_and_who_gets_an_animation() -> None:
    moves = Game(moves=OPENING)
    resigned = game_view(moves, Outcome(Termination.RESIGNATION, Color.GOTE))
    ending = ending_of("ja", resigned)
    assert ending is not None and ending.resigned is Color.SENTE and not ending.mate
    assert ending.winner is Color.GOTE and "投了" in ending.result
    assert ending_of("en", game_view(moves)) is None
    assert deserves_animation(resigned)
    assert not deserves_animation(game_view(moves))  # still going
    assert not deserves_animation(
        game_view(Game(moves=OPENING[:1]), Outcome(Termination.ABORT, None))
    )
    assert not deserves_animation(game_view(Game(), Outcome(Termination.RESIGNATION, Color.GOTE)))


async def test_a_game_too_long_for_the_limit_shows_its_last_moves(renders: list[int]) -> None:
    moves = [move.usi() for move in long_game(60, seed=9)]
    view = game_view(Game(moves=moves))
    limit = UPLOAD_MARGIN + 400_000
    renderer = BoardRenderer()
    try:
        whole = await renderer.animation(view, "en")
        cut = await renderer.animation(view, "en", limit=limit)
    finally:
        renderer.close()
    assert whole.shown_moves is None
    framed = frames_within(limit - UPLOAD_MARGIN)
    assert cut.shown_moves == framed - 1 < len(moves)
    data = cut.file.fp.read()
    assert len(data) <= limit - UPLOAD_MARGIN
    with Image.open(io.BytesIO(data)) as gif:
        assert getattr(gif, "n_frames", 1) == framed
    assert renders == [60, 60]  # each built from the whole game, the second drawn from later


async def test_one_animation_at_a_time_per_member_and_each_built_once(
    renders: list[int],
) -> None:
    renderer = BoardRenderer()
    views = [game_view(Game(moves=LONGER[:n])) for n in (6, 8)]
    try:
        first = asyncio.ensure_future(renderer.animation(views[0], "en", member=1))
        await asyncio.sleep(0)
        with pytest.raises(AnimationBusy):
            await renderer.animation(views[1], "en", member=1)
        same = asyncio.ensure_future(renderer.animation(views[0], "en", member=2))
        other = await renderer.animation(views[1], "en", member=3)
        done = await asyncio.gather(first, same)
        again = await renderer.animation(views[1], "en", member=1)  # free again, and cached
    finally:
        renderer.close()
    assert done[0].file.fp.read() == done[1].file.fp.read()
    assert other.file.fp.read() == again.file.fp.read()
    assert sorted(renders) == [6, 8]  # the same animation asked twice at once: built once


async def test_members_past_the_queue_are_asked_to_come_back(renders: list[int]) -> None:
    renderer = BoardRenderer()
    views = [game_view(Game(moves=LONGER[:n])) for n in range(1, GIF_QUEUE + 2)]
    try:
        waiting = [
            asyncio.ensure_future(renderer.animation(view, "en", member=member))
            for member, view in enumerate(views[:GIF_QUEUE])
        ]
        await asyncio.sleep(0)
        with pytest.raises(AnimationBusy) as crowded:
            await renderer.animation(views[-1], "en", member=99)
        ending = await renderer.animation(views[-1], "en")  # an ending's is never refused
        await asyncio.gather(*waiting)
        later = await renderer.animation(views[-1], "en", member=99)
    finally:
        renderer.close()
    assert crowded.value.crowded and later.file.fp.read() == ending.file.fp.read()
    assert len(renders) == GIF_QUEUE + 1


async def test_frames_larger_than_planned_start_the_animation_later(
    renders: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("render.animate.FRAME_BYTES", 500)  # far too hopeful
    moves = [move.usi() for move in long_game(60, seed=9)]
    view = game_view(Game(moves=moves))
    limit = UPLOAD_MARGIN + 200_000
    renderer = BoardRenderer()
    try:
        cut = await renderer.animation(view, "en", limit=limit)
    finally:
        renderer.close()
    data = cut.file.fp.read()
    assert len(data) <= limit - UPLOAD_MARGIN
    assert cut.shown_moves is not None and 0 < cut.shown_moves < len(moves)
    with Image.open(io.BytesIO(data)) as gif:
        assert getattr(gif, "n_frames", 1) == cut.shown_moves + 1
    assert renders == [60, 60]  # stopped once at the limit, then built from later
