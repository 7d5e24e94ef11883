"""A whole game as an animated GIF: one frame per position, the final one with the result.

The frames are the board images of `render.board.compose`, palette images that already
share one fixed palette, so the GIF needs no colour reduction. Each frame is written as
soon as it is drawn (`render.gif.GifWriter`), storing only the rectangle that changed
since the one before (a move changes a few cells, the hands, the names and the caption),
so a long game's GIF is small and its build holds two pictures, not one per move.

A game too long for an upload limit is animated from a later move (`frames_within`
says how many frames fit, from a bound on the bytes of a frame), so a build that cannot
fit is never started.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import replace

from rules import Color, Move, Position

from . import layout
from .board import KING_KANJI, PALETTE, Diagram, compose
from .ending import Ending
from .gif import GifWriter

#: How long each position is shown, in milliseconds; the start and the end stay longer so
#: that a reader sees where the game began and how it finished before it loops.
FRAME_MS = 700
FIRST_MS = 1500
LAST_MS = 4000


#: What a GIF's bytes are planned from, for `frames_within`: its header and first (whole)
#: frame, and each later frame. A frame stores the rectangle a move changed, from the
#: names at the top to the caption at the bottom, mostly transparent: the plan is a little
#: above an ordinary game's average, so an ordinary game fits at the first try, and a
#: capture-heavy one that does not is cut once more (bench/bench_hostile_render.py prints
#: long games' GIF sizes). A game whose frames run larger than planned stops at
#: `max_bytes` (see `GifTooLarge`) instead of growing past it.
FIRST_FRAME_BYTES = 80_000
FRAME_BYTES = 10_000


class GifTooLarge(ValueError):
    """The GIF passed its `max_bytes` after `frames` frames, and its build stopped there:
    fewer frames than that fit."""

    def __init__(self, frames: int, max_bytes: int) -> None:
        super().__init__(f"over {max_bytes} bytes after {frames} frames")
        self.frames = frames


def frames_within(limit: int) -> int:
    """How many frames a GIF is planned to hold to stay under `limit` bytes (at least one).

    >>> frames_within(10 * 1024 * 1024) > 1000
    True
    """
    return max(1, 1 + (limit - FIRST_FRAME_BYTES) // FRAME_BYTES)


def render_gif(
    start: Position,
    moves: Sequence[Move],
    *,
    perspective: Color = Color.SENTE,
    sente_name: str | None = None,
    gote_name: str | None = None,
    captions: Sequence[str] | None = None,
    kings: Sequence[str] = KING_KANJI,
    ending: Ending | None = None,
    first_frame: int = 0,
    max_bytes: int | None = None,
    frame_ms: int = FRAME_MS,
    first_ms: int = FIRST_MS,
    last_ms: int = LAST_MS,
) -> bytes:
    """The game from `start` through `moves` as a looping GIF of `len(moves) + 1` frames.

    Frame `i` is the board after `i` moves, drawn as `render_image` draws it (the last
    move highlighted, the names, the kings); with an `ending`, the last frame is the
    final board with the result (see `Ending`). `captions`, if given, is the caption of
    each frame that shows no ending: `len(moves) + 1` of them, or `len(moves)` with an
    ending (the last frame shows the result instead). A single position gives a GIF of
    one frame. `first_frame` starts the animation later, at the board after that many
    moves (the frames before it are not drawn; see `frames_within`). Past `max_bytes`
    the build stops with `GifTooLarge`. A pure function: `start` is only read; an
    illegal move raises `IllegalMoveError`.

    >>> from rules import Position
    >>> render_gif(Position.initial(), [Move.from_usi("7g7f")])[:6]
    b'GIF89a'
    """
    frames_without_ending = len(moves) + (0 if ending is not None else 1)
    if captions is not None and len(captions) != frames_without_ending:
        raise ValueError(
            f"{len(captions)} captions for {frames_without_ending} frames without the ending"
        )
    if not 0 <= first_frame <= len(moves):
        raise ValueError(f"no frame {first_frame} in a game of {len(moves)} moves")
    position = start.copy()
    for move in moves[:first_frame]:
        position.push(move)
    buffer = io.BytesIO()
    palette = bytes(channel for colour in PALETTE for channel in colour)
    writer = GifWriter(buffer, layout.SIZE, palette, loop=0)
    diagram = Diagram(  # of the position as the moves are played on it
        position,
        perspective=Color(perspective),
        sente_name=sente_name,
        gote_name=gote_name,
        kings=tuple(kings),
    )
    last: Move | None = moves[first_frame - 1] if first_frame else None
    for ply in range(first_frame, len(moves) + 1):
        if ply > first_frame:
            last = moves[ply - 1]
            position.push(last)
        final = ending is not None and ply == len(moves)
        caption = None if final or captions is None else captions[ply]
        shown = replace(diagram, last_move=last, caption=caption, ending=ending if final else None)
        frame = compose(shown)
        if ply == len(moves):
            duration = last_ms
        elif ply == first_frame:
            duration = first_ms
        else:
            duration = frame_ms
        writer.add(frame, duration)
        if max_bytes is not None and buffer.tell() > max_bytes:
            raise GifTooLarge(writer.frames, max_bytes)
    writer.close()
    if max_bytes is not None and buffer.tell() > max_bytes:
        raise GifTooLarge(writer.frames, max_bytes)
    return buffer.getvalue()
