"""Every reader of a member's text costs time in proportion to its length, whatever it holds.

A record with a long run of blanks where a pattern allowed optional blanks once took
minutes to read, the regex engine holding the GIL (so the event loop) all along. Each
reader here reads every hostile shape of `tests/support/hostile_records.py` at 256 KiB,
and its time is compared with reading a real record of that size (1,000 moves with
comments) in the same run: a ratio, generous enough to hold with both cores busy, and
every shape either reads or is refused with the reader's documented error, one sentence.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable

import pytest

from rules import InvalidMoveError, Position, Sentence, SfenError
from rules.notation import (
    RecordError,
    parse_move,
    read_csa,
    read_ki2,
    read_kif,
    read_record,
    read_usi,
    unfold,
)
from rules.notation.common import DIGITS_LIMIT
from rules.notation.records import HEADER_LIMIT, NAME_LIMIT
from tests.support.hostile_records import legitimate, shapes

SIZE = 256 * 1024
#: How many times a real record's reading time a hostile text may take: far above what a
#: linear reader needs, far below what a quadratic one takes at this size.
FACTOR = 20
START = Position.initial()

READERS: dict[str, tuple[Callable[[str], object], type[ValueError]]] = {
    "read_record": (read_record, RecordError),
    "read_kif": (read_kif, RecordError),
    "read_ki2": (read_ki2, RecordError),
    "read_csa": (read_csa, RecordError),
    "read_usi": (read_usi, RecordError),
    "sfen": (Position.from_sfen, SfenError),
    "unfold": (unfold, RecordError),
    "parse_move": (lambda text: parse_move(START, text), InvalidMoveError),
}


@pytest.fixture(scope="module")
def hostile() -> dict[str, str]:
    return shapes(SIZE)


@pytest.fixture(scope="module")
def yardstick() -> float:
    """The median time of reading a real 256 KiB record, in seconds."""
    text = legitimate(SIZE)
    times = []
    for _ in range(3):
        started = time.perf_counter()
        read_record(text)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def _read(reader: Callable[[str], object], refusal: type[ValueError], text: str) -> float:
    """The time `reader` takes on `text`, checking it reads or refuses as documented."""
    started = time.perf_counter()
    try:
        reader(text)
    except refusal as error:
        sentence = getattr(error, "sentence", None)
        assert isinstance(sentence, Sentence), repr(error)
        assert "\n" not in str(error) and len(str(error)) <= 300, str(error)
    return time.perf_counter() - started


@pytest.mark.parametrize("name", list(READERS))
def test_no_hostile_shape_costs_more_than_a_real_record(
    name: str, hostile: dict[str, str], yardstick: float
) -> None:
    reader, refusal = READERS[name]
    slow = {}
    for shape, text in hostile.items():
        took = _read(reader, refusal, text)
        if took > FACTOR * yardstick:  # once more: another process may have had the core
            took = min(took, _read(reader, refusal, text))
        if took > FACTOR * yardstick:
            slow[shape] = f"{took / yardstick:.0f}x"
    assert slow == {}, f"a real 256 KiB record reads in {yardstick * 1000:.0f} ms"


def test_the_real_records_read_in_every_format_and_on_one_line() -> None:
    """The yardstick is a record the readers take: every format, and as a paste."""
    for format in ("kif", "ki2", "csa"):
        text = legitimate(SIZE, format)
        assert len(text) > SIZE * 0.9
        assert len(read_record(text).game.moves) == 1000
    pasted = legitimate(SIZE, "csa").replace("\n", " ")
    assert len(read_record(unfold(pasted)).game.moves) == 1000


def test_a_move_number_of_thousands_of_digits_is_refused_naming_its_line(
    hostile: dict[str, str],
) -> None:
    for shape in ("kif-digits-move-number", "kif-digits-moves-played", "kif-digits-full-width"):
        with pytest.raises(RecordError) as raised:
            read_record(hostile[shape])
        assert raised.value.line is not None
        assert f"at most {DIGITS_LIMIT} digits" in str(raised.value), str(raised.value)
    assert read_kif("手数＝999998\n   999999 ７六歩(77)\n").game.moves  # the limit itself


def test_long_names_and_headers_are_cut_not_refused(hostile: dict[str, str]) -> None:
    record = read_record(hostile["kif-long-name"])
    assert record.sente is not None and len(record.sente) == NAME_LIMIT
    assert record.sente.endswith("…") and record.gote == "Bo"
    event = read_record(hostile["kif-long-event"]).headers["棋戦"]
    assert len(event) == HEADER_LIMIT and event.endswith("…")
    csa = read_record(hostile["csa-long-name"])
    assert csa.sente is not None and len(csa.sente) == NAME_LIMIT
    info = read_record(hostile["csa-long-info"]).headers["棋戦"]
    assert len(info) == HEADER_LIMIT
    # A real record with a long comment reads: comments are no header.
    assert read_record(hostile["kif-long-comment"]).game.moves
