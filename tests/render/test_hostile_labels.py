"""Labels a member controls (names from a pasted record, captions, chart titles) cost the
same to draw at any length, and one member's board never waits for another's.

A record may name its players with thousands of characters; the renderer cuts a label to
`fonts.LABEL_CHARS` before cleaning, measuring or caching it, and fits it by halving.
Timing checks are ratios against a short name measured in the same run, with generous
factors, so that they hold with both cores busy.
"""

from __future__ import annotations

import io
import itertools
import statistics
import threading
import time
from collections.abc import Callable

from PIL import Image, ImageChops

from render import board, fonts, render_board, render_rating_chart
from rules import Position

NAMES = [
    "",
    "Ann",
    "山田太郎 (5段)",
    "Ελένη Παπαδοπούλου",
    "José Müller-Çelik Ñúñez",
    "寿限無寿限無五劫の擦り切れ海砂利水魚の水行末雲来末風来末食う寝る処に住む処",
    "a very long English name with spaces in it, longer than any label can show",
    "i" * 150,
    "W" * 60,
    "名人 " * 40,
    "x…",
]
_counter = itertools.count()


def linear_fit(text: str, size: int, max_width: int) -> str:
    """The fitting this module replaces (one character off at a time), as the reference."""
    face = fonts.name_font(size)
    if face.getlength(text) <= max_width:
        return text
    while text and face.getlength(text + "…") > max_width:
        text = text[:-1]
    return text.rstrip() + "…"


def test_fitting_by_halving_gives_what_cutting_one_by_one_gave() -> None:
    for name, width in itertools.product(NAMES, (0, 30, 120, 412, 600)):
        for size in (20, 24):
            assert fonts.fit_text(name, size, width) == linear_fit(name, size, width), (name, width)


def test_a_name_too_long_to_fit_is_drawn_cut_with_an_ellipsis() -> None:
    name = "将棋" * 6_000
    label = board.name_label(f"☗ {name}", True, board.NAME_MAX_W)
    assert label.width <= board.NAME_MAX_W
    fitted = fonts.fit_text(fonts.printable(fonts.clipped(name)), 24, 400)
    assert fitted.endswith("…") and name.startswith(fitted[:-1])
    # What lies past the first few hundred characters changes nothing on the picture.
    position = Position.initial()
    long = render_board(position, sente_name=name, gote_name=name + "x" * 5_000)
    short = render_board(position, sente_name=name[:300], gote_name=name[:301])
    assert same_picture(long, short)


def test_a_name_of_only_narrow_or_invisible_characters_is_still_cut() -> None:
    name = "\u200b" * 50_000 + "Ann"  # invisible characters, dropped when drawn
    assert fonts.clipped(name).endswith("…") and len(fonts.clipped(name)) == 201
    render_board(Position.initial(), sente_name=name)  # quickly, without error


def test_a_chart_title_of_any_length_is_drawn() -> None:
    png = render_rating_chart([1500, 1520, 1490], title="長" * 100_000)
    assert Image.open(io.BytesIO(png)).size[0] > 0


def unique_board(name: str) -> Callable[[], bytes]:
    """A render whose name was never drawn before (no cache answers it)."""
    position = Position.initial()

    def draw() -> bytes:
        return render_board(position, sente_name=f"{next(_counter)}{name}", gote_name="後手")

    return draw


def median_seconds(draw: Callable[[], bytes], runs: int = 7) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        draw()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def test_a_name_of_thousands_of_characters_costs_about_what_a_short_one_does() -> None:
    render_board(Position.initial())  # the backgrounds and pieces, drawn once
    short = median_seconds(unique_board("長" * 8))  # a normal name in the same script
    for length in (6_000, 12_000):
        hostile = median_seconds(unique_board("長" * length))
        assert hostile < 5 * short + 0.005, (length, hostile, short)


def test_a_hostile_board_in_another_thread_does_not_hold_up_a_board() -> None:
    render_board(Position.initial())
    alone = [median_seconds(unique_board("Ann")) for _ in range(3)]
    stop = threading.Event()
    hostile = unique_board("長" * 3_000)
    hostile_done = []

    def attack() -> None:
        while not stop.is_set():
            hostile()
            hostile_done.append(1)

    attacker = threading.Thread(target=attack)
    attacker.start()
    try:
        while not hostile_done:  # the attacker is drawing its second board at least
            time.sleep(0.001)
        draw = unique_board("Bob")
        latencies = []
        for _ in range(15):
            started = time.perf_counter()
            draw()
            latencies.append(time.perf_counter() - started)
    finally:
        stop.set()
        attacker.join(timeout=60)
    # Sharing the interpreter with a busy thread slows a board down a little; waiting
    # for the attacker's board would cost its whole render every time.
    assert statistics.median(latencies) < 5 * statistics.median(alone) + 0.01, latencies
    assert max(latencies) < 0.5, latencies


def same_picture(a: bytes, b: bytes) -> bool:
    first = Image.open(io.BytesIO(a)).convert("RGB")
    second = Image.open(io.BytesIO(b)).convert("RGB")
    return ImageChops.difference(first, second).getbbox() is None
