"""Drawing the board: cached backgrounds and piece images, pasted together per call.

Everything that does not change between positions is drawn once and kept:
the background for each perspective (page, wood, grid, coordinates, piece
stands), and every piece image (per character, colour, orientation and
background: plain wood, last move, check, piece stand). All of them are
quantised to one fixed palette, so a picture is the background with a few
dozen opaque pastes of palette images ("layers") over it. Text is drawn four
times larger and scaled down, which gives smooth edges; the palette holds ramps
between the colours that meet at such edges, so the scaled-down anti-aliasing
survives quantisation.

`render_png` goes one step further: the PNG is made of horizontal bands (one per
rank, plus the names and edges), and a band is named by the layers that touch
it. A band seen before is reused compressed, without drawing it; so a board in a
game draws and compresses only the ranks and stands its move changed.
"""

from __future__ import annotations

import io
import itertools
import re
import threading
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from rules import Color, Move, Position, Role
from rules.types import KING_GLYPHS

from . import layout as L
from .ending import Ending
from .fonts import (
    clipped,
    draw_text,
    fit_text,
    font,
    name_font,
    printable,
    runs,
    text_box,
    text_width,
)
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
RESIGNED: RGB = (168, 160, 150)  # the cell of a king whose side resigned

KEY_COLOURS: tuple[RGB, ...] = (
    PAGE, WOOD, GRID, KOMADAI, KOMADAI_EDGE, FACE, EDGE, INK, RED, LAST, CHECK, CHECK_EDGE,
    PILL, PILL_TEXT, MUTED, RESIGNED,
)  # fmt: skip
# Pairs of colours that meet at anti-aliased edges; the palette holds steps between them.
RAMPS: tuple[tuple[RGB, RGB], ...] = (
    (INK, FACE), (RED, FACE), (EDGE, FACE), (EDGE, WOOD), (EDGE, LAST), (EDGE, CHECK),
    (EDGE, KOMADAI), (INK, PAGE), (INK, KOMADAI), (GRID, WOOD), (MUTED, PAGE),
    (PILL_TEXT, PILL), (PILL, PAGE), (KOMADAI_EDGE, PAGE), (KOMADAI_EDGE, KOMADAI),
    (CHECK_EDGE, CHECK), (CHECK_EDGE, FACE), (WOOD, PAGE), (GRID, PAGE),
    (CHECK_EDGE, LAST), (EDGE, RESIGNED), (PILL_TEXT, RED), (RED, PAGE),
)  # fmt: skip
RAMP_STEPS = 5

SCALE = 4  # supersampling factor for everything drawn with curves or text


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
    draw: ImageDraw.ImageDraw,
    center: tuple[float, float],
    text: str,
    size: int,
    fill: RGB,
    face_at: Callable[[int], ImageFont.FreeTypeFont] = font,
) -> None:
    """Draw `text` with its ink box centred on `center` (the font's own metrics vary)."""
    face = face_at(size)
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

# Cell backgrounds a piece can stand on: "mate" is the last move's colour framed like a
# check, for the piece that gave mate; "resigned" greys the king of the side that resigned.
BACKGROUNDS: dict[str, RGB] = {
    "wood": WOOD,
    "last": LAST,
    "check": CHECK,
    "hand": KOMADAI,
    "mate": LAST,
    "resigned": RESIGNED,
    # The picker's marks (`Marks`): a piece that can move, the piece chosen, a capture.
    "movable": PILL_TEXT,
    "selected": PILL,
    "capture": WOOD,
}
_FRAMES: dict[str, RGB] = {"check": CHECK_EDGE, "mate": CHECK_EDGE, "capture": CHECK}
#: The backgrounds only the picker draws: `warm` leaves them to their first use.
MARK_BACKGROUNDS = frozenset({"movable", "selected", "capture"})


@lru_cache(maxsize=512)
def piece_image(kanji: str, red: bool, turned: bool, scale: float, background: str) -> Image.Image:
    """One piece on one cell's background, as a palette image of the cell's inside."""
    w, h = L.PIECE_W, L.PIECE_H
    image = _supersampled((w, h), BACKGROUNDS[background])
    draw = ImageDraw.Draw(image)
    s = SCALE
    frame = _FRAMES.get(background)
    if frame is not None:
        inset = 1.5 * s
        draw.rectangle(
            (inset, inset, w * s - inset - 1, h * s - inset - 1),
            outline=frame,
            width=round((4.5 if background == "capture" else 2.5) * s),
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


@lru_cache(maxsize=8)
def dot_image(background: str) -> Image.Image:
    """An empty square a chosen piece can go to: a dark dot on the cell's background,
    large enough to read on a phone."""
    w, h = L.PIECE_W, L.PIECE_H
    image = _supersampled((w, h), BACKGROUNDS[background])
    draw = ImageDraw.Draw(image)
    s, radius = SCALE, min(w, h) * 0.2
    cx, cy = w * s / 2, h * s / 2
    draw.ellipse(
        (cx - radius * s, cy - radius * s, cx + radius * s, cy + radius * s),
        fill=PILL,
        outline=PILL_TEXT,
        width=round(1.5 * s),
    )
    return _quantise(_shrink(image, (w, h)))


def _piece_args(
    role: Role, color: Color, perspective: Color, background: str, kings: Sequence[str]
) -> tuple[str, bool, bool, float, str]:
    """The arguments of `piece_image` for this piece here (they also name its pixels)."""
    kanji = kings[color] if role is Role.KING else KANJI[role]
    return (
        kanji,
        role.is_promoted,
        color is not perspective,
        PIECE_SCALE[role.unpromoted],
        background,
    )


def _piece_for(
    role: Role, color: Color, perspective: Color, background: str, kings: Sequence[str]
) -> Image.Image:
    return piece_image(*_piece_args(role, color, perspective, background, kings))


# ----------------------------------------------------------------- background

RANK_NUMERALS = "一二三四五六七八九"


#: Rows of the board's background drawn at once. The whole page supersampled is some 40 MB
#: of pixels, and with one render thread per perspective drawing it at once the bot's first
#: boards held two such pages at a time; a band is a few megabytes. The box filter averages
#: whole `SCALE`-pixel blocks, so the bands shrink to exactly the pixels of the whole page.
BACKGROUND_BAND_ROWS = 32
#: One background is drawn at a time in the process: two render threads drawing the two
#: perspectives at once each held their bands and buffers, twice the memory of one.
_DRAWING_BACKGROUND = threading.Lock()
#: Rows drawn above each band and cut off: Pillow places text that starts above an image's
#: top a pixel differently, so each label is drawn from inside the image that keeps it
#: (the margin is taller than the coordinates' labels).
BAND_MARGIN_ROWS = 32


@lru_cache(maxsize=2)
def background(perspective: Color) -> Image.Image:
    """Page, wood, grid, star points, coordinates and both (empty) piece stands, drawn
    one band of `BACKGROUND_BAND_ROWS` rows at a time."""
    width, height = L.SIZE
    with _DRAWING_BACKGROUND:
        page = Image.new("RGB", L.SIZE, PAGE)
        for row in range(0, height, BACKGROUND_BAND_ROWS):
            rows = min(BACKGROUND_BAND_ROWS, height - row)
            margin = min(BAND_MARGIN_ROWS, row)
            band = _supersampled((width, margin + rows), PAGE)
            _draw_background(ImageDraw.Draw(band), perspective, top=(row - margin) * SCALE)
            shrunk = _shrink(band, (width, margin + rows))
            page.paste(shrunk.crop((0, margin, width, margin + rows)), (0, row))
        return _quantise(page)


def _draw_background(draw: ImageDraw.ImageDraw, perspective: Color, *, top: int) -> None:
    """Draw the background supersampled, shifted up by `top` pixels (a band's first row)."""
    s = SCALE

    def box(b: L.Box) -> tuple[int, int, int, int]:
        return (b[0] * s, b[1] * s - top, b[2] * s - 1, b[3] * s - 1 - top)

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
        _text_centered(draw, (cx * s, cy * s - top), str(file_number), 20 * s, MUTED)
    for row in range(9):
        rank = row if perspective is Color.SENTE else 8 - row
        cx, cy = L.rank_label_center(row)
        _text_centered(draw, (cx * s, cy * s - top), RANK_NUMERALS[rank], 20 * s, MUTED)


@lru_cache(maxsize=1)
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


@lru_cache(maxsize=256)
def name_label(text: str, to_move: bool, max_width: int, winner: bool = False) -> Image.Image:
    """A player's name with its turn mark; the side to move's on a dark pill, the
    winner's in a red ring."""
    if to_move:
        return _pill_label(text, 24, max_width, fill=PILL, ink=PILL_TEXT)
    if winner:
        return _pill_label(text, 24, max_width, ring=RED, ink=INK)
    return _pill_label(text, 24, max_width, ink=INK)


RESULT_SIZE = 22


@lru_cache(maxsize=64)
def result_label(text: str, max_width: int) -> Image.Image:
    """The result of a finished game on a red pill, where the caption would be."""
    return _pill_label(text, RESULT_SIZE, max_width, fill=RED, ink=PILL_TEXT)


def _pill_label(
    text: str,
    size: int,
    max_width: int,
    *,
    ink: RGB,
    fill: RGB | None = None,
    ring: RGB | None = None,
) -> Image.Image:
    pad_x = 14
    text = fit_text(printable(clipped(text)), size, max_width - 2 * pad_x)
    width = round(text_width(text, size)) + 2 * pad_x
    height = L.NAME_H - 6
    s = SCALE
    image = _supersampled((width, height), PAGE)
    draw = ImageDraw.Draw(image)
    if fill is not None or ring is not None:
        draw.rounded_rectangle(
            (0, 0, width * s - 1, height * s - 1),
            radius=height * s // 2,
            fill=fill,
            outline=ring,
            width=3 * s,
        )
    _label_centered(draw, (width * s / 2, height * s / 2), text, size * s, ink)
    return _quantise(_shrink(image, (width, height)))


def _label_centered(
    draw: ImageDraw.ImageDraw, center: tuple[float, float], text: str, size: int, fill: RGB
) -> None:
    """A label's `printable` text with its ink box centred on `center`, emoji and symbols
    in the symbols' font (text without any is drawn as before, in one call)."""
    if not any(symbol for _run, symbol in runs(text)):
        _text_centered(draw, center, text, size, fill, name_font)
        return
    left, top, right, bottom = text_box(text, size)
    draw_text(
        draw, (center[0] - (left + right) / 2, center[1] - (top + bottom) / 2), text, size, fill
    )


CAPTION_SIZE = 20
CAPTION_PAD = 2
#: A caption in runs of digits and of other text: the move number changes with every
#: board, the words around it ("Move", "手数＝", "· sente to move") hardly ever.
_CAPTION_RUNS = re.compile(r"\d+|\D+")


@lru_cache(maxsize=256)
def caption_label(text: str, max_width: int) -> Image.Image:
    """A short line of text (the move count, whose turn, the result), composed of labels
    of its runs, so that a new move number draws only the number."""
    text = fit_text(printable(clipped(text)), CAPTION_SIZE, max_width - 2 * CAPTION_PAD)
    runs = [_caption_run(run) for run in _CAPTION_RUNS.findall(text)]
    width = sum(run.width for run in runs) + 2 * CAPTION_PAD
    image = Image.new("P", (max(1, width), L.NAME_H - 6), INDEX[PAGE])
    image.putpalette(_PALETTE_IMAGE.getpalette() or [])
    x = CAPTION_PAD
    for run in runs:
        image.paste(run, (x, 0))
        x += run.width
    return image


@lru_cache(maxsize=512)
def _caption_run(text: str) -> Image.Image:
    width = max(1, round(text_width(text, CAPTION_SIZE)))
    height = L.NAME_H - 6
    s = SCALE
    image = _supersampled((width, height), PAGE)
    draw = ImageDraw.Draw(image)
    face = name_font(CAPTION_SIZE * s)
    left, top, _right, bottom = draw.textbbox((0, 0), "一Ag", font=face)
    if any(symbol for _run, symbol in runs(text)):
        draw_text(draw, (-left, (height * s - top - bottom) / 2), text, CAPTION_SIZE * s, INK)
    else:
        draw.text((-left, (height * s - top - bottom) / 2), text, font=face, fill=INK)
    return _quantise(_shrink(image, (width, height)))


@lru_cache(maxsize=32)
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


# One thing drawn over the background: `(key, x, y, image, mask, width, height, fill)`.
# An image is pasted with its top left at (x, y) (through `mask` if any); without an
# image, the `width` x `height` area there is filled with palette index `fill`. `key`
# says what and where by the cached image's own arguments, not the image object: equal
# keys (for the same perspective and kings) mean equal pixels, which the band cache
# relies on. Plain tuples: a board has some fifty layers and builds them for every render.
_Layer = tuple[Hashable, int, int, Image.Image | None, Image.Image | None, int, int, int]

# Where each square's cell starts, per perspective, and the piece images' arguments per
# (code, perspective, cell background, kings): both asked some forty times a render.
_CELL_ORIGINS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple(L.square_box(square, perspective)[:2] for square in range(81)) for perspective in Color
)
_PIECE_ARGS: dict[tuple[int, Color, str, tuple[str, ...]], tuple[str, bool, bool, float, str]] = {}


def _draw(layer: _Layer, canvas: Image.Image, top: int = 0) -> None:
    """Draw a layer onto `canvas`, whose first row is the picture's row `top`."""
    _key, x, y, image, mask, width, height, fill = layer
    y -= top
    if image is None:
        canvas.paste(fill, (x, y, x + width, y + height))
    else:
        canvas.paste(image, (x, y), mask)


def _image_layer(key: Hashable, x: int, y: int, image: Image.Image) -> _Layer:
    return (key, x, y, image, None, image.width, image.height, 0)


def _board_piece_args(
    code: int, perspective: Color, background: str, kings: tuple[str, ...]
) -> tuple[str, bool, bool, float, str]:
    key = (code, perspective, background, kings)
    args = _PIECE_ARGS.get(key)
    if args is None:
        args = _piece_args(Role(code & 15), Color(code >> 4), perspective, background, kings)
        _PIECE_ARGS[key] = args  # at most 28 codes x 2 x 6 x 4 entries
    return args


@dataclass(frozen=True, slots=True)
class Marks:
    """The picker's marks on a board: the squares of the pieces that can move (`movable`),
    the piece chosen (`selected`), where it can go (`destinations`, a dot on an empty
    square) and which of those take a piece (`captures`, ringed in red); in the hand of
    the side to move, the kinds that can be dropped (`hand_movable`) and the one chosen
    (`hand_selected`). Squares are the board's indices (`rules.Square`)."""

    movable: frozenset[int] = frozenset()
    selected: int | None = None
    destinations: frozenset[int] = frozenset()
    captures: frozenset[int] = frozenset()
    hand_movable: frozenset[Role] = frozenset()
    hand_selected: Role | None = None


@dataclass(frozen=True, slots=True)
class Diagram:
    """What one board picture shows: `render.BoardOptions` says what each field draws."""

    position: Position
    last_move: Move | None = None
    perspective: Color = Color.SENTE
    sente_name: str | None = None
    gote_name: str | None = None
    caption: str | None = None
    kings: Sequence[str] = KING_KANJI
    ending: Ending | None = None
    marks: Marks | None = None


def _layers(diagram: Diagram) -> list[_Layer]:
    """Everything drawn over the background, in drawing order."""
    position, perspective, ending = diagram.position, diagram.perspective, diagram.ending
    kings = tuple(diagram.kings)
    layers: list[_Layer] = []
    board = position.board
    marked = _marked_squares(position, diagram.last_move, ending)
    marks = diagram.marks
    if marks is not None:
        marked.update(_picker_marks(marks))

    origins = _CELL_ORIGINS[perspective]
    for square, bg in marked.items():
        if bg == "dot":
            x, y = origins[square]
            dot = dot_image("wood")
            layers.append((("dot", x, y), x, y, dot, None, L.PIECE_W, L.PIECE_H, 0))
        elif not board[square]:
            x, y = origins[square]
            fill = INDEX[BACKGROUNDS[bg]]
            key = ("fill", x, y, fill)
            layers.append((key, x, y, None, None, L.PIECE_W, L.PIECE_H, fill))
    width, height = L.PIECE_W, L.PIECE_H
    for square, code in enumerate(board):
        if code:
            args = _board_piece_args(code, perspective, marked.get(square, "wood"), kings)
            x, y = origins[square]
            layers.append(((args, x, y), x, y, piece_image(*args), None, width, height, 0))
    star, star_mask, radius = star_point()
    for x, y in L.STAR_POINTS:
        x, y = x - radius, y - radius
        layers.append((("star", x, y), x, y, star, star_mask, star.width, star.height, 0))

    for color in (Color.SENTE, Color.GOTE):
        hand = _hand_marks(marks) if marks is not None and color is position.turn else {}
        _hand_layers(layers, position.hands[color], color, perspective, kings, hand)

    names = {
        color: _default_name(color) if name is None else clipped(name)
        for color, name in ((Color.SENTE, diagram.sente_name), (Color.GOTE, diagram.gote_name))
    }
    bottom_name = None
    for color in (Color.SENTE, Color.GOTE):
        name_args = (
            f"{color.symbol} {names[color]}",
            ending is None and position.turn is color,
            NAME_MAX_W,
            ending is not None and ending.winner is color,
        )
        label = name_label(*name_args)
        band = L.name_box(color, perspective)
        y = band[1] + (band[3] - band[1] - label.height) // 2
        if color is perspective:  # bottom right
            x = band[2] - label.width
            bottom_name = x
        else:
            x = band[0]
        layers.append(_image_layer(("name", *name_args, x, y), x, y, label))
    # Cut here, before they name cached labels and bands: a key holds its text as long
    # as the caches keep it.
    caption = None if diagram.caption is None else clipped(diagram.caption)
    result = None if ending is None else clipped(ending.result)
    band = L.FOOTER
    room = (bottom_name if bottom_name is not None else band[2]) - band[0] - 16
    if room > 40 and result is not None:
        label = result_label(result, room)
        x, y = band[0], band[1] + (band[3] - band[1] - label.height) // 2
        layers.append(_image_layer(("result", result, room, x, y), x, y, label))
    elif room > 40 and caption:
        label = caption_label(caption, room)
        x, y = band[0], band[1] + (band[3] - band[1] - label.height) // 2
        layers.append(_image_layer(("caption", caption, room, x, y), x, y, label))
    return layers


def _marked_squares(
    position: Position, last_move: Move | None, ending: Ending | None
) -> dict[int, str]:
    """The squares drawn on another background than the wood, and which one."""
    marked: dict[int, str] = {}
    if last_move is not None:
        if last_move.from_square is not None:
            marked[last_move.from_square] = "last"
        mate = ending is not None and ending.mate
        marked[last_move.to_square] = "mate" if mate else "last"
    if position.is_check():
        marked[position.king_square(position.turn)] = "check"
    if ending is not None and ending.resigned is not None:
        marked[position.king_square(ending.resigned)] = "resigned"
    return marked


def _picker_marks(marks: Marks) -> dict[int, str]:
    """The picker's squares and how each is drawn ("dot": an empty square to go to)."""
    marked = dict.fromkeys(marks.movable, "movable")
    marked.update(dict.fromkeys(marks.destinations, "dot"))
    marked.update(dict.fromkeys(marks.captures, "capture"))
    if marks.selected is not None:
        marked[marks.selected] = "selected"
    return marked


def _hand_marks(marks: Marks) -> dict[Role, str]:
    marked = dict.fromkeys(marks.hand_movable, "movable")
    if marks.hand_selected is not None:
        marked[marks.hand_selected] = "selected"
    return marked


def _hand_layers(
    layers: list[_Layer],
    counts: Sequence[int],
    color: Color,
    perspective: Color,
    kings: tuple[str, ...],
    marked: dict[Role, str],
) -> None:
    index = 0
    for role in HAND_ORDER:
        count = counts[role]
        if not count:
            continue
        x, y, right, _bottom = L.hand_slot_box(color, perspective, index)
        background = marked.get(role, "hand")
        args = _board_piece_args(role + 16 * color, perspective, background, kings)
        layers.append(((args, x, y), x, y, piece_image(*args), None, L.PIECE_W, L.PIECE_H, 0))
        if count > 1:
            x = right + 2
            layers.append(_image_layer(("count", count, x, y), x, y, count_label(count)))
        index += 1


def compose(diagram: Diagram) -> Image.Image:
    """The picture as a palette image (what `render_board` encodes)."""
    canvas = background(diagram.perspective).copy()
    for layer in _layers(diagram):
        _draw(layer, canvas)
    return canvas


# The picture's bands for `BandEncoder`: the names, the file numbers, each rank (the hand
# stands change with them), then the bottom edge and the footer. Consecutive boards share
# most of them, so only the bands a move changed are drawn and compressed again.
PNG_BANDS = (
    L.FILES_Y,
    L.GRID_Y,
    *(L.GRID_Y + rank * L.CELL_H for rank in range(1, 9)),
    L.GRID_Y + L.GRID_H,
    L.FOOTER_Y,
)
# zlib level 3 on the bands that changed: faster than Pillow's encoder at the same level
# for the same bytes, and a few percent larger files than level 5 (docs/render.md).
# Palette PNGs use no row filter, which suits flat colours.
PNG_COMPRESS_LEVEL = 3
_ENCODER = BandEncoder(PNG_BANDS, level=PNG_COMPRESS_LEVEL)
_BAND_RANGES: tuple[tuple[int, int], ...] = tuple(itertools.pairwise((0, *PNG_BANDS, L.HEIGHT)))
# The band each row of the picture belongs to.
_BAND_OF_ROW: tuple[int, ...] = tuple(
    index for index, (top, bottom) in enumerate(_BAND_RANGES) for _row in range(top, bottom)
)


def encode_png(image: Image.Image) -> bytes:
    if BandEncoder.accepts(image):
        return _ENCODER.encode(image)
    buffer = io.BytesIO()
    image.save(buffer, "PNG", compress_level=PNG_COMPRESS_LEVEL)
    return buffer.getvalue()


@lru_cache(maxsize=2 * len(_BAND_RANGES))
def _background_band(perspective: Color, index: int) -> Image.Image:
    top, bottom = _BAND_RANGES[index]
    return background(perspective).crop((0, top, L.WIDTH, bottom))


@lru_cache(maxsize=2)
def _palette_bytes(perspective: Color) -> bytes:
    return bytes((background(perspective).getpalette() or [])[: 3 * 256])


def render_png(diagram: Diagram) -> bytes:
    """`encode_png(compose(diagram))`, the same bytes, drawing only the bands not seen before.

    Each band is keyed by the layers that touch it (see `_Layer`), so a band a move
    left alone costs a dictionary lookup instead of being drawn, copied out of the
    picture and hashed; a new band is drawn on its own strip of the background.
    """
    layers = _layers(diagram)
    per_band: list[list[_Layer]] = [[] for _ in _BAND_RANGES]
    band_of = _BAND_OF_ROW  # every layer lies inside the picture
    for layer in layers:
        y = layer[2]
        first = band_of[y]
        per_band[first].append(layer)
        for index in range(first + 1, band_of[y + layer[6] - 1] + 1):
            per_band[index].append(layer)
    perspective, kings = diagram.perspective, tuple(diagram.kings)
    keys = [(perspective, kings, tuple([layer[0] for layer in band])) for band in per_band]

    def pixels(index: int) -> bytes:
        strip = _background_band(perspective, index).copy()
        top = _BAND_RANGES[index][0]
        for layer in per_band[index]:
            _draw(layer, strip, top)
        return strip.tobytes()

    return _ENCODER.encode_bands(L.SIZE, _palette_bytes(perspective), keys, pixels)


def warm(kings: Sequence[str] = KING_KANJI) -> None:
    """Draw every cached image now instead of on first use.

    Without it, the first render in a process pays for the backgrounds and each
    new piece image as it meets them (docs/render.md has the figures).
    """
    for perspective in Color:
        background(perspective)
    star_point()
    for color in Color:
        for role in Role:
            for where in [name for name in BACKGROUNDS if name not in MARK_BACKGROUNDS]:
                if where == "hand" and (role.is_promoted or role is Role.KING):
                    continue  # never in hand
                if where in ("check", "resigned") and role is not Role.KING:
                    continue  # only a king is checked or laid down
                for perspective in Color:
                    _piece_for(role, color, perspective, where, kings)
    for count in range(2, 19):
        count_label(count)
