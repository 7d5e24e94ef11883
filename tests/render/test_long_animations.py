"""Long games as GIFs: written frame by frame with a bounded memory, as small as before,
and started from a later move when the whole game would not fit an upload limit.

The memory test runs the build in a fresh interpreter and reads its peak resident size
(Pillow's pictures live outside Python's allocator, where tracemalloc does not see them)
besides tracemalloc's peak; both bounds are generous against what keeping every frame
costs (some 640 kB a frame).
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageSequence

from render import Ending, GifTooLarge, frames_within, render_gif, render_image
from render.animate import FIRST_FRAME_BYTES, FIRST_MS, FRAME_BYTES, FRAME_MS, LAST_MS
from rules import Position
from tests.render.test_animate import frames, same
from tests.support.long_game import long_game

ROOT = Path(__file__).resolve().parents[2]


def test_a_long_game_decodes_frame_by_frame_to_its_boards() -> None:
    moves = long_game(120, seed=3)
    ending = Ending("☗ wins", winner=None)
    captions = [f"Move {ply}" for ply in range(len(moves))]
    gif = render_gif(Position.initial(), moves, captions=captions, ending=ending)
    with Image.open(io.BytesIO(gif)) as image:
        assert getattr(image, "n_frames", 1) == len(moves) + 1
    decoded = frames(gif)
    position = Position.initial()
    for ply, move in enumerate(moves):
        if ply in (0, 1, 57):
            expected = render_image(
                position, last_move=moves[ply - 1] if ply else None, caption=captions[ply]
            )
            assert same(decoded[ply][0], expected), ply
        position.push(move)
    final = render_image(position, last_move=moves[-1], ending=ending)
    assert same(decoded[-1][0], final)
    assert decoded[-1][1] == LAST_MS and decoded[0][1] == FIRST_MS


def test_a_shortened_animation_starts_later_and_ends_the_same() -> None:
    moves = long_game(40, seed=5)
    captions = [f"Move {ply}" for ply in range(len(moves) + 1)]
    gif = render_gif(Position.initial(), moves, captions=captions, first_frame=30)
    decoded = frames(gif)
    assert len(decoded) == len(moves) + 1 - 30
    position = Position.initial()
    for move in moves[:30]:
        position.push(move)
    first = render_image(position, last_move=moves[29], caption=captions[30])
    assert same(decoded[0][0], first) and decoded[0][1] == FIRST_MS
    assert [ms for _frame, ms in decoded[1:-1]] == [FRAME_MS] * (len(decoded) - 2)
    for move in moves[30:]:
        position.push(move)
    last = render_image(position, last_move=moves[-1], caption=captions[-1])
    assert same(decoded[-1][0], last) and decoded[-1][1] == LAST_MS
    with pytest.raises(ValueError, match="no frame"):
        render_gif(Position.initial(), moves, first_frame=41)


def test_a_gif_of_the_frames_that_fit_is_under_the_limit() -> None:
    moves = long_game(150, seed=2)
    limit = 1_000_000
    framed = frames_within(limit)
    assert framed == 1 + (limit - FIRST_FRAME_BYTES) // FRAME_BYTES
    gif = render_gif(Position.initial(), moves, first_frame=len(moves) + 1 - framed)
    assert len(gif) <= limit
    assert len(frames(gif)) == framed
    assert frames_within(10) == 1  # a single board, however small the limit


def test_as_small_as_pillow_wrote_it() -> None:
    """Pillow's `save_all` with the same options, the reference the writer replaces."""
    moves = long_game(60, seed=4)
    gif = render_gif(Position.initial(), moves)
    position = Position.initial()
    pictures = [render_image(position)]
    for move in moves:
        position.push(move)
        pictures.append(render_image(position, last_move=move))
    buffer = io.BytesIO()
    pictures[0].save(
        buffer, "GIF", save_all=True, append_images=pictures[1:], optimize=True, disposal=1
    )
    assert len(gif) <= len(buffer.getvalue())
    ours = [frame.convert("RGB") for frame in ImageSequence.Iterator(Image.open(io.BytesIO(gif)))]
    assert len(ours) == len(pictures)
    assert all(same(a, b) for a, b in zip(ours, pictures, strict=True))


MEASURE = """
import json, resource, sys, tracemalloc
from rules import Position
from render import render_gif, warm
from tests.support.long_game import long_game
moves = long_game(int(sys.argv[1]), seed=1)
captions = [f"Move {ply}" for ply in range(len(moves) + 1)]
warm()
render_gif(Position.initial(), moves[:3], captions=captions[:4])
def peak_kb():
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM"))
before = peak_kb()
tracemalloc.start()
gif = render_gif(Position.initial(), moves, sente_name="Alice", gote_name="Bob", captions=captions)
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
print(json.dumps({"rss_mb": (peak_kb() - before) / 1024, "traced_mb": traced / 2**20,
                  "bytes": len(gif)}))
"""


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads Linux's /proc")
def test_a_long_game_builds_within_a_fixed_memory() -> None:
    plies = 400  # keeping every frame would take some 250 MB
    result = subprocess.run(
        [sys.executable, "-c", MEASURE, str(plies)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    measured = json.loads(result.stdout)
    assert measured["rss_mb"] < 100, measured
    # The GIF itself (a few MB, and the copy `getvalue` makes) and one frame's pieces.
    assert measured["traced_mb"] < 3 * measured["bytes"] / 2**20 + 20, measured


def test_a_build_past_its_bytes_stops_there() -> None:
    moves = long_game(80, seed=6)
    whole = render_gif(Position.initial(), moves)
    limit = len(whole) // 2
    with pytest.raises(GifTooLarge) as large:
        render_gif(Position.initial(), moves, max_bytes=limit)
    assert 1 < large.value.frames < len(moves) * 2 // 3
    assert render_gif(Position.initial(), moves, max_bytes=len(whole)) == whole
