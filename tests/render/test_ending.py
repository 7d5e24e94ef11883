"""The final board: the result instead of a turn pill, the winner ringed, the mating
move framed, the resigned king greyed; checked on decoded pixels."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from render import Ending, layout, render_board, render_image
from render import board as drawing
from rules import Color, Move, Position, Square

MATED = "5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1"


def rgb(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def colours_in(image: Image.Image, box: layout.Box) -> set[tuple[int, ...]]:
    colours = image.crop(box).getcolors(maxcolors=1 << 16)
    assert colours is not None
    return {colour for _count, colour in colours if isinstance(colour, tuple)}


def corner(image: Image.Image, square: int, perspective: Color = Color.SENTE) -> object:
    left, top, _right, _bottom = layout.square_box(square, perspective)
    return image.getpixel((left + 1, top + 1))


def mated() -> tuple[Position, Move]:
    position = Position.from_sfen(MATED)
    move = Move.from_usi("G*4b")
    position.push(move)
    assert position.is_checkmate()
    return position, move


def footer_left(image: Image.Image) -> set[tuple[int, ...]]:
    band = layout.FOOTER
    return colours_in(image, (band[0], band[1], band[0] + 200, band[3]))


@pytest.mark.parametrize("perspective", list(Color))
def test_the_result_takes_the_turn_pill_and_caption_place(perspective: Color) -> None:
    position, move = mated()
    ongoing = rgb(render_board(position, last_move=move, perspective=perspective, caption="x"))
    ending = Ending("Sente wins", winner=Color.SENTE, mate=True)
    final = rgb(render_board(position, last_move=move, perspective=perspective, ending=ending))
    # the side to move (the mated gote) had the dark pill; after the ending nobody has it
    assert drawing.PILL in colours_in(ongoing, layout.name_box(Color.GOTE, perspective))
    for color in Color:
        assert drawing.PILL not in colours_in(final, layout.name_box(color, perspective))
    # the result pill sits where the caption was
    assert drawing.RED not in footer_left(ongoing)
    assert {drawing.RED, drawing.PILL_TEXT} <= footer_left(final)


@pytest.mark.parametrize("perspective", list(Color))
def test_the_winner_is_ringed_and_a_draw_rings_nobody(perspective: Color) -> None:
    position = Position.initial()
    for winner in Color:
        image = rgb(
            render_board(position, ending=Ending("r", winner=winner), perspective=perspective)
        )
        names = {color: layout.name_box(color, perspective) for color in Color}
        # the winner's ring is red; the loser's band has red nowhere
        assert drawing.RED in colours_in(
            image, _right_of_result(names[winner], perspective, winner)
        )
        assert drawing.RED not in colours_in(
            image, _right_of_result(names[winner.opponent], perspective, winner.opponent)
        )
    draw = rgb(render_board(position, ending=Ending("Draw"), perspective=perspective))
    for color in Color:
        band = _right_of_result(layout.name_box(color, perspective), perspective, color)
        assert drawing.RED not in colours_in(draw, band)


def _right_of_result(band: layout.Box, perspective: Color, color: Color) -> layout.Box:
    """The part of a name band the result pill never reaches: the bottom name is right
    aligned, after the result on the left."""
    if color is perspective:
        return (band[2] - 120, band[1], band[2], band[3])
    return band


@pytest.mark.parametrize("perspective", list(Color))
def test_the_mating_move_is_framed_unlike_an_ordinary_last_move(perspective: Color) -> None:
    position, move = mated()
    plain = rgb(render_board(position, last_move=move, perspective=perspective))
    mate = Ending("Sente wins", winner=Color.SENTE, mate=True)
    final = rgb(render_board(position, last_move=move, perspective=perspective, ending=mate))
    box = layout.square_box(move.to_square, perspective)
    assert drawing.CHECK_EDGE not in colours_in(plain, box)
    assert drawing.CHECK_EDGE in colours_in(final, box)
    assert drawing.LAST in colours_in(final, box)
    # the mated king keeps its check mark
    king = layout.square_box(position.king_square(Color.GOTE), perspective)
    assert {drawing.CHECK, drawing.CHECK_EDGE} <= colours_in(final, king)


def test_a_checkmate_without_mate_flag_draws_an_ordinary_last_move() -> None:
    position, move = mated()
    ending = Ending("Sente wins on time", winner=Color.SENTE)
    image = rgb(render_board(position, last_move=move, ending=ending))
    assert drawing.CHECK_EDGE not in colours_in(image, layout.square_box(move.to_square))


@pytest.mark.parametrize("perspective", list(Color))
def test_the_resigned_king_is_greyed(perspective: Color) -> None:
    position = Position.initial()
    ending = Ending("Gote wins", winner=Color.GOTE, resigned=Color.SENTE)
    image = rgb(render_board(position, perspective=perspective, ending=ending))
    kings = {color: position.king_square(color) for color in Color}
    assert corner(image, kings[Color.SENTE], perspective) == drawing.RESIGNED
    assert corner(image, kings[Color.GOTE], perspective) == drawing.WOOD
    for square in map(Square, range(81)):
        if square != kings[Color.SENTE]:
            assert corner(image, square, perspective) != drawing.RESIGNED


def test_the_png_and_the_image_agree_with_an_ending() -> None:
    position, move = mated()
    ending = Ending("まで1手で先手の勝ち", winner=Color.SENTE, mate=True)
    png = rgb(render_board(position, last_move=move, ending=ending))
    image = render_image(position, last_move=move, ending=ending).convert("RGB")
    assert png.tobytes() == image.tobytes()
    # and an ongoing board rendered after it is not served the ending's cached bands
    ongoing = rgb(render_board(position, last_move=move))
    assert ongoing.tobytes() == render_image(position, last_move=move).convert("RGB").tobytes()
    assert ongoing.tobytes() != png.tobytes()


def test_an_ending_and_a_caption_together_are_refused() -> None:
    with pytest.raises(ValueError, match="caption"):
        render_board(Position.initial(), caption="Move 1", ending=Ending("Draw"))


def test_an_ending_needs_a_result_and_a_winner_who_did_not_resign() -> None:
    with pytest.raises(ValueError):
        Ending("  ")
    with pytest.raises(ValueError):
        Ending("x", winner=Color.SENTE, resigned=Color.SENTE)
