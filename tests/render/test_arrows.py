"""The explorer's arrows, read back from real PNG bytes: each arrow's blue is where its move
goes and nowhere else, a heavier arrow is wider, and a drop starts at its piece on the
stand."""

from __future__ import annotations

import io

from PIL import Image

from render import layout
from render.arrows import Arrow, arrow_ends, render_arrows
from rules import Color, Move, Position, Square

#: A position with a silver and a gold in sente's hand (and a silver in gote's).
HANDS = "lnsgkg1nl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LN2KGSNL b GSs 2"


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image.convert("RGB")


def is_blue(pixel: tuple[int, int, int]) -> bool:
    red, green, blue = pixel
    return blue > red + 60 and blue > green + 30


def along(start: tuple[float, float], end: tuple[float, float], t: float) -> tuple[int, int]:
    return (round(start[0] + (end[0] - start[0]) * t), round(start[1] + (end[1] - start[1]) * t))


def width_across(image: Image.Image, x: int, y: int) -> int:
    """How many blue pixels a horizontal line through (x, y) crosses around it."""
    return sum(is_blue(image.getpixel((x + dx, y))) for dx in range(-30, 31))  # type: ignore[arg-type]


def test_each_arrow_is_where_its_move_goes_and_heavier_is_wider() -> None:
    start = Position.initial()
    heavy, light = Move.from_usi("7g7f"), Move.from_usi("2g2f")
    image = decoded(render_arrows(start, [Arrow(heavy, 1.0), Arrow(light, 0.0)]))
    for move in (heavy, light):
        begin, end = arrow_ends(start, move)
        assert is_blue(image.getpixel(along(begin, end, 0.3)))  # type: ignore[arg-type]
    # No arrow where no move goes: the centre of 5e, and of 9i's lance.
    for square in ("5e", "9i", "3c"):
        box = layout.square_box(Square.from_usi(square))
        centre = ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2)
        assert not is_blue(image.getpixel(centre))  # type: ignore[arg-type]
    heavy_at = along(*arrow_ends(start, heavy), 0.3)
    light_at = along(*arrow_ends(start, light), 0.3)
    assert width_across(image, *heavy_at) >= width_across(image, *light_at) + 10
    plain = decoded(render_arrows(start, []))
    assert not is_blue(plain.getpixel(heavy_at))  # type: ignore[arg-type]


def test_a_drop_starts_at_its_piece_on_the_stand() -> None:
    position = Position.from_sfen(HANDS)
    drop = Move.from_usi("S*5e")
    begin, end = arrow_ends(position, drop)
    stand = layout.hand_box(Color.SENTE)
    assert stand[0] <= begin[0] <= stand[2] and stand[1] <= begin[1] <= stand[3]
    image = decoded(render_arrows(position, [Arrow(drop, 0.5)]))
    assert is_blue(image.getpixel(along(begin, end, 0.5)))  # type: ignore[arg-type]
    # The gold's slot is another one: its arrow starts elsewhere on the stand.
    gold_begin, _ = arrow_ends(position, Move.from_usi("G*5e"))
    assert gold_begin != begin and stand[1] <= gold_begin[1] <= stand[3]


def test_arrows_turn_with_the_board() -> None:
    start = Position.initial()
    move = Move.from_usi("7g7f")
    image = decoded(render_arrows(start, [Arrow(move, 1.0)], perspective=Color.GOTE))
    begin, end = arrow_ends(start, move, Color.GOTE)
    assert end[1] > begin[1]  # seen from gote's side, sente's pawn moves down the picture
    assert is_blue(image.getpixel(along(begin, end, 0.3)))  # type: ignore[arg-type]
