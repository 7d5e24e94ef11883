"""A whole game as an animated GIF: one frame per position, the final one with the result.

The frames are the board images of `render.board.compose`, palette images that already
share one fixed palette, so the GIF needs no colour reduction: each frame is written with
that palette (Pillow only leaves out the colours no frame uses), and Pillow stores of each
frame only the rectangle that changed since the one before (a move changes a few cells,
the hands and the caption), which keeps a long game small.
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from rules import Color, Move, Position

from .board import KING_KANJI, compose
from .ending import Ending

#: How long each position is shown, in milliseconds; the start and the end stay longer so
#: that a reader sees where the game began and how it finished before it loops.
FRAME_MS = 700
FIRST_MS = 1500
LAST_MS = 4000


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
    one frame. A pure function: `start` is only read; an illegal move raises
    `IllegalMoveError`.

    >>> from rules import Position
    >>> render_gif(Position.initial(), [Move.from_usi("7g7f")])[:6]
    b'GIF89a'
    """
    frames_without_ending = len(moves) + (0 if ending is not None else 1)
    if captions is not None and len(captions) != frames_without_ending:
        raise ValueError(
            f"{len(captions)} captions for {frames_without_ending} frames without the ending"
        )
    perspective = Color(perspective)
    king_glyphs = tuple(kings)
    position = start.copy()
    frames: list[Image.Image] = []
    last: Move | None = None
    for ply in range(len(moves) + 1):
        if ply:
            last = moves[ply - 1]
            position.push(last)
        final = ending is not None and ply == len(moves)
        frames.append(
            compose(
                position,
                last_move=last,
                perspective=perspective,
                sente_name=sente_name,
                gote_name=gote_name,
                caption=None if final or captions is None else captions[ply],
                kings=king_glyphs,
                ending=ending if final else None,
            )
        )
    durations = [frame_ms] * len(frames)
    durations[-1] = last_ms
    if len(frames) > 1:
        durations[0] = first_ms
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        # Unchanged pixels inside a frame's changed rectangle are written transparent,
        # which compresses to almost nothing (a move's rectangle spans from the moved
        # piece to the caption); this makes a long game's GIF about eight times smaller.
        optimize=True,
        disposal=1,  # each frame stays under the next, which stores only what changed
    )
    return buffer.getvalue()
