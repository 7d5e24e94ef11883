"""Record files in Shift_JIS and UTF-8: what Shift_JIS cannot hold is written as 〓, one for
each character a reader sees, and every file reads back to the same game."""

from __future__ import annotations

import random
import unicodedata
from datetime import datetime
from pathlib import Path

import cshogi
import cshogi.KIF
import pytest

from rules import Color, Game, Handicap, Position
from rules.notation import (
    RECORD_FILES,
    REPLACEMENT,
    read_record,
    shift_jis_text,
    write_record,
    write_record_file,
)
from rules.notation.charsets import SHIFT_JIS, encode_record

from .test_records import GAMES, same_game

STARTED = "2026/11/27 21:05:00"


@pytest.mark.parametrize(
    ("text", "held", "replaced"),
    [
        ("羽生善治", "羽生善治", 0),
        ("髙橋①㈱", "髙橋①㈱", 0),  # Windows' own additions to Shift_JIS
        ("はなこ🌸", "はなこ〓", 1),
        ("José", "Jos〓", 1),
        ("〜−‖—¢£¬¥", "～－∥―￠￡￢￥", 0),  # the same characters under Windows' names
        ("👍🏽", "〓", 1),  # a skin tone goes with its hand
        ("👨\u200d👩\u200d👧 family", "〓 family", 1),  # a joined emoji is one
        ("🏃\u200d♀\ufe0f走", "〓走", 1),  # ♀ is in Shift_JIS, but here part of the emoji
        ("a\u200db", "ab", 0),
        ("🇯🇵🇫🇷", "〓〓", 2),  # two flags
        ("1\ufe0f\u20e3", "1", 0),  # a keycap: the digit
        ("❤\ufe0f", "〓", 1),
        ("か\u3099", "が", 0),  # decomposed kana (a Mac's) composed first
        ("\ue000外字", "〓外字", 1),  # the private use area means something else elsewhere
        ("〓", "〓", 0),  # a geta mark written by the player stays and is not counted
        ("\U0001f338\U0001f338", "〓〓", 2),
    ],
)
def test_what_shift_jis_cannot_hold_is_written_as_geta(text: str, held: str, replaced: int) -> None:
    assert shift_jis_text(text) == (held, replaced)


def test_any_text_becomes_text_shift_jis_holds_exactly() -> None:
    """Random text from every plane: the result encodes and decodes to itself, and every
    〓 it gained is counted."""
    rng = random.Random(23)
    alphabet = [chr(c) for c in range(0x20, 0x3000, 7)] + [
        "🌸", "\u200d", "\ufe0f", "🏽", "🇯", "〜", "\ue123", "か", "\u3099", "漢", "〓", "é",
    ]  # fmt: skip
    for _ in range(500):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 30)))
        held, replaced = shift_jis_text(text)
        assert held.encode(SHIFT_JIS).decode(SHIFT_JIS) == held, text
        gained = held.count(REPLACEMENT) - unicodedata.normalize("NFC", text).count(REPLACEMENT)
        assert replaced == gained, text


def test_encoding_is_linear_in_the_text() -> None:
    """A long hostile name costs as much per character as a short one."""
    held, replaced = shift_jis_text("🌸\u200d" * 50_000)
    assert held == REPLACEMENT and replaced == 1
    held, replaced = shift_jis_text("🌸" * 50_000)
    assert replaced == 50_000


@pytest.mark.parametrize("kind", sorted(RECORD_FILES))
def test_every_record_file_reads_back(kind: str) -> None:
    file = RECORD_FILES[kind]
    for game in GAMES:
        written = write_record_file(game, kind, sente="はなこ🌸", gote="José", started="2026/11/27")
        text = written.data.decode(file.encoding)
        assert text.endswith("\r\n" if file.encoding == SHIFT_JIS else "\n")
        record = read_record(written.data, file.format)
        if file.format in ("usi", "sfen"):
            assert written.replaced == 0
            continue
        assert same_game(record.game, game)
        if file.encoding == SHIFT_JIS:
            assert (record.sente, record.gote, written.replaced) == ("はなこ〓", "Jos〓", 2)
        else:
            assert (record.sente, record.gote, written.replaced) == ("はなこ🌸", "José", 0)


def test_each_file_names_its_encoding_where_its_format_has_a_place() -> None:
    game = Game(moves=["7g7f"])
    assert write_record_file(game, "kif").data.startswith(
        b"#KIF version=2.0 encoding=Shift_JIS\r\n"
    )
    assert write_record_file(game, "kifu").data.startswith(b"#KIF version=2.0 encoding=UTF-8\n")
    assert write_record_file(game, "csa").data.startswith(b"'CSA encoding=UTF-8\nV2.2\n")
    assert write_record_file(game, "ki2").data.startswith("手合割：平手\r\n".encode(SHIFT_JIS))
    assert write_record(game, "csa").startswith("V2.2\n")  # text alone declares nothing


def test_a_csa_time_limit_is_written_only_in_csa_form() -> None:
    record = read_record("持ち時間：7日＋1手1日\n手合割：平手\n   1 ７六歩(77)\n")
    assert "$TIME_LIMIT" not in write_record(record, "csa")
    record.headers["持ち時間"] = "00:25+30"
    assert "$TIME_LIMIT:00:25+30\n" in write_record(record, "csa")


def test_unknown_kinds_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown record file"):
        write_record_file(Game(), "pgn")
    with pytest.raises(ValueError, match="unknown record encoding"):
        encode_record("x", "latin-1")
    game = Game(moves=["7g7f"])
    game.resign(Color.GOTE)
    assert write_record_file(game, "ki2u").data.decode().endswith("まで1手で先手の勝ち\n")


# Handicaps Kifu for Windows names in 手合割 that cshogi's table lacks (its reader stops there).
CSHOGI_UNKNOWN = {Handicap.LEFT_SEVEN_PIECE, Handicap.RIGHT_SEVEN_PIECE}


@pytest.mark.parametrize("handicap", list(Handicap), ids=lambda h: h.id)
def test_cshogi_reads_each_handicap_from_a_shift_jis_file(
    handicap: Handicap, tmp_path: Path
) -> None:
    """A differential check of the header against cshogi's reader: names, start date and
    the handicap's position, from a real `.kif` file."""
    game = Game(Position.initial(handicap))
    game.push(next(iter(game.position.legal_moves())))
    game.resign(game.position.turn)
    path = tmp_path / "game.kif"
    path.write_bytes(
        write_record_file(game, "kif", sente="下手🌸", gote="上手", started=STARTED).data
    )
    ours = read_record(path.read_bytes())
    assert (ours.sente, ours.gote, ours.game.start) == ("下手〓", "上手", game.start)
    if handicap in CSHOGI_UNKNOWN:
        with pytest.raises(KeyError):
            cshogi.KIF.Parser.parse_file(str(path))
        return
    parsed = cshogi.KIF.Parser.parse_file(str(path))
    assert parsed.names == ["下手〓", "上手"]
    assert parsed.starttime == datetime(2026, 11, 27, 21, 5)
    assert parsed.sfen.split()[:3] == handicap.sfen.split()[:3]
    assert [cshogi.move_to_usi(m) for m in parsed.moves] == [game.moves[0].usi()]
    assert game.outcome is not None
    winner = cshogi.BLACK_WIN if game.outcome.winner is Color.SENTE else cshogi.WHITE_WIN
    assert parsed.win == winner
