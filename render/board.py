"""Drawing the board: cached backgrounds and piece images, pasted together per call.

Everything that does not change between positions is drawn once and kept:
the background for each perspective (page, wood, grid, coordinates, piece
stands), and every piece image (per character, colour, orientation and
background: plain wood, last move, check, piece stand). All of them are
quantised to one fixed palette, so a render is one copy of the background,
a few dozen opaque pastes of palette images, and the PNG encoding of a small
palette ("P" mode) image. Text is drawn four times larger and scaled down,
which gives smooth edges; the palette holds ramps between the colours that
meet at such edges, so the scaled-down anti-aliasing survives quantisation.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable, Sequence
from functools import lru_cache, wraps
from typing import ParamSpec, TypeVar

from PIL import Image, ImageDraw

from rules import Color, Move, Position, Role
from rules.types import KING_GLYPHS

from . import layout as L
from .fonts import font, printable
from .png import BandEncoder

RGB = tuple[int, int, int]

# ----------------------------------------------------------------- colours

PAGE: RGB = (246, 240, 226)  # paper around the board
WOOD: RGB = (231, 190, 116)  # kaya board
GRID: RGB = (52, 36, 20)
KOMADAI: RGB = (198, 148, 86)  # piece stands, a darker wood
KOMADAI_EDGE: RGB = (133, 93, 48)
FACE: RGB = (251, 232, 180)  # piece face
EDGE: RGB = (92, 62, 30)  # piece outline
INK: RGB = (24, 18, 12)
RED: RGB = (196, 18, 24)  # promoted pieces
LAST: RGB = (246, 143, 70)  # last move: origin and destination
CHECK: RGB = (228, 72, 64)  # the checked king's cell
CHECK_EDGE: RGB = (150, 10, 16)
PILL: RGB = (64, 44, 26)  # behind the name of the side to move
PILL_TEXT: RGB = (255, 246, 222)
MUTED: RGB = (112, 92, 70)  # coordinates

KEY_COLOURS: tuple[RGB, ...] = (
    PAGE, WOOD, GRID, KOMADAI, KOMADAI_EDGE, FACE, EDGE, INK, RED, LAST, CHECK, CHECK_EDGE,
    PILL, PILL_TEXT, MUTED,
)  # fmt: skip
# Pairs of colours that meet at anti-aliased edges; the palette holds steps between them.
RAMPS: tuple[tuple[RGB, RGB], ...] = (
    (INK, FACE), (RED, FACE), (EDGE, FACE), (EDGE, WOOD), (EDGE, LAST), (EDGE, CHECK),
    (EDGE, KOMADAI), (INK, PAGE), (INK, KOMADAI), (GRID, WOOD), (MUTED, PAGE),
    (PILL_TEXT, PILL), (PILL, PAGE), (KOMADAI_EDGE, PAGE), (KOMADAI_EDGE, KOMADAI),
    (CHECK_EDGE, CHECK), (CHECK_EDGE, FACE), (WOOD, PAGE), (GRID, PAGE),
)  # fmt: skip
RAMP_STEPS = 5

SCALE = 4  # supersampling factor for everything drawn with curves or text


_P = ParamSpec("_P")
_T = TypeVar("_T")
_DRAWING = threading.RLock()


def _serialised(function: Callable[_P, _T]) -> Callable[_P, _T]:
    """Run a drawing function one call at a time. Renders run in worker threads
    (the bot renders off its event loop) and a FreeType face is not meant to be
    used by two threads at once; only cache misses get here, so it costs nothing
    once the images are drawn."""

    @wraps(function)
    def wrapper(*args: _P.args, **kwargs: _P.kwargs) -> _T:
        with _DRAWING:
            return function(*args, **kwargs)

    return wrapper


def _build_palette() -> list[RGB]:
    colours: dict[RGB, None] = dict.fromkeys(KEY_COLOURS)
    for a, b in RAMPS:
        for step in range(1, RAMP_STEPS + 1):
            t = step / (RAMP_STEPS + 1)
            mixed = (
                round(a[0] + (b[0] - a[0]) * t),
                round(a[1] + (b[1] - a[1]) * t),
                round(a[2] + (b[2] - a[2]) * t),
            )
            colours[mixed] = None
    palette = list(colours)
    if len(palette) > 256:
        raise AssertionError("palette too large")
    return palette


PALETTE: list[RGB] = _build_palette()
_PALETTE_IMAGE = Image.new("P", (1, 1))
_PALETTE_IMAGE.putpalette([channel for colour in PALETTE for channel in colour])
INDEX: dict[RGB, int] = {colour: i for i, colour in enumerate(PALETTE)}


def _quantise(image: Image.Image) -> Image.Image:
    """An RGB image mapped to the fixed palette (nearest colour, no dithering)."""
    return image.quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE)


def _supersampled(size: tuple[int, int], background: RGB) -> Image.Image:
    return Image.new("RGB", (size[0] * SCALE, size[1] * SCALE), background)


def _shrink(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image.resize(size, Image.Resampling.BOX)


def _text_centered(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """Draw `text` with its ink box centred on `center` (the font's own metrics vary)."""
    face = font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face)
    x = center[0] - (left + right) / 2
    y = center[1] - (top + bottom) / 2
    draw.text((x, y), text, font=face, fill=fill)


# ----------------------------------------------------------------- pieces

KANJI: dict[Role, str] = {role: role.glyph for role in Role}  # 歩 ... 杏 龍, one per piece
KING_KANJI = KING_GLYPHS  # default: 玉 for sente, 王 for gote

# Real pieces differ in size: the king is the largest, the pawn the smallest.
PIECE_SCALE: dict[Role, float] = {
    Role.KING: 1.0,
    Role.ROOK: 0.97,
    Role.BISHOP: 0.97,
    Role.GOLD: 0.94,
    Role.SILVER: 0.94,
    Role.KNIGHT: 0.915,
    Role.LANCE: 0.9,
    Role.PAWN: 0.88,
}

# Cell backgrounds a piece can stand on.
BACKGROUNDS: dict[str, RGB] = {"wood": WOOD, "last": LAST, "check": CHECK, "hand": KOMADAI}


@lru_cache(maxsize=512)
@_serialised
def piece_image(kanji: str, red: bool, turned: bool, scale: float, background: str) -> Image.Image:
    """One piece on one cell's background, as a palette image of the cell's inside."""
    w, h = L.PIECE_W, L.PIECE_H
    image = _supersampled((w, h), BACKGROUNDS[background])
    draw = ImageDraw.Draw(image)
    s = SCALE
    if background == "check":
        inset = 1.5 * s
        draw.rectangle(
            (inset, inset, w * s - inset - 1, h * s - inset - 1),
            outline=CHECK_EDGE,
            width=round(2.5 * s),
        )
    pw, ph = w * 0.88 * scale * s, h * 0.93 * scale * s
    cx, cy = w * s / 2, h * s / 2
    top, bottom = cy - ph / 2, cy + ph / 2
    shoulder = top + ph * 0.21
    outline = [
        (cx, top),
        (cx + pw * 0.40, shoulder),
        (cx + pw * 0.5, bottom),
        (cx - pw * 0.5, bottom),
        (cx - pw * 0.40, shoulder),
    ]
    draw.polygon(outline, fill=FACE, outline=EDGE, width=round(2 * s))
    size = round(ph * 0.56)
    _text_centered(draw, (cx, cy + ph * 0.07), kanji, size, RED if red else INK)
    small = _shrink(image, (w, h))
    if turned:
        small = small.transpose(Image.Transpose.ROTATE_180)
    return _quantise(small)


def _piece_for(
    role: Role, color: Color, perspective: Color, background: str, kings: Sequence[str]
) -> Image.Image:
    kanji = kings[color] if role is Role.KING else KANJI[role]
    return piece_image(
        kanji,
        role.is_promoted,
        color is not perspective,
        PIECE_SCALE[role.unpromoted],
        background,
    )


# ----------------------------------------------------------------- background

RANK_NUMERALS = "一二三四五六七八九"


@lru_cache(maxsize=2)
@_serialised
def background(perspective: Color) -> Image.Image:
    """Page, wood, grid, star points, coordinates and both (empty) piece stands."""
    s = SCALE
    image = _supersampled(L.SIZE, PAGE)
    draw = ImageDraw.Draw(image)

    def box(b: L.Box) -> tuple[int, int, int, int]:
        return (b[0] * s, b[1] * s, b[2] * s - 1, b[3] * s - 1)

    for stand in (L.TOP_KOMADAI, L.BOTTOM_KOMADAI):
        draw.rounded_rectangle(
            box(stand), radius=6 * s, fill=KOMADAI, outline=KOMADAI_EDGE, width=2 * s
        )
    wood = L.WOOD
    draw.rectangle(box(wood), fill=WOOD)
    gx, gy = L.GRID_X, L.GRID_Y
    for i in range(10):
        x = gx + i * L.CELL_W
        draw.rectangle(box((x, gy, x + L.LINE, gy + L.GRID_H)), fill=GRID)
        y = gy + i * L.CELL_H
        draw.rectangle(box((gx, y, gx + L.GRID_W, y + L.LINE)), fill=GRID)
    f = L.FRAME
    grid = L.GRID
    for edge in (
        (grid[0] - f, grid[1] - f, grid[2] + f, grid[1]),
        (grid[0] - f, grid[3], grid[2] + f, grid[3] + f),
        (grid[0] - f, grid[1], grid[0], grid[3]),
        (grid[2], grid[1], grid[2] + f, grid[3]),
    ):
        draw.rectangle(box(edge), fill=GRID)
    for column in range(9):
        file_number = 9 - column if perspective is Color.SENTE else column + 1
        cx, cy = L.file_label_center(column)
        _text_centered(draw, (cx * s, cy * s), str(file_number), 20 * s, MUTED)
    for row in range(9):
        rank = row if perspective is Color.SENTE else 8 - row
        cx, cy = L.rank_label_center(row)
        _text_centered(draw, (cx * s, cy * s), RANK_NUMERALS[rank], 20 * s, MUTED)
    return _quantise(_shrink(image, L.SIZE))


@lru_cache(maxsize=1)
@_serialised
def star_point() -> tuple[Image.Image, Image.Image, int]:
    """A star point as a palette image, its paste mask, and its radius (drawn last,
    because the corners of pieces and highlights would otherwise cover it)."""
    radius = 5
    d = 2 * radius
    s = SCALE
    image = Image.new("RGB", (d * s, d * s), WOOD)
    mask = Image.new("L", (d * s, d * s), 0)
    dot = (2 * s, 2 * s, (d - 2) * s - 1, (d - 2) * s - 1)  # 6 px across, centred
    ImageDraw.Draw(image).ellipse(dot, fill=GRID)
    ImageDraw.Draw(mask).ellipse(dot, fill=255)
    small_mask = mask.resize((d, d), Image.Resampling.LANCZOS).point(lambda v: 255 if v > 40 else 0)
    return _quantise(_shrink(image, (d, d))), small_mask.convert("1"), radius


# ----------------------------------------------------------------- text labels


def _fit(text: str, size: int, max_width: int) -> str:
    """`text`, shortened with an ellipsis until it is at most `max_width` pixels wide."""
    face = font(size)
    if face.getlength(text) <= max_width:
        return text
    while text and face.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


@lru_cache(maxsize=256)
@_serialised
def name_label(text: str, to_move: bool, max_width: int) -> Image.Image:
    """A player's name with its turn mark; the side to move's on a dark pill."""
    size = 24
    pad_x = 14
    text = _fit(printable(text), size, max_width - 2 * pad_x)
    face = font(size)
    width = round(face.getlength(text)) + 2 * pad_x
    height = L.NAME_H - 6
    s = SCALE
    image = _supersampled((width, height), PAGE)
    draw = ImageDraw.Draw(image)
    if to_move:
        draw.rounded_rectangle(
            (0, 0, width * s - 1, height * s - 1), radius=height * s // 2, fill=PILL
        )
    _text_centered(
        draw, (width * s / 2, height * s / 2), text, size * s, PILL_TEXT if to_move else INK
    )
    return _quantise(_shrink(image, (width, height)))


@lru_cache(maxsize=256)
@_serialised
def caption_label(text: str, max_width: int) -> Image.Image:
    size = 20
    text = _fit(printable(text), size, max_width)
    face = font(size)
    width = max(1, round(face.getlength(text)) + 4)
    height = L.NAME_H - 6
    s = SCALE
    image = _supersampled((width, height), PAGE)
    draw = ImageDraw.Draw(image)
    left, top, _right, bottom = draw.textbbox((0, 0), "一Ag", font=font(size * s))
    draw.text((2 * s - left, (height * s - top - bottom) / 2), text, font=font(size * s), fill=INK)
    return _quantise(_shrink(image, (width, height)))


@lru_cache(maxsize=32)
@_serialised
def count_label(count: int) -> Image.Image:
    """The number of pieces of one kind in hand, e.g. `12`, for the piece stand."""
    text = str(count)
    width, height = L.KOMADAI_W - L.PIECE_W - 14, L.PIECE_H
    s = SCALE
    image = _supersampled((width, height), KOMADAI)
    draw = ImageDraw.Draw(image)
    size = 26 if count < 10 else 23
    _text_centered(draw, (width * s / 2 - s, height * s / 2), text, size * s, INK)
    return _quantise(_shrink(image, (width, height)))


# ----------------------------------------------------------------- the render

HAND_ORDER = (Role.PAWN, Role.LANCE, Role.KNIGHT, Role.SILVER, Role.GOLD, Role.BISHOP, Role.ROOK)


NAME_MAX_W = 440  # leaves room for a caption beside the bottom name


def _default_name(color: Color) -> str:
    return "先手" if color is Color.SENTE else "後手"


def compose(
    position: Position,
    *,
    last_move: Move | None = None,
    perspective: Color = Color.SENTE,
    sente_name: str | None = None,
    gote_name: str | None = None,
    caption: str | None = None,
    kings: Sequence[str] = KING_KANJI,
) -> Image.Image:
    """The picture as a palette image (what `render_board` encodes)."""
    canvas = background(perspective).copy()
    board = position.board
    marked: dict[int, str] = {}
    if last_move is not None:
        if last_move.from_square is not None:
            marked[last_move.from_square] = "last"
        marked[last_move.to_square] = "last"
    if position.is_check():
        marked[position.king_square(position.turn)] = "check"

    draw = ImageDraw.Draw(canvas)
    for square, bg in marked.items():
        if not board[square]:
            box = L.square_box(square, perspective)
            draw.rectangle((box[0], box[1], box[2] - 1, box[3] - 1), fill=INDEX[BACKGROUNDS[bg]])
    for square, code in enumerate(board):
        if code:
            role, color = Role(code & 15), Color(code >> 4)
            image = _piece_for(role, color, perspective, marked.get(square, "wood"), kings)
            box = L.square_box(square, perspective)
            canvas.paste(image, box[:2])
    star, star_mask, radius = star_point()
    for x, y in L.STAR_POINTS:
        canvas.paste(star, (x - radius, y - radius), star_mask)

    for color in (Color.SENTE, Color.GOTE):
        _draw_hand(canvas, position.hands[color], color, perspective, kings)

    names = {
        Color.SENTE: sente_name if sente_name is not None else _default_name(Color.SENTE),
        Color.GOTE: gote_name if gote_name is not None else _default_name(Color.GOTE),
    }
    bottom_name = None
    for color in (Color.SENTE, Color.GOTE):
        label = name_label(f"{color.symbol} {names[color]}", position.turn is color, NAME_MAX_W)
        band = L.name_box(color, perspective)
        y = band[1] + (band[3] - band[1] - label.height) // 2
        if color is perspective:  # bottom right
            x = band[2] - label.width
            bottom_name = x
        else:
            x = band[0]
        canvas.paste(label, (x, y))
    if caption:
        band = L.FOOTER
        room = (bottom_name if bottom_name is not None else band[2]) - band[0] - 16
        if room > 40:
            label = caption_label(caption, room)
            canvas.paste(label, (band[0], band[1] + (band[3] - band[1] - label.height) // 2))
    return canvas


def _draw_hand(
    canvas: Image.Image,
    counts: Sequence[int],
    color: Color,
    perspective: Color,
    kings: Sequence[str],
) -> None:
    index = 0
    for role in HAND_ORDER:
        count = counts[role]
        if not count:
            continue
        box = L.hand_slot_box(color, perspective, index)
        canvas.paste(_piece_for(role, color, perspective, "hand", kings), box[:2])
        if count > 1:
            canvas.paste(count_label(count), (box[2] + 2, box[1]))
        index += 1


# The picture's bands for `BandEncoder`: the names, the file numbers, each rank (the hand
# stands change with them), then the bottom edge and the footer. Consecutive boards share
# most of them, so only the bands a move changed are compressed again.
PNG_BANDS = (
    L.FILES_Y,
    L.GRID_Y,
    *(L.GRID_Y + rank * L.CELL_H for rank in range(1, 9)),
    L.GRID_Y + L.GRID_H,
    L.FOOTER_Y,
)
# zlib level 3 on the bands that changed: about 1.4 ms for a board in a game and at most
# 37 KB (bench/render.py); Pillow's encoder at level 3 takes 2.4 ms for the same bytes, at
# level 5 3.8 ms for 10 % fewer. Palette PNGs use no row filter, which suits flat colours.
PNG_COMPRESS_LEVEL = 3
_ENCODER = BandEncoder(PNG_BANDS, level=PNG_COMPRESS_LEVEL)


def encode_png(image: Image.Image) -> bytes:
    if BandEncoder.accepts(image):
        return _ENCODER.encode(image)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


def warm(kings: Sequence[str] = KING_KANJI) -> None:
    """Draw every cached image now (about a quarter of a second) instead of on first use.

    Without it, the first render in a process pays for the backgrounds (about
    0.1 s) and each new piece image (about 1 ms each) as it meets them.
    """
    for perspective in Color:
        background(perspective)
    star_point()
    for color in Color:
        for role in Role:
            for where in BACKGROUNDS:
                if where == "hand" and (role.is_promoted or role is Role.KING):
                    continue  # never in hand
                if where == "check" and role is not Role.KING:
                    continue  # only a king is checked
                for perspective in Color:
                    _piece_for(role, color, perspective, where, kings)
    for count in range(2, 19):
        count_label(count)
