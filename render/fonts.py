"""The shipped font: where it is, which characters it has, and a safe way to draw any text.

The renderer never looks at fonts installed on the machine: the font is the
subset in `data/fonts/` (see `scripts/subset_font.py`), so images look the
same everywhere. The subset has only the characters the board needs plus
Latin, kana and game-record words for names and captions; `printable()`
turns any other text into something the font can draw instead of leaving
empty boxes (or crashing).
"""

from __future__ import annotations

import struct
import unicodedata
from functools import lru_cache
from pathlib import Path

from PIL import ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
FONT_PATH = FONT_DIR / "NotoSerifCJKjp-Bold-subset.otf"
REPLACEMENT = "?"


@lru_cache(maxsize=64)
def font(size: int) -> ImageFont.FreeTypeFont:
    """The shipped font at `size` pixels (basic layout: no dependence on libraqm)."""
    return ImageFont.truetype(str(FONT_PATH), size, layout_engine=ImageFont.Layout.BASIC)


@lru_cache(maxsize=1)
def characters() -> frozenset[str]:
    """Every character the shipped font has a glyph for (read from its `cmap` table)."""
    return frozenset(chr(code) for code in _cmap_codepoints(FONT_PATH.read_bytes()))


def _cmap_codepoints(data: bytes) -> set[int]:
    """The code points mapped by an OpenType font's Unicode cmap (formats 4 and 12)."""
    num_tables = struct.unpack_from(">H", data, 4)[0]
    cmap_offset = None
    for i in range(num_tables):
        tag, _checksum, offset, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            cmap_offset = offset
    if cmap_offset is None:
        raise ValueError("font has no cmap table")
    count = struct.unpack_from(">H", data, cmap_offset + 2)[0]
    found: set[int] = set()
    for i in range(count):
        platform, encoding, offset = struct.unpack_from(">HHI", data, cmap_offset + 4 + 8 * i)
        if (platform, encoding) not in ((3, 1), (3, 10), (0, 3), (0, 4)):
            continue
        table = cmap_offset + offset
        fmt = struct.unpack_from(">H", data, table)[0]
        if fmt == 4:
            segments = struct.unpack_from(">H", data, table + 6)[0] // 2
            ends = struct.unpack_from(f">{segments}H", data, table + 14)
            starts = struct.unpack_from(f">{segments}H", data, table + 16 + 2 * segments)
            deltas = struct.unpack_from(f">{segments}h", data, table + 16 + 4 * segments)
            range_offsets_at = table + 16 + 6 * segments
            range_offsets = struct.unpack_from(f">{segments}H", data, range_offsets_at)
            for seg, (start, end) in enumerate(zip(starts, ends, strict=True)):
                for code in range(start, end + 1):
                    if code == 0xFFFF:
                        continue
                    if range_offsets[seg] == 0:
                        glyph = (code + deltas[seg]) & 0xFFFF
                    else:
                        at = range_offsets_at + 2 * seg + range_offsets[seg] + 2 * (code - start)
                        glyph = struct.unpack_from(">H", data, at)[0]
                        glyph = (glyph + deltas[seg]) & 0xFFFF if glyph else 0
                    if glyph:
                        found.add(code)
        elif fmt == 12:
            groups = struct.unpack_from(">I", data, table + 12)[0]
            for g in range(groups):
                start, end, glyph = struct.unpack_from(">III", data, table + 16 + 12 * g)
                found.update(code for code in range(start, end + 1) if glyph + code - start)
    return found


@lru_cache(maxsize=1024)
def printable(text: str) -> str:
    """`text` with every character the font lacks replaced, so that drawing it is safe.

    Accented letters the font lacks fall back to their base letter (NFKD), white
    space becomes a plain space, invisible characters (joiners, variation
    selectors, control codes) are dropped, and anything else becomes `?`.

    >>> printable("Łukasz 🐉 Dvořák")
    '?ukasz ? Dvorák'
    """
    have = characters()
    out: list[str] = []
    for ch in text:
        if ch in have:
            out.append(ch)
            continue
        if ch.isspace():
            out.append(" ")
            continue
        category = unicodedata.category(ch)
        if category in ("Mn", "Me", "Cf", "Cc", "Cs", "Co") or 0xFE00 <= ord(ch) <= 0xFE0F:
            continue
        base = [
            part
            for part in unicodedata.normalize("NFKD", ch)
            if not unicodedata.category(part).startswith("M")
        ]
        if base and all(part in have for part in base):
            out.extend(base)
        else:
            out.append(REPLACEMENT)
    return "".join(out)
