"""Comments in written records (a member's private notes on a game go into their own
export): each comment sits after the move of its ply, and the record still reads back,
by our readers and by cshogi's."""

from __future__ import annotations

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from rules.game import Game
from rules.notation import read_record, write_csa, write_ki2, write_kif, write_record

MOVES = ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e"]
COMMENTS = {
    0: ["Before anything: watch the bishop trade."],
    2: ["Gote opens the diagonal.", "A second note\nover two lines"],
    5: ["１２３ 全角 and *stars* and # hashes"],
    9: ["Written before a takeback: past the last move"],
}


def game() -> Game:
    played = Game(moves=MOVES)
    played.resign(played.position.turn)
    return played


def test_kif_comments_follow_their_move() -> None:
    kif = write_kif(game(), sente="Ann", gote="Bo", comments=COMMENTS)
    lines = kif.splitlines()
    start = lines.index("手数----指手---------消費時間--")
    assert lines[start + 1] == "*Before anything: watch the bishop trade."
    second = next(i for i, line in enumerate(lines) if line.startswith("   2 "))
    assert lines[second + 1 : second + 4] == [
        "*Gote opens the diagonal.",
        "*A second note",
        "*over two lines",
    ]
    fifth = next(i for i, line in enumerate(lines) if line.startswith("   5 "))
    assert lines[fifth + 1 : fifth + 3] == [
        "*１２３ 全角 and *stars* and # hashes",
        "*Written before a takeback: past the last move",
    ]
    assert lines[fifth + 3].startswith("   6 投了")


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa"])
def test_records_with_comments_read_back(fmt: str) -> None:
    played = game()
    written = write_record(played, fmt, comments=COMMENTS)
    record = read_record(written)
    assert [m.usi() for m in record.game.moves] == MOVES
    assert record.game.outcome == played.outcome
    assert written.count("Gote opens") == 1
    plain = write_record(played, fmt)
    assert "Gote opens" not in plain and read_record(plain).game.moves == record.game.moves


def test_no_comments_write_the_same_record() -> None:
    played = game()
    for writer in (write_kif, write_ki2, write_csa):
        assert writer(played, comments={}) == writer(played)
        assert writer(played, comments=None) == writer(played)


def test_ki2_breaks_its_row_at_a_comment() -> None:
    ki2 = write_ki2(game(), comments={1: ["first"]})
    assert "▲７六歩\n*first\n△３四歩 ▲２二角成" in ki2


def test_csa_comments_are_not_the_summary_line() -> None:
    csa = write_csa(game(), comments={0: ["summary:fake:x win:y lose"]})
    assert "'*summary:fake:x win:y lose" in csa
    record = read_record(csa)
    assert record.game.outcome == game().outcome


def test_negative_ply_is_refused() -> None:
    with pytest.raises(ValueError, match="negative"):
        write_kif(game(), comments={-1: ["no"]})


def test_cshogi_reads_the_comments() -> None:
    """An independent KIF reader sees the same moves and each comment at its move."""
    kif = cshogi.KIF.Parser.parse_str(write_kif(game(), comments=COMMENTS))
    assert [cshogi.move_to_usi(m) for m in kif.moves] == MOVES
    assert "watch the bishop trade" in kif.comment
    assert kif.comments[1] == "Gote opens the diagonal.\nA second note\nover two lines"
    assert "hashes" in kif.comments[4] and "takeback" in kif.comments[4]
    csa = cshogi.CSA.Parser.parse_str(write_csa(game(), comments=COMMENTS))[0]
    assert [cshogi.move_to_usi(m) for m in csa.moves] == MOVES
