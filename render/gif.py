"""An animated GIF written frame by frame, each frame's bytes out as soon as it is given.

Why not Pillow's `save_all`: it keeps a full copy of every frame until the last one is
given, so a game of a thousand moves held a thousand pictures at once. Here the writer
holds the frame before (to find what changed) and the frame waiting for its successor
(an identical successor lengthens it instead of being written), whatever the count.

What it writes is what `save_all(optimize=True, disposal=1)` wrote for frames sharing one
palette: the first frame whole; every later one only in the rectangle that changed, its
unchanged pixels there made transparent (they compress to almost nothing), each frame
left in place under the next. The palette is written once, for all frames (Pillow also
wrote it again with each frame). The pixel data is compressed by Pillow's own GIF encoder
(`GifImagePlugin.getdata`).
"""

from __future__ import annotations

import struct
from typing import BinaryIO

from PIL import GifImagePlugin, Image, ImageChops

_UNCHANGED = [255] + [0] * 255  # palette index difference 0 -> the mask's "unchanged"


class GifWriter:
    """Writes palette frames of one size and one palette to `sink` as they come.

    >>> import io
    >>> sink = io.BytesIO()
    >>> writer = GifWriter(sink, (2, 2), bytes(3 * 4))
    >>> writer.add(Image.new("P", (2, 2)), 100)
    >>> writer.close()
    >>> sink.getvalue()[:6]
    b'GIF89a'
    """

    def __init__(
        self, sink: BinaryIO, size: tuple[int, int], palette: bytes, *, loop: int = 0
    ) -> None:
        colours = len(palette) // 3
        if colours >= 256:
            raise ValueError("the palette needs a free index for transparency")
        self._sink = sink
        self._size = size
        self._transparent = colours  # the first index no frame uses
        self._previous: Image.Image | None = None
        self._waiting: tuple[Image.Image, tuple[int, int], int, int | None] | None = None
        self.frames = 0
        bits = max(1, colours.bit_length())  # room for the transparent index too
        table = palette + bytes(3 * ((1 << bits) - colours))
        sink.write(
            b"GIF89a"
            + struct.pack("<HHBBB", size[0], size[1], 0x80 | (bits - 1), 0, 0)
            + table
            + b"!\xff\x0bNETSCAPE2.0\x03\x01"
            + struct.pack("<H", loop)
            + b"\x00"
        )

    def add(self, frame: Image.Image, duration_ms: int) -> None:
        """Add the next frame, shown for `duration_ms`; the one before it is written now."""
        if frame.mode != "P" or frame.size != self._size:
            raise ValueError(f"frames are palette images of {self._size}, not {frame.mode}")
        previous = self._previous
        if previous is None:
            self._wait(frame, (0, 0), duration_ms, None)
        else:
            delta = ImageChops.subtract_modulo(frame, previous)
            box = delta.getbbox(alpha_only=False)
            if box is None:  # nothing changed: the frame before stays longer
                assert self._waiting is not None
                image, at, ms, transparent = self._waiting
                self._waiting = (image, at, ms + duration_ms, transparent)
                return
            changed = frame.crop(box)
            unchanged = delta.crop(box).point(_UNCHANGED, "1")
            changed.paste(self._transparent, mask=unchanged)
            self._wait(changed, box[:2], duration_ms, self._transparent)
        self._previous = frame

    def close(self) -> None:
        """Write the last frame and the end of the file."""
        self._flush()
        self._sink.write(b";")
        self._previous = None

    def _wait(
        self, image: Image.Image, at: tuple[int, int], ms: int, transparent: int | None
    ) -> None:
        self._flush()
        self._waiting = (image, at, ms, transparent)

    def _flush(self) -> None:
        if self._waiting is None:
            return
        image, at, ms, transparent = self._waiting
        params: dict[str, int] = {"duration": ms, "disposal": 1}
        if transparent is not None:
            params["transparency"] = transparent
        for part in GifImagePlugin.getdata(image, offset=at, **params):
            self._sink.write(part)
        self._waiting = None
        self.frames += 1
