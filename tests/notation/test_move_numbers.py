"""Move numbers of a game from a position reached after some moves: an SFEN's move
number field, KIF's `手数＝N` under the diagram with moves numbered from N+1, KI2's
`手数＝N` and its `まで…手` count. CSA has no move number anywhere, so a CSA start
reads as move 1."""

from __future__ import annotations

import re

import cshogi
import cshogi.KIF
import pytest

from rules import Color, Game, Position, Termination
from rules.notation import (
    RecordError,
    read_csa,
    read_ki2,
    read_kif,
    read_record,
    read_usi,
    write_csa,
    write_ki2,
    write_kif,
    write_record,
    write_sfen,
    write_usi,
)

from .support import RECORDS

RYUOU = read_record((RECORDS / "kfjs_ryuou4.kifu").read_bytes()).game


def from_ply(ply: int, more: int, *, resign: bool = True) -> Game:
    """The Ryuo-sen game restarted at `ply` (a start of move number `ply + 1`), then
    `more` of its moves played from there, resigned by the side to move."""
    game = Game(RYUOU.position_at(ply), RYUOU.moves[ply : ply + more])
    if resign:
        game.resign(game.position.turn)
    return game


@pytest.mark.parametrize("ply", [30, 31], ids=["sente-to-move", "gote-to-move"])
@pytest.mark.parametrize("name", ["kif", "ki2", "usi"])
def test_a_game_from_a_mid_game_position_keeps_its_move_numbers(name: str, ply: int) -> None:
    game = from_ply(ply, 6)
    assert game.start.move_number == ply + 1
    text = write_record(game, name, sente="渡辺", gote="木村")
    back = read_record(text).game
    assert back.start == game.start and back.start.sfen() == game.start.sfen()  # move number too
    assert back.moves == game.moves and back.position == game.position
    if name != "usi":
        assert back.outcome == game.outcome
        assert f"手数＝{ply}\n" in text and "手合割" not in text
        assert f"まで{ply + 6}手で" in text  # the count as the moves are numbered


def test_kif_numbers_the_moves_from_the_start_s_move_number() -> None:
    kif = write_kif(from_ply(30, 3))
    numbered = [line.split()[0] for line in kif.splitlines() if re.match(" *[0-9]+ ", line)]
    assert numbered == ["31", "32", "33", "34"]  # three moves, then 投了
    assert "  34 投了" in kif and "まで33手で" in kif
    diagram = kif.splitlines()
    hand = next(i for i, line in enumerate(diagram) if line.startswith("先手の持駒："))
    assert diagram[hand + 1] == "手数＝30"  # under the diagram, as Kifu for Windows puts it


def test_the_usual_start_has_no_move_count_line() -> None:
    """Move 1 is the default of every reader: nothing is added for it."""
    game = Game(RYUOU.start, RYUOU.moves[:3])
    assert "手数＝" not in write_kif(game) + write_ki2(game)
    tsume = Game(Position.from_sfen("4k4/9/4G4/9/9/9/9/9/9 b G 1"), ["G*5b"])
    kif = write_kif(tsume)
    assert "手数＝" not in kif and "   1 ５二金打" in kif


def test_an_sfen_keeps_its_move_number_both_ways() -> None:
    game = from_ply(30, 4, resign=False)
    sfen = write_sfen(game)
    assert sfen.endswith(" 35") and read_usi(sfen).game.position.sfen() == sfen
    usi = write_usi(game)
    assert usi.startswith(f"position sfen {game.start.sfen()} moves ") and " 31 moves " in usi
    assert read_usi(usi).game.position.move_number == 35


def test_csa_has_no_move_number_so_its_start_reads_as_move_1() -> None:
    game = from_ply(30, 4)
    back = read_csa(write_csa(game)).game
    assert back.start.key() == game.start.key() and back.moves == game.moves
    assert back.start.move_number == 1


def kifu_for_windows_style(ply: int, numbered_from: int) -> str:
    """A record as Japanese software saves a game continued from a diagram: cshogi's
    diagram of the position (an independent writer), the `手数＝N  ▲…  まで` line
    with the last move for the eye, times on the moves."""
    start = RYUOU.position_at(ply)
    diagram = cshogi.KIF.board_to_bod(cshogi.Board(start.sfen())).rstrip("\n")
    lines = [
        "# ---- Kifu for Windows V7 V7.70 棋譜ファイル ----",
        "開始日時：2005/11/29",
        "先手：渡辺　明竜王",
        "後手：木村一基七段",
        diagram,
        f"手数＝{ply}  ▲３七桂  まで",
        "手数----指手---------消費時間--",
        f"{numbered_from:>4} ３三銀(42)   ( 0:05/00:00:05)",
        f"{numbered_from + 1:>4} 投了   ( 0:01/00:00:06)",
    ]
    return "\n".join(lines) + "\n"


def test_a_kif_with_a_move_count_reads_from_that_move() -> None:
    ply = 31  # gote to move: cshogi writes 後手番 before our 手数＝ line; both orders read
    record = read_kif(kifu_for_windows_style(ply, ply + 1))
    game = record.game
    assert game.start.sfen() == RYUOU.position_at(ply).sfen()
    assert game.start.move_number == ply + 1 and game.start.turn is Color.GOTE
    assert game.moves == RYUOU.moves[ply : ply + 1]
    assert game.outcome is not None and game.outcome.termination is Termination.RESIGNATION
    assert game.outcome.winner is Color.GOTE and record.sente == "渡辺　明竜王"
    again = read_kif(write_kif(record))
    assert again.game.start.sfen() == game.start.sfen() and again.game.moves == game.moves


def test_a_kif_numbered_from_1_under_a_move_count_reads_the_same_game() -> None:
    """Software that ignores `手数＝` numbers the moves from 1: the moves read all the
    same, and the start keeps the move number the diagram gives."""
    ours = read_kif(kifu_for_windows_style(31, 32)).game
    theirs = read_kif(kifu_for_windows_style(31, 1)).game
    assert theirs.start.sfen() == ours.start.sfen() and theirs.moves == ours.moves


def test_a_move_number_that_fits_neither_count_is_refused_where_it_is() -> None:
    text = kifu_for_windows_style(31, 30)
    with pytest.raises(RecordError) as caught:
        read_kif(text)
    line = text.splitlines().index("  30 ３三銀(42)   ( 0:05/00:00:05)") + 1
    assert (caught.value.line, caught.value.column) == (line, 3)
    assert "move 30 where move 32 was expected" in str(caught.value)


def test_a_move_count_after_the_first_move_is_refused() -> None:
    text = "手合割：平手\n   1 ７六歩(77)\n手数＝5\n"
    with pytest.raises(RecordError, match="Line 3: the start position is given after"):
        read_kif(text)


def test_ki2_reads_the_move_count_of_its_diagram() -> None:
    game = from_ply(31, 5)
    ki2 = write_ki2(game)
    assert "手数＝31\n" in ki2 and "まで36手で" in ki2
    back = read_ki2(ki2).game
    assert back.start.sfen() == game.start.sfen() and back.outcome == game.outcome


def test_cshogi_still_reads_our_numbered_kif() -> None:
    """cshogi reads no diagram (its start is a 手合割) and skips the `手数＝` line: the
    moves it reads, written with their origins, are ours and so is the winner; the
    diagram is the one cshogi itself writes for that position, with our line under it."""
    game = Game(RYUOU.position_at(30), RYUOU.moves[30:34])
    game.resign(game.position.turn)
    kif = write_kif(game)
    assert "  31 " in kif and "手数＝30" in kif
    theirs = cshogi.KIF.Parser.parse_str(kif)
    assert [cshogi.move_to_usi(m) for m in theirs.moves] == [m.usi() for m in game.moves]
    assert game.outcome is not None and game.outcome.winner is Color.GOTE
    assert theirs.win == cshogi.WHITE_WIN
    bod = cshogi.KIF.board_to_bod(cshogi.Board(game.start.sfen())).rstrip("\n")
    assert bod + "\n手数＝30\n" in kif
