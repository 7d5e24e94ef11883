"""The game as a GIF, decoded with Pillow frame by frame."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops, ImageSequence

from render import Ending, layout, render_gif, render_image
from render.animate import FIRST_MS, FRAME_MS, LAST_MS
from rules import Color, IllegalMoveError, Move, Position

OPENING = [Move.from_usi(usi) for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d"]]


def frames(gif: bytes) -> list[tuple[Image.Image, int]]:
    image = Image.open(io.BytesIO(gif))
    assert image.format == "GIF"
    return [
        (frame.convert("RGB"), int(frame.info["duration"]))
        for frame in ImageSequence.Iterator(image)
    ]


def positions(moves: list[Move]) -> list[Position]:
    position = Position.initial()
    seen = [position.copy()]
    for move in moves:
        position.push(move)
        seen.append(position.copy())
    return seen


def same(a: Image.Image, b: Image.Image) -> bool:
    return ImageChops.difference(a.convert("RGB"), b.convert("RGB")).getbbox() is None


@pytest.mark.parametrize("perspective", list(Color))
def test_one_frame_per_position_each_as_the_board_is_drawn(perspective: Color) -> None:
    ending = Ending("Sente wins", winner=Color.SENTE, resigned=Color.GOTE)
    captions = [f"Move {ply}" for ply in range(len(OPENING))]
    gif = render_gif(
        Position.initial(),
        OPENING,
        perspective=perspective,
        sente_name="Alice",
        gote_name="Bob",
        captions=captions,
        ending=ending,
    )
    decoded = frames(gif)
    assert len(decoded) == len(OPENING) + 1
    for ply, (position, (frame, _ms)) in enumerate(zip(positions(OPENING), decoded, strict=True)):
        last = OPENING[ply - 1] if ply else None
        if ply == len(OPENING):
            caption, shown = None, ending
        else:
            caption, shown = captions[ply], None
        expected = render_image(
            position,
            last_move=last,
            perspective=perspective,
            sente_name="Alice",
            gote_name="Bob",
            caption=caption,
            ending=shown,
        )
        assert frame.size == layout.SIZE
        assert same(frame, expected), f"frame {ply}"


def test_it_loops_and_lingers_on_the_first_and_last_frames() -> None:
    gif = render_gif(Position.initial(), OPENING, ending=Ending("Draw"))
    assert Image.open(io.BytesIO(gif)).info["loop"] == 0
    durations = [ms for _frame, ms in frames(gif)]
    assert durations == [FIRST_MS] + [FRAME_MS] * (len(OPENING) - 1) + [LAST_MS]
    assert FIRST_MS > FRAME_MS and LAST_MS > FRAME_MS


def test_later_frames_store_only_what_changed() -> None:
    """A move's frame is a small part of the whole: far smaller than the first frame."""
    one = render_gif(Position.initial(), [])
    seven = render_gif(Position.initial(), OPENING)
    assert len(seven) - len(one) < len(one) * len(OPENING) / 3


def test_without_moves_a_single_frame() -> None:
    gif = render_gif(Position.initial(), [], ending=Ending("The game was aborted"))
    decoded = frames(gif)
    assert len(decoded) == 1
    expected = render_image(Position.initial(), ending=Ending("The game was aborted"))
    assert same(decoded[0][0], expected)


def test_the_start_is_only_read_and_bad_input_refused() -> None:
    start = Position.initial()
    render_gif(start, OPENING)
    assert start == Position.initial()
    with pytest.raises(IllegalMoveError):
        render_gif(start, [Move.from_usi("7g7e")])
    with pytest.raises(ValueError, match="captions"):
        render_gif(start, OPENING, captions=["one"])
    with pytest.raises(ValueError, match="captions"):  # the ending's frame has no caption
        render_gif(start, OPENING, captions=["c"] * 7, ending=Ending("Draw"))
