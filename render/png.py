"""PNG encoding that compresses only the parts of a picture it has not seen before.

Why: compressing the image data is most of the cost of a board (zlib over 640,000
pixels), and consecutive boards of a game differ in a few ranks: the squares a move
left and reached, the previous move's highlight, a piece stand, the name that shows
whose turn it is. So the picture is cut into horizontal bands (one per rank, plus the
header and footer), each band is compressed on its own, and the compressed band is
kept, keyed by a hash of its pixels. A board then costs the compression of the bands
that changed and a hash of the rest.

How it stays a valid PNG: each band is raw deflate data ending in a sync flush, i.e.
a run of complete, non-final blocks ending on a byte boundary. Such runs concatenate
into one deflate stream; an empty final block ends it. The zlib wrapper's Adler-32 of
the whole is combined from the bands' own (as zlib's `adler32_combine` does). Every
band starts with an empty dictionary, which costs a few percent of size against
compressing the picture in one piece.

Only 8-bit palette images without transparency take this path (the board is one);
anything else is left to Pillow.

A caller that can name a band's content without drawing it (the board: which pieces,
highlights and labels fall in each band) uses `encode_bands` instead: the band is keyed
by that name, and drawn, hashed and compressed only the first time the name is seen.
That skips drawing and hashing the whole picture for every board, which cost more than
compressing the few bands a move changes.
"""

from __future__ import annotations

import hashlib
import struct
import threading
import zlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from itertools import pairwise

from PIL import Image

SIGNATURE = b"\x89PNG\r\n\x1a\n"
_ZLIB_HEADER = b"\x78\x9c"  # deflate, 32 KiB window, default-level flag
_FINAL_BLOCK = b"\x03\x00"  # an empty, final block with fixed Huffman codes
_ADLER_BASE = 65521
_PALETTE = 3  # PNG colour type: indexed


def adler32_combine(first: int, second: int, second_length: int) -> int:
    """The Adler-32 of A + B from those of A and B and the length of B."""
    remainder = second_length % _ADLER_BASE
    low = first & 0xFFFF
    high = (remainder * low) % _ADLER_BASE
    low = (low + (second & 0xFFFF) + _ADLER_BASE - 1) % _ADLER_BASE
    high = (high + (first >> 16) + (second >> 16) + _ADLER_BASE - remainder) % _ADLER_BASE
    return low | (high << 16)


def chunk(kind: bytes, data: bytes) -> bytes:
    """A PNG chunk: length, type, data, CRC-32 of type and data."""
    crc = zlib.crc32(data, zlib.crc32(kind))
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)


class BandEncoder:
    """Encodes palette images band by band, reusing bands it has compressed before.

    `bands` are the first rows of the bands after the first (which starts at row 0);
    boundaries past an image's height are ignored. `capacity` bounds the cache, in
    bands (each a few kilobytes compressed). Safe to share between threads.
    """

    def __init__(self, bands: Sequence[int], *, level: int = 6, capacity: int = 4096) -> None:
        self._starts = sorted({0, *bands})
        self._level = level
        self._capacity = capacity
        self._cache: OrderedDict[Hashable, tuple[bytes, int, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def __len__(self) -> int:
        return len(self._cache)

    def clear(self) -> None:
        """Forget every band (benchmarks measure the cost of a picture never seen)."""
        with self._lock:
            self._cache.clear()

    @staticmethod
    def accepts(image: Image.Image) -> bool:
        return image.mode == "P" and "transparency" not in image.info

    def encode(self, image: Image.Image) -> bytes:
        if not self.accepts(image):
            raise ValueError(f"only 8-bit palette images without transparency, not {image.mode}")
        width, height = image.size
        pixels = memoryview(image.tobytes())
        palette = image.getpalette() or []
        starts = self._starts_for(height)
        parts = [self._band(pixels, width, top, bottom) for top, bottom in pairwise(starts)]
        return self._file(width, height, bytes(palette[: 3 * 256]), parts)

    def encode_bands(
        self,
        size: tuple[int, int],
        palette: bytes,
        keys: Sequence[Hashable],
        pixels: Callable[[int], bytes],
    ) -> bytes:
        """A palette PNG given by its bands: `keys[i]` names band i's content, and
        `pixels(i)` draws it (its rows' palette indices, `width` bytes a row), which is
        asked only for a band whose key is not cached. Equal keys must mean equal pixels
        at the same place; the band's place and size are added to the key here.
        `palette` is the PLTE content (RGB triples)."""
        width, height = size
        starts = self._starts_for(height)
        if len(keys) != len(starts) - 1:
            raise ValueError(f"{len(starts) - 1} bands for height {height}, not {len(keys)}")
        parts = []
        for index, (top, bottom) in enumerate(pairwise(starts)):
            key = (width, top, bottom, keys[index])
            found = self._cached(key)
            if found is None:
                area = pixels(index)
                if len(area) != width * (bottom - top):
                    raise ValueError(
                        f"band {index} has {len(area)} bytes, not {width}x{bottom - top}"
                    )
                found = self._compress(memoryview(area), width)
                self._keep(key, found)
            parts.append(found)
        return self._file(width, height, palette, parts)

    def _starts_for(self, height: int) -> list[int]:
        return [start for start in self._starts if start < height] + [height]

    @staticmethod
    def _file(
        width: int, height: int, palette: bytes, parts: Sequence[tuple[bytes, int, int]]
    ) -> bytes:
        adler = 1
        for _compressed, band_adler, length in parts:
            adler = adler32_combine(adler, band_adler, length)
        stream = b"".join(
            (_ZLIB_HEADER, *(part[0] for part in parts), _FINAL_BLOCK, struct.pack(">I", adler))
        )
        header = struct.pack(">IIBBBBB", width, height, 8, _PALETTE, 0, 0, 0)
        return b"".join(
            (
                SIGNATURE,
                chunk(b"IHDR", header),
                chunk(b"PLTE", palette),
                chunk(b"IDAT", stream),
                chunk(b"IEND", b""),
            )
        )

    def _band(
        self, pixels: memoryview, width: int, top: int, bottom: int
    ) -> tuple[bytes, int, int]:
        """The band's compressed rows, their Adler-32 and their length (with filter bytes)."""
        area = pixels[top * width : bottom * width]
        # The filter bytes are all zero, so the pixels alone identify the band (and its
        # height, as the width is fixed per image size and the key includes the length).
        key = hashlib.sha1(area, usedforsecurity=False).digest() + struct.pack(">II", width, top)
        found = self._cached(key)
        if found is None:
            found = self._compress(area, width)
            self._keep(key, found)
        return found

    def _cached(self, key: Hashable) -> tuple[bytes, int, int] | None:
        with self._lock:
            found = self._cache.get(key)
            if found is not None:
                self._cache.move_to_end(key)
                self.hits += 1
            return found

    def _keep(self, key: Hashable, found: tuple[bytes, int, int]) -> None:
        with self._lock:
            self.misses += 1
            self._cache[key] = found
            while len(self._cache) > self._capacity:
                self._cache.popitem(last=False)

    def _compress(self, area: memoryview, width: int) -> tuple[bytes, int, int]:
        rows = b"".join(
            b"\x00" + area[offset : offset + width] for offset in range(0, len(area), width)
        )
        compressor = zlib.compressobj(self._level, zlib.DEFLATED, -15)
        return (
            compressor.compress(rows) + compressor.flush(zlib.Z_SYNC_FLUSH),
            zlib.adler32(rows),
            len(rows),
        )
