"""Arbitrary text and bytes fed to the record readers: only RecordError ever comes out."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings
from hypothesis import strategies as st

from rules.notation import Record, RecordError, read_csa, read_ki2, read_kif, read_record, read_usi

from .support import RECORDS

READERS: list[Callable[[bytes | str], Record]] = [
    read_record,
    read_kif,
    read_ki2,
    read_csa,
    read_usi,
]
SAMPLES = [
    path.read_text(encoding="utf-8") for path in sorted(RECORDS.iterdir()) if path.suffix != ".txt"
]
# Pieces of real records, so that generated text looks like a record often enough.
FRAGMENTS = [line for text in SAMPLES for line in text.splitlines()[:40]] + [
    "手合割：その他", "後手の持駒：なし", "先手の持駒：歩十八", "|v香v桂v銀v金v玉v金v銀v桂v香|一",
    "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二", "+---------------------------+", "後手番", "PI82HI",
    "P+00AL",
    "P-00KI", "+", "-", "%TORYO", "'summary:toryo:a lose:b win", "position startpos moves",
    "sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1", "7g7f", "   1 投了", "まで1手で先手の勝ち",
]  # fmt: skip


def _check(data: bytes | str) -> None:
    for reader in READERS:
        try:
            record = reader(data)
        except RecordError as error:
            assert str(error)
            continue
        game = record.game
        replay = game.start.copy()
        for move in game.moves:
            replay.push(move)
        assert replay == game.position


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text(text: str) -> None:
    _check(text)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes(data: bytes) -> None:
    _check(data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=25), st.sampled_from(["\n", "\r\n", ","]))
def test_shuffled_record_lines(lines: list[str], separator: str) -> None:
    _check(separator.join(lines))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SAMPLES), st.integers(0, 4000), st.integers(0, 40), st.text(max_size=5))
def test_damaged_records(text: str, where: int, cut: int, insert: str) -> None:
    where %= len(text) + 1
    damaged = text[:where] + insert + text[where + cut :]
    _check(damaged)
    _check(damaged.encode("utf-8"))
