"""The shipped fonts: where they are, which characters they have, and a safe way to draw
any text.

The renderer never looks at fonts installed on the machine: the fonts are the
subsets in `data/fonts/` (see `scripts/subset_font.py` and `subset_symbols.py`),
so images look the same everywhere. The pieces subset has only what the board
itself draws; the names subset adds JIS X 0208, Latin, Greek and Cyrillic; the
symbols font (Symbola) has the emoji and symbols members put in their names.
`printable()` turns any other text into something the fonts can draw instead of
leaving empty boxes (or crashing), and `draw_text` draws it, each run in its font.
"""

from __future__ import annotations

import re
import struct
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any

from PIL import ImageDraw, ImageFont

FONT_DIR = Path(__file__).resolve().parent.parent / "data" / "fonts"
FONT_PATH = FONT_DIR / "NotoSerifCJKjp-Bold-subset.otf"
# The same typeface cut wider, for player names and captions: all of JIS X 0208
# (kana, level 1 and 2 kanji), Latin, Greek and Cyrillic. It is a separate file
# so that the pieces, drawn on every board, never load 2.5 MB of kanji.
NAMES_FONT_PATH = FONT_DIR / "NotoSerifCJKjp-Bold-names.otf"
#: Emoji and other symbols no names font has (はなこ🌸, ★Kai★): a subset of Symbola, a
#: monochrome font free for any use (see `scripts/subset_symbols.py`), drawn in their place
#: in the names' ink.
SYMBOLS_FONT_PATH = FONT_DIR / "Symbola-symbols.ttf"
REPLACEMENT = "・"  # a neutral mark for a letter no shipped font has (not `?`, not tofu)
#: The most characters of a label (a name, a caption, a title) the renderer looks at. A
#: label is at most a few hundred pixels wide and no drawn character is narrower than a few
#: pixels, so a longer text never fits whole; cutting it first keeps the cost of fitting,
#: drawing and caching a label the same for a name of 20 characters or of 100,000.
LABEL_CHARS = 200
ELLIPSIS = "…"

# Letters the font lacks that have no NFKD decomposition, drawn as the letter they look like.
LOOK_ALIKES = str.maketrans(
    "ŁłĐđĦħıŦŧĸŊŋƒІіЈјЅѕЇїҐґЄєЎўЀЍѐѝЃѓЌќ",
    "LlDdHhiTtкNnfIiJjSsÏïГгЕеУуЕИеиГгКк",
)


# A FreeType face must not be used by two threads at once, and boards are drawn in
# several threads; so each thread opens its own faces, and no drawing waits for another.
# Opening a face goes through FreeType's one shared library object, which is not safe to
# enter from two threads at once: that alone is done under a lock, a few times per thread.
_FACES = threading.local()
_OPENING = threading.Lock()


def _face(path: Path, size: int) -> ImageFont.FreeTypeFont:
    faces: dict[tuple[Path, int], ImageFont.FreeTypeFont] | None = getattr(_FACES, "faces", None)
    if faces is None:
        faces = _FACES.faces = {}
    face = faces.get((path, size))
    if face is None:
        with _OPENING:
            face = ImageFont.truetype(str(path), size, layout_engine=ImageFont.Layout.BASIC)
        if len(faces) >= 64:
            faces.clear()  # sizes are a handful of constants; never grows without bound
        faces[(path, size)] = face
    return face


def font(size: int) -> ImageFont.FreeTypeFont:
    """The pieces' font at `size` pixels, this thread's own (basic layout: no dependence
    on libraqm)."""
    return _face(FONT_PATH, size)


def name_font(size: int) -> ImageFont.FreeTypeFont:
    """The names' and captions' font at `size` pixels, this thread's own (see
    `NAMES_FONT_PATH`)."""
    return _face(NAMES_FONT_PATH, size)


def symbol_font(size: int) -> ImageFont.FreeTypeFont:
    """The symbols' font at `size` pixels, this thread's own (see `SYMBOLS_FONT_PATH`)."""
    return _face(SYMBOLS_FONT_PATH, size)


def clipped(text: str) -> str:
    """`text` cut to `LABEL_CHARS` characters, with an ellipsis if it was longer: what
    every label a member can name goes through before it is cleaned, measured or drawn.

    >>> clipped("Ann")
    'Ann'
    >>> len(clipped("a" * 100_000)) == LABEL_CHARS + 1
    True
    """
    return text if len(text) <= LABEL_CHARS else text[:LABEL_CHARS] + ELLIPSIS


@lru_cache(maxsize=1)
def characters() -> frozenset[str]:
    """Every character the pieces' font has a glyph for (read from its `cmap` table)."""
    return frozenset(chr(code) for code in _cmap_codepoints(FONT_PATH.read_bytes()))


@lru_cache(maxsize=1)
def name_characters() -> frozenset[str]:
    """Every character the names' font has a glyph for."""
    return frozenset(chr(code) for code in _cmap_codepoints(NAMES_FONT_PATH.read_bytes()))


@lru_cache(maxsize=1)
def symbol_characters() -> frozenset[str]:
    """Every character the symbols' font has a glyph for."""
    return frozenset(chr(code) for code in _cmap_codepoints(SYMBOLS_FONT_PATH.read_bytes()))


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
    """`text` with every character the names' font lacks replaced, so drawing it is safe.

    Emoji and symbols the symbols' font has are kept (drawn with it, see `runs`);
    accented letters the font lacks fall back to their base letter (NFKD) or to
    a letter they look like (Ł as L, Ukrainian і as i), white space becomes a
    plain space, invisible characters (joiners, variation selectors, control
    codes, skin tones) and symbols no font has are dropped, and a letter of a
    script the fonts lack becomes the neutral mark `・`; spaces left doubled are
    merged.

    >>> printable("Łukasz 🐉 Dvořák")
    'Lukasz 🐉 Dvorák'
    >>> printable("はなこ🌸\u200d\ufe0f")
    'はなこ🌸'
    >>> printable("山田太郎 (5段)")
    '山田太郎 (5段)'
    """
    have = name_characters()
    symbols = symbol_characters()
    out: list[str] = []
    dropped = False
    for ch in text:
        if ch in have:
            out.append(ch)
            continue
        if ch in symbols and not _MODIFIERS_FROM <= ord(ch) <= _MODIFIERS_TO:
            out.append(ch)  # drawn with the symbols' font (`runs`)
            continue
        if ch.isspace():
            out.append(" ")
            continue
        category = unicodedata.category(ch)
        if category[0] in "MCS" or 0xFE00 <= ord(ch) <= 0xFE0F:
            dropped = True
            continue  # marks, controls, joiners, emoji and other symbols
        look_alike = ch.translate(LOOK_ALIKES)
        if look_alike in have:
            out.append(look_alike)
            continue
        base = [
            part.translate(LOOK_ALIKES)
            for part in unicodedata.normalize("NFKD", ch)
            if not unicodedata.category(part).startswith("M")
        ]
        if base and all(part in have for part in base):
            out.extend(base)
        else:
            out.append(REPLACEMENT)
    printed = "".join(out)
    return re.sub(" {2,}", " ", printed).strip() if dropped else printed


#: A symbol's strokes are thickened by its size over this (a pixel or two at label sizes).
SYMBOL_STROKE = 28
#: Emoji skin tones: they modify the emoji before them, which a monochrome font cannot show.
_MODIFIERS_FROM, _MODIFIERS_TO = 0x1F3FB, 0x1F3FF


@lru_cache(maxsize=1024)
def runs(text: str) -> tuple[tuple[str, bool], ...]:
    """A `printable` text cut into runs of one font each: `(run, True)` for the symbols'
    font, `(run, False)` for the names' font.

    >>> runs("はなこ🌸 ★")
    (('はなこ', False), ('🌸', True), (' ★', False))
    """
    have = name_characters()
    symbols = symbol_characters()
    found: list[tuple[str, bool]] = []
    for ch in text:
        symbol = ch not in have and ch in symbols
        if found and found[-1][1] is symbol:
            found[-1] = (found[-1][0] + ch, symbol)
        else:
            found.append((ch, symbol))
    return tuple(found)


def _face_of(symbol: bool, size: int) -> ImageFont.FreeTypeFont:
    return symbol_font(size) if symbol else name_font(size)


def text_width(text: str, size: int) -> float:
    """How wide a `printable` text is drawn at `size` pixels, each run in its font."""
    return sum(_face_of(symbol, size).getlength(run) for run, symbol in runs(text))


def text_box(text: str, size: int) -> tuple[float, float, float, float]:
    """The ink box of a `printable` text drawn by `draw_text` at (0, 0): left, top, right,
    bottom, with the names' font's ascent as the top of the line (as Pillow draws one
    font by default)."""
    ascent = name_font(size).getmetrics()[0]
    x = 0.0
    left = top = float("inf")
    right = bottom = float("-inf")
    for run, symbol in runs(text):
        face = _face_of(symbol, size)
        ink_left, ink_top, ink_right, ink_bottom = face.getbbox(run, anchor="ls")
        left, top = min(left, x + ink_left), min(top, ascent + ink_top)
        right, bottom = max(right, x + ink_right), max(bottom, ascent + ink_bottom)
        x += face.getlength(run)
    if left == float("inf"):
        return 0.0, 0.0, 0.0, 0.0
    return left, top, right, bottom


def fit_text(text: str, size: int, max_width: int) -> str:
    """`text`, shortened with an ellipsis to at most `max_width` pixels wide: its longest
    beginning that fits with the ellipsis, found by halving (a beginning is never wider
    than a longer one), so a long text costs a few measurements, not one per character.
    `text` comes through `clipped`, which bounds each measurement."""
    if text_width(text, size) <= max_width:
        return text
    fits, longer = 0, len(text)  # text[:fits] + "…" fits (or fits is 0); text[:longer] not
    while longer - fits > 1:
        middle = (fits + longer) // 2
        if text_width(text[:middle] + ELLIPSIS, size) <= max_width:
            fits = middle
        else:
            longer = middle
    return text[:fits].rstrip() + ELLIPSIS


def draw_text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Any
) -> None:
    """Draw a `printable` text with its line's top left at `xy`: the names' font, and the
    symbols' where it has the characters, on one baseline."""
    x, y = xy
    baseline = y + name_font(size).getmetrics()[0]
    for run, symbol in runs(text):
        face = _face_of(symbol, size)
        # Symbola's strokes are thin beside a bold face: thickened to sit with the name.
        stroke = max(1, size // SYMBOL_STROKE) if symbol else 0
        draw.text(
            (x, baseline),
            run,
            font=face,
            fill=fill,
            anchor="ls",
            stroke_width=stroke,
            stroke_fill=fill,
        )
        x += face.getlength(run)
