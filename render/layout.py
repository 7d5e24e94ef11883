"""Where everything goes in the picture: pure geometry, no drawing.

Boxes are Pillow boxes `(left, top, right, bottom)` with the right and bottom
edges excluded, so `image.crop(box)` is exactly the area. The picture, as
sente sees it (`perspective=Color.SENTE`)::

    ☖ top player's name                                  caption-free header
    ┌────────┐   9  8  7  6  5  4  3  2  1
    │ top    │  ┌──────────────────────────┐
    │ player │  │                          │ 一
    │ hand   │  │        the board         │ ..
    └────────┘  │                          │ 九 ┌────────┐
                │                          │    │ bottom │
                └──────────────────────────┘    └────────┘
    caption                                   ☗ bottom player's name

With `perspective=Color.GOTE` the board turns 180 degrees: gote's pieces are
at the bottom, the files read 1..9 from the left and the ranks 九..一 from the
top, and gote's hand and name take the bottom right. Text stays upright.
"""

from __future__ import annotations

from rules import Color, Square

Box = tuple[int, int, int, int]

MARGIN = 12
NAME_H = 44  # header and footer bands (player names, caption)
CELL_W = 60  # grid pitch: one cell plus one grid line
CELL_H = 65  # real boards are a little taller than wide (about 33 x 36 mm)
LINE = 2  # grid line width
FRAME = 3  # the outer frame, drawn outside the grid lines
WOOD_PAD = 12  # wood around the grid
FILE_ROW = 30  # file numbers above the board
RANK_COL = 34  # rank numerals right of the board
KOMADAI_W = 104  # piece stands (hands)
KOMADAI_GAP = 12
HAND_SLOTS = 7  # at most seven kinds in hand
SLOT_H = 60
HAND_PAD = 10
FOOTER_GAP = 6

PIECE_W = CELL_W - LINE  # a piece image covers one cell's inside
PIECE_H = CELL_H - LINE
GRID_W = 9 * CELL_W + LINE
GRID_H = 9 * CELL_H + LINE
KOMADAI_H = HAND_SLOTS * SLOT_H + 2 * HAND_PAD

HEADER_Y = MARGIN
FILES_Y = HEADER_Y + NAME_H
WOOD_Y0 = FILES_Y + FILE_ROW
GRID_Y = WOOD_Y0 + WOOD_PAD
WOOD_Y1 = GRID_Y + GRID_H + WOOD_PAD
FOOTER_Y = WOOD_Y1 + FOOTER_GAP
HEIGHT = FOOTER_Y + NAME_H + MARGIN

LEFT_KOMADAI_X = MARGIN
WOOD_X0 = LEFT_KOMADAI_X + KOMADAI_W + KOMADAI_GAP
GRID_X = WOOD_X0 + WOOD_PAD
WOOD_X1 = GRID_X + GRID_W + WOOD_PAD
RANKS_X = WOOD_X1
RIGHT_KOMADAI_X = RANKS_X + RANK_COL
WIDTH = RIGHT_KOMADAI_X + KOMADAI_W + MARGIN

SIZE = (WIDTH, HEIGHT)
WOOD: Box = (WOOD_X0, WOOD_Y0, WOOD_X1, WOOD_Y1)
GRID: Box = (GRID_X, GRID_Y, GRID_X + GRID_W, GRID_Y + GRID_H)
TOP_KOMADAI: Box = (LEFT_KOMADAI_X, WOOD_Y0, LEFT_KOMADAI_X + KOMADAI_W, WOOD_Y0 + KOMADAI_H)
BOTTOM_KOMADAI: Box = (RIGHT_KOMADAI_X, WOOD_Y1 - KOMADAI_H, RIGHT_KOMADAI_X + KOMADAI_W, WOOD_Y1)
HEADER: Box = (MARGIN, HEADER_Y, WIDTH - MARGIN, HEADER_Y + NAME_H)
FOOTER: Box = (MARGIN, FOOTER_Y, WIDTH - MARGIN, FOOTER_Y + NAME_H)


def cell_position(square: int, perspective: Color) -> tuple[int, int]:
    """(column, row) of a square on the picture, 0..8 from the top left."""
    column, row = square % 9, square // 9
    if perspective is Color.GOTE:
        return 8 - column, 8 - row
    return column, row


def cell_box(column: int, row: int) -> Box:
    """The inside of the cell at (column, row), grid lines excluded."""
    x = GRID_X + column * CELL_W + LINE
    y = GRID_Y + row * CELL_H + LINE
    return (x, y, x + PIECE_W, y + PIECE_H)


def square_box(square: int, perspective: Color = Color.SENTE) -> Box:
    """The inside of `square`'s cell (what a piece or a highlight covers), in pixels.

    >>> square_box(Square.from_usi("9a"))
    (142, 100, 200, 163)
    """
    return cell_box(*cell_position(square, perspective))


def square_at(x: int, y: int, perspective: Color = Color.SENTE) -> Square | None:
    """The square whose cell holds the pixel (x, y), or None (grid lines and outside)."""
    column, dx = divmod(x - GRID_X, CELL_W)
    row, dy = divmod(y - GRID_Y, CELL_H)
    if not (0 <= column < 9 and 0 <= row < 9) or dx < LINE or dy < LINE:
        return None
    if perspective is Color.GOTE:
        column, row = 8 - column, 8 - row
    return Square.of(9 - column, row + 1)


def hand_box(color: Color, perspective: Color = Color.SENTE) -> Box:
    """The piece stand that holds `color`'s hand: bottom right for the viewer's side."""
    return BOTTOM_KOMADAI if color is perspective else TOP_KOMADAI


def hand_slot_box(color: Color, perspective: Color, index: int) -> Box:
    """The `index`-th row of a hand, counted from the stand's outer edge.

    The viewer's stand fills from its bottom up, the opponent's from its top
    down, so that turning the picture turns the hands too.
    """
    if not 0 <= index < HAND_SLOTS:
        raise ValueError(f"no hand slot {index}")
    left, top, _right, bottom = hand_box(color, perspective)
    x = left + 6
    if color is perspective:
        y = bottom - HAND_PAD - (index + 1) * SLOT_H + (SLOT_H - PIECE_H) // 2
    else:
        y = top + HAND_PAD + index * SLOT_H + (SLOT_H - PIECE_H) // 2
    return (x, y, x + PIECE_W, y + PIECE_H)


def name_box(color: Color, perspective: Color = Color.SENTE) -> Box:
    """The band for `color`'s name: the footer for the viewer's side, the header otherwise."""
    return FOOTER if color is perspective else HEADER


def file_label_center(column: int) -> tuple[int, int]:
    return (GRID_X + column * CELL_W + CELL_W // 2 + LINE // 2, FILES_Y + FILE_ROW // 2)


def rank_label_center(row: int) -> tuple[int, int]:
    return (RANKS_X + RANK_COL // 2, GRID_Y + row * CELL_H + CELL_H // 2 + LINE // 2)


STAR_POINTS: tuple[tuple[int, int], ...] = tuple(
    (GRID_X + i * CELL_W + LINE // 2, GRID_Y + j * CELL_H + LINE // 2)
    for j in (3, 6)
    for i in (3, 6)
)
