"""The picker's marks on a board, decoded with Pillow: the movable pieces, the chosen
one, the dots of its destinations and the rings of its captures, in both perspectives;
without marks the picture is the same bytes."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import Marks, layout, render_board
from render.board import CHECK, PILL, PILL_TEXT, WOOD
from rules import Color, Position, Role, Square

MIDGAME = "lnsgkgsnl/1r5b1/pppppp1pp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b P 1"


def rgb(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image.convert("RGB")


def at(image: Image.Image, box: layout.Box, dx: int, dy: int) -> tuple[int, ...]:
    pixel = image.getpixel((box[0] + dx, box[1] + dy))
    assert isinstance(pixel, tuple)
    return pixel


def centre(image: Image.Image, box: layout.Box) -> tuple[int, ...]:
    return at(image, box, (box[2] - box[0]) // 2, (box[3] - box[1]) // 2)


def sq(name: str) -> Square:
    return Square.from_usi(name)


@pytest.mark.parametrize("perspective", list(Color))
def test_no_marks_and_empty_marks_draw_the_same_bytes(perspective: Color) -> None:
    position = Position.from_sfen(MIDGAME)
    plain = render_board(position, perspective=perspective)
    assert render_board(position, perspective=perspective, marks=None) == plain
    assert render_board(position, perspective=perspective, marks=Marks()) == plain
    marked = render_board(position, perspective=perspective, marks=Marks(movable=frozenset({0})))
    assert marked != plain


@pytest.mark.parametrize("perspective", list(Color))
def test_movable_selected_destinations_and_captures_are_drawn(perspective: Color) -> None:
    position = Position.from_sfen(MIDGAME)
    marks = Marks(
        movable=frozenset({sq("7g"), sq("8h"), sq("2h")}),
        selected=sq("8h"),
        destinations=frozenset({sq("7g"), sq("6f"), sq("2b")}) - {sq("7g")},
        captures=frozenset({sq("2b")}),
        hand_movable=frozenset({Role.PAWN}),
    )
    image = rgb(render_board(position, perspective=perspective, marks=marks))
    plain = rgb(render_board(position, perspective=perspective))

    def box(name: str) -> layout.Box:
        return layout.square_box(sq(name), perspective)

    assert at(image, box("7g"), 3, 3) == PILL_TEXT  # a piece that can move: light cell
    assert at(image, box("8h"), 3, 3) == PILL  # the chosen piece: dark cell
    assert at(plain, box("8h"), 3, 3) == WOOD
    assert centre(image, box("6f")) == PILL  # an empty destination: a dark dot
    assert at(image, box("6f"), 3, 3) == WOOD  # ... on the wood
    assert centre(plain, box("6f")) == WOOD
    ring = {at(image, box("2b"), dx, 4) for dx in range(2, 12)}
    assert CHECK in ring  # a capture: a red ring round the piece
    assert at(image, box("5e"), 3, 3) == WOOD and centre(image, box("5e")) == WOOD
    slot = layout.hand_slot_box(Color.SENTE, perspective, 0)
    assert at(image, slot, 2, 2) == PILL_TEXT  # the pawn in hand can be dropped
    assert at(plain, slot, 2, 2) != PILL_TEXT


def test_a_chosen_drop_darkens_its_hand_piece() -> None:
    position = Position.from_sfen(MIDGAME)
    marks = Marks(hand_selected=Role.PAWN, destinations=frozenset({sq("5e")}))
    image = rgb(render_board(position, marks=marks))
    assert at(image, layout.hand_slot_box(Color.SENTE, Color.SENTE, 0), 2, 2) == PILL
    assert centre(image, layout.square_box(sq("5e"))) == PILL
