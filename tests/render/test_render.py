"""The board image: decoded with Pillow and checked pixel by pixel where it matters.

No golden images: the tests sample pixels at places `render.layout` names
(a square's cell, a hand's stand, a name band) and compare them with the
colours `render.board` draws with. Every key colour is in the fixed palette,
so a flat area has exactly that colour.
"""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

import pytest
from PIL import Image

from render import board, fonts, layout, render_board
from rules import Color, Move, Position, Square

START = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1"
MATSURI = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"
FULL_HANDS = "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1"
MATE = "5k3/5G1pp/4S4/9/9/9/PPPP5/2KG5/9 w - 2"
LONE_ROOK = "4k4/9/9/9/9/9/9/7R1/4K4 b - 1"  # sente rook on 2h: not symmetric


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def rgb(png: bytes) -> Image.Image:
    return decode(png).convert("RGB")


def corner(
    image: Image.Image, square: Square | int, perspective: Color = Color.SENTE
) -> tuple[int, ...]:
    """A pixel inside the cell but outside any piece (pieces leave the corners free)."""
    left, top, _right, _bottom = layout.square_box(square, perspective)
    pixel = image.getpixel((left + 4, top + 4))
    assert isinstance(pixel, tuple)
    return pixel


def colours_in(image: Image.Image, box: layout.Box) -> set[tuple[int, ...]]:
    colours = image.crop(box).getcolors(maxcolors=1 << 16)
    assert colours is not None
    return {colour for _count, colour in colours if isinstance(colour, tuple)}


def inside(box: layout.Box, inset: int) -> layout.Box:
    return (box[0] + inset, box[1] + inset, box[2] - inset, box[3] - inset)


def after(sfen: str, *usi: str) -> tuple[Position, Move]:
    position = Position.from_sfen(sfen)
    move = None
    for text in usi:
        move = Move.from_usi(text)
        position.push(move)
    assert move is not None
    return position, move


# ----------------------------------------------------------------- format


@pytest.mark.parametrize("perspective", list(Color))
@pytest.mark.parametrize("sfen", [START, MATSURI, FULL_HANDS, MATE])
def test_a_palette_png_of_the_layout_size(sfen: str, perspective: Color) -> None:
    png = render_board(Position.from_sfen(sfen), perspective=perspective)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    image = decode(png)
    assert image.format == "PNG"
    assert image.mode == "P"
    assert image.size == layout.SIZE
    assert image.width >= 720
    assert len(png) <= 40_000


def test_the_same_position_gives_the_same_picture_and_is_not_changed() -> None:
    position, move = after(START, "7g7f", "3c3d")
    before = position.sfen()
    first = render_board(position, last_move=move)
    second = render_board(position, last_move=move)
    assert first == second
    assert position.sfen() == before


def test_options_are_keyword_only() -> None:
    with pytest.raises(TypeError):
        render_board(Position.initial(), None)  # type: ignore[call-arg]


# ----------------------------------------------------------------- last move


def test_last_move_origin_and_destination_are_highlighted_and_nothing_else() -> None:
    position, move = after(START, "7g7f")
    image = rgb(render_board(position, last_move=move))
    highlighted = {sq for sq in map(Square, range(81)) if corner(image, sq) == board.LAST}
    assert highlighted == {Square.from_usi("7g"), Square.from_usi("7f")}
    assert corner(image, Square.from_usi("7e")) == board.WOOD
    assert corner(image, Square.from_usi("8g")) == board.WOOD


def test_a_drop_highlights_only_its_destination() -> None:
    position, move = after("4k4/9/9/9/9/9/9/9/4K4 b P 1", "P*5e")
    image = rgb(render_board(position, last_move=move))
    highlighted = {sq for sq in map(Square, range(81)) if corner(image, sq) == board.LAST}
    assert highlighted == {Square.from_usi("5e")}


def test_without_a_last_move_no_square_is_highlighted() -> None:
    image = rgb(render_board(Position.from_sfen(MATSURI)))
    assert board.LAST not in colours_in(image, layout.GRID)


@pytest.mark.parametrize("perspective", list(Color))
def test_highlight_follows_the_perspective(perspective: Color) -> None:
    position, move = after(START, "2g2f")
    image = rgb(render_board(position, last_move=move, perspective=perspective))
    for usi in ("2g", "2f"):
        assert corner(image, Square.from_usi(usi), perspective) == board.LAST
        # the mirrored cell (8c, 8d) is not highlighted
        assert corner(image, Square.from_usi(usi).mirror(), perspective) != board.LAST


# ----------------------------------------------------------------- perspective


def test_gote_perspective_turns_the_picture() -> None:
    position = Position.from_sfen(LONE_ROOK)
    rook = Square.from_usi("2h")
    sente = rgb(render_board(position))
    gote = rgb(render_board(position, perspective=Color.GOTE))
    from_sente = sente.crop(layout.square_box(rook, Color.SENTE))
    from_gote = gote.crop(layout.square_box(rook, Color.GOTE))
    # the rook is drawn where 8b is from sente's side, turned upside down
    assert layout.square_box(rook, Color.GOTE) == layout.square_box(rook.mirror(), Color.SENTE)
    assert from_gote.tobytes() == from_sente.rotate(180).tobytes()
    assert from_gote.tobytes() != from_sente.tobytes()
    assert len(colours_in(sente, layout.square_box(rook))) > 5  # a piece is there
    assert colours_in(gote, layout.square_box(rook)) == {board.WOOD}  # and not here


def test_gote_perspective_numbers_the_files_from_the_other_side() -> None:
    position = Position.initial()
    sente = rgb(render_board(position))
    gote = rgb(render_board(position, perspective=Color.GOTE))

    def label(column: int) -> layout.Box:
        x = layout.GRID_X + column * layout.CELL_W
        return (x, layout.FILES_Y, x + layout.CELL_W, layout.WOOD_Y0)

    # the left column is labelled 9 for sente and 1 for gote, the right one the other way
    assert sente.crop(label(0)).tobytes() != gote.crop(label(0)).tobytes()
    assert sente.crop(label(8)).tobytes() == gote.crop(label(0)).tobytes()
    assert sente.crop(label(0)).tobytes() == gote.crop(label(8)).tobytes()


# ----------------------------------------------------------------- hands


def stand_colours(image: Image.Image, color: Color, perspective: Color) -> set[tuple[int, ...]]:
    return colours_in(image, inside(layout.hand_box(color, perspective), 4))


@pytest.mark.parametrize("perspective", list(Color))
def test_empty_hands_leave_the_stands_empty(perspective: Color) -> None:
    image = rgb(render_board(Position.initial(), perspective=perspective))
    for color in Color:
        assert stand_colours(image, color, perspective) == {board.KOMADAI}


@pytest.mark.parametrize("perspective", list(Color))
def test_a_hand_is_drawn_on_its_own_stand(perspective: Color) -> None:
    position = Position.from_sfen("4k4/9/9/9/9/9/9/9/4K4 b 2P 1")  # sente holds two pawns
    image = rgb(render_board(position, perspective=perspective))
    assert stand_colours(image, Color.SENTE, perspective) > {board.KOMADAI, board.FACE}
    assert stand_colours(image, Color.GOTE, perspective) == {board.KOMADAI}
    slot = layout.hand_slot_box(Color.SENTE, perspective, 0)
    assert board.FACE in colours_in(image, slot)
    count = (slot[2] + 2, slot[1], layout.hand_box(Color.SENTE, perspective)[2] - 4, slot[3])
    assert board.INK in colours_in(image, count)  # the "2"


def test_sente_hand_is_bottom_right_from_sente_and_top_left_from_gote() -> None:
    sente_view = layout.hand_box(Color.SENTE, Color.SENTE)
    gote_view = layout.hand_box(Color.SENTE, Color.GOTE)
    assert sente_view[0] > layout.GRID[2] and sente_view[3] == layout.WOOD_Y1
    assert gote_view[2] < layout.GRID[0] and gote_view[1] == layout.WOOD_Y0
    assert layout.hand_box(Color.GOTE, Color.SENTE) == gote_view


def test_full_hands_fill_seven_rows_with_counts() -> None:
    position = Position.from_sfen(FULL_HANDS)  # sente one of each, gote 3g 3n 17p
    image = rgb(render_board(position))

    def slot(color: Color, index: int) -> set[tuple[int, ...]]:
        return colours_in(image, layout.hand_slot_box(color, Color.SENTE, index))

    assert all(board.FACE in slot(Color.SENTE, index) for index in range(7))
    assert all(board.FACE in slot(Color.GOTE, index) for index in range(3))
    assert board.FACE not in slot(Color.GOTE, 3)
    one_each = layout.hand_slot_box(Color.SENTE, Color.SENTE, 0)
    no_count = (one_each[2] + 2, one_each[1], layout.BOTTOM_KOMADAI[2] - 4, one_each[3])
    assert colours_in(image, no_count) == {board.KOMADAI}  # a single piece has no number
    pawns = layout.hand_slot_box(Color.GOTE, Color.SENTE, 0)
    count = (pawns[2] + 2, pawns[1], layout.TOP_KOMADAI[2] - 4, pawns[3])
    assert board.INK in colours_in(image, count)  # 17


# ----------------------------------------------------------------- check


@pytest.mark.parametrize("perspective", list(Color))
def test_the_checked_king_is_marked(perspective: Color) -> None:
    position, move = after("5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1", "G*4b")
    assert position.is_checkmate()
    image = rgb(render_board(position, last_move=move, perspective=perspective))
    king = position.king_square(Color.GOTE)
    cell = colours_in(image, layout.square_box(king, perspective))
    assert {board.CHECK, board.CHECK_EDGE} <= cell
    for square in map(Square, range(81)):
        if square != king:
            assert board.CHECK not in colours_in(image, layout.square_box(square, perspective))
    # the checking gold's square is the last move's destination, not a check mark
    assert corner(image, Square.from_usi("4b"), perspective) == board.LAST


def test_no_check_no_mark() -> None:
    image = rgb(render_board(Position.from_sfen(MATSURI)))
    assert board.CHECK not in colours_in(image, layout.GRID)


# ----------------------------------------------------------------- names, kings


def test_the_side_to_move_has_the_pill() -> None:
    for sfen, mover in ((START, Color.SENTE), (MATSURI, Color.GOTE)):
        image = rgb(render_board(Position.from_sfen(sfen), sente_name="A", gote_name="B"))
        assert board.PILL in colours_in(image, layout.name_box(mover))
        assert board.PILL not in colours_in(image, layout.name_box(mover.opponent))


def test_any_name_is_safe() -> None:
    names = ["🐉 ドラゴン 龍王 Łukasz Dvořák", "", "a" * 300, "\u202etab\there\x00"]
    for name in names:
        png = render_board(Position.initial(), sente_name=name, gote_name=name, caption=name)
        assert decode(png).size == layout.SIZE


def test_kings_option() -> None:
    position = Position.initial()
    king = Square.from_usi("5i")
    default = rgb(render_board(position)).crop(layout.square_box(king))
    both = rgb(render_board(position, kings=("王", "王"))).crop(layout.square_box(king))
    assert default.tobytes() != both.tobytes()
    gote_king = rgb(render_board(position)).crop(layout.square_box(Square.from_usi("5a")))
    assert both.tobytes() == gote_king.rotate(180).tobytes()  # 王 for both, turned for gote
    with pytest.raises(ValueError):
        render_board(position, kings=("K", "王"))


def test_promoted_pieces_are_red() -> None:
    position = Position.from_sfen("4k4/9/9/9/4+B4/9/9/9/4K4 b - 1")
    image = rgb(render_board(position))
    assert board.RED in colours_in(image, layout.square_box(Square.from_usi("5e")))
    assert board.RED not in colours_in(image, layout.square_box(Square.from_usi("5i")))


def test_warm_draws_the_cache_and_changes_nothing() -> None:
    position, move = after(MATSURI, "P*5e")
    before = render_board(position, last_move=move)
    board.warm()
    misses = board.piece_image.cache_info().misses
    for perspective in Color:
        render_board(Position.from_sfen(FULL_HANDS), perspective=perspective)
        render_board(Position.from_sfen(MATE), perspective=perspective)
    assert board.piece_image.cache_info().misses == misses  # nothing left to draw
    assert render_board(position, last_move=move) == before


def test_renders_in_threads_from_cold_caches_agree() -> None:
    positions = [Position.from_sfen(sfen) for sfen in (START, MATSURI, FULL_HANDS, MATE)]
    expected = [render_board(p, sente_name="Ann", gote_name="名無し") for p in positions]
    for cached in (board.piece_image, board.background, board.name_label, board.count_label):
        cached.cache_clear()
    with ThreadPoolExecutor(max_workers=8) as pool:
        futures = [
            pool.submit(render_board, positions[i % 4], sente_name="Ann", gote_name="名無し")
            for i in range(32)
        ]
        results = [future.result() for future in futures]
    assert results == [expected[i % 4] for i in range(32)]


def test_a_caption_is_composed_of_runs_that_line_up() -> None:
    """A new move number draws only the number: the words around it are the same pixels
    in every caption, and the whole is as wide as the text set in one piece."""
    twelve = board.caption_label("Move 12 · sente to move", 400)
    ninety = board.caption_label("Move 90 · sente to move", 400)
    face = fonts.name_font(board.CAPTION_SIZE)
    expected = face.getlength("Move 12 · sente to move") + 2 * board.CAPTION_PAD
    assert abs(twelve.width - expected) <= 3
    words = face.getlength("Move ")
    left = (0, 0, int(words), twelve.height)
    assert twelve.crop(left).tobytes() == ninety.crop(left).tobytes()
    assert twelve.tobytes() != ninety.tobytes()


@pytest.mark.parametrize("perspective", list(Color))
def test_the_background_drawn_in_bands_is_the_page_drawn_whole(
    perspective: Color, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The background is drawn a band at a time to keep the supersampled page out of
    memory; the bands (labels crossing their edges included) make the same pixels."""
    board.background.cache_clear()
    monkeypatch.setattr(board, "BACKGROUND_BAND_ROWS", layout.SIZE[1])
    whole = board.background(perspective)
    board.background.cache_clear()
    monkeypatch.undo()
    banded = board.background(perspective)
    board.background.cache_clear()
    assert layout.SIZE[1] // 4 > board.BACKGROUND_BAND_ROWS
    assert banded.getpalette() == whole.getpalette()
    assert banded.tobytes() == whole.tobytes()
