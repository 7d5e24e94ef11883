"""Positions and records from anywhere: read for `/board` at a ply, and as a game's start
for `/challenge`, whose records then export with that start (read back by our readers and
cshogi's)."""

from __future__ import annotations

from pathlib import Path

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from bot.services import (
    MAX_RECORD_BYTES,
    GameService,
    ServiceError,
    check_record_size,
    read_position,
    start_of,
)
from rules import Color, Game, Position, Sentence, Termination
from rules.notation import read_record, write_kif
from tests.notation.support import RECORDS

from .conftest import ALICE, BOB, start_game

TSUME = "4k4/9/4G4/9/9/9/9/9/9 b G 1"  # G*5b mates; sente has no king
KIF = "手合割：平手\n先手：Ann\n後手：Bo\n   1 ７六歩(77)\n   2 ３四歩(33)\n   3 ２二角成(88)\n"
NIFU_START = "4k4/9/9/4p4/4p4/9/9/9/4K4 b - 1"  # gote has two pawns on file 5


def reason_of(error: ServiceError) -> Sentence:
    return error.sentence


@pytest.mark.parametrize(
    ("data", "ply", "last", "names"),
    [
        (KIF, 2, "3c3d", ("Ann", "Bo")),
        (KIF.replace("\n", " "), 2, "3c3d", ("Ann", "Bo")),  # as Discord's text box sends it
        (KIF.encode("cp932"), 3, "8h2b+", ("Ann", "Bo")),  # a file from Japanese software
        ("▲７六歩 △３四歩 ▲２二角成", 1, "7g7f", (None, None)),
        ("V2.2\nN+Ann\nN-Bo\nPI\n+\n+7776FU\n-3334FU\n", 2, "3c3d", ("Ann", "Bo")),
        ("V2.2 N+Ann Lee N-Bo PI + +7776FU -3334FU %TORYO", 2, "3c3d", ("Ann Lee", "Bo")),
        ("position startpos moves 7g7f 3c3d 8h2b+", None, "8h2b+", (None, None)),
    ],
    ids=["kif", "kif-one-line", "kif-shift-jis", "ki2", "csa", "csa-one-line", "usi-end"],
)
def test_a_record_is_shown_at_a_ply(
    data: str | bytes, ply: int | None, last: str, names: tuple[str | None, str | None]
) -> None:
    shown = read_position(data, ply)
    assert shown.last_move is not None and shown.last_move.usi() == last
    assert (shown.sente, shown.gote) == names
    assert shown.ply == (ply if ply is not None else shown.moves)
    assert shown.last_move_text is not None and shown.last_move_text.usi == last


def test_a_real_record_pasted_on_one_line_reads_as_its_file() -> None:
    """Headers, comments (`*`, `&`), times and moves each find their line again."""
    text = (RECORDS / "kfjs_ryuou4.kifu").read_text(encoding="utf-8")
    whole = read_record(text).game
    pasted = read_position(text.replace("\n", " "))
    assert pasted.moves == len(whole.moves) and pasted.position == whole.position


@pytest.mark.parametrize("path", sorted(RECORDS.glob("*.csa")), ids=lambda p: p.name)
def test_a_real_csa_record_pasted_on_one_line_reads_as_its_file(path: Path) -> None:
    """As a KIF: the start, names, moves and result find their lines again."""
    text = path.read_text(encoding="utf-8")
    whole = read_record(text)
    pasted = read_position(text.replace("\n", " "))
    assert pasted.moves == len(whole.game.moves) and pasted.position == whole.game.position
    assert (pasted.sente, pasted.gote) == (whole.sente, whole.gote)
    assert pasted.outcome == whole.game.outcome


def test_a_one_line_csa_that_cannot_be_read_says_line_and_column() -> None:
    with pytest.raises(ServiceError) as caught:
        start_of("V2.2 N+A N-B PI + +7776FU -3334FU +7775FU")
    sentence = reason_of(caught.value)
    assert (sentence.params["line"], sentence.params["column"]) == (8, 1)  # the eighth line
    assert str(sentence).startswith("Line 8, column 1: '+7775FU' could not be read")


def test_an_sfen_is_its_position_and_a_tsume_reads() -> None:
    shown = read_position(TSUME)
    assert shown.position == Position.from_sfen(TSUME)
    assert (shown.ply, shown.moves, shown.last_move, shown.warnings) == (0, 0, None, ())


def test_an_irregular_start_is_shown_with_its_warnings() -> None:
    shown = read_position(NIFU_START)
    assert [w.template for w in shown.warnings] and "nifu" in str(shown.warnings[0])


def test_the_record_ends_with_its_result_only_at_its_last_ply() -> None:
    record = KIF + "   4 投了\n"
    assert read_position(record, 2).outcome is None
    outcome = read_position(record).outcome
    assert outcome is not None and outcome.termination is Termination.RESIGNATION


def test_a_record_that_cannot_be_read_says_line_and_column() -> None:
    with pytest.raises(ServiceError) as caught:
        read_position("手合割：平手\n   1 ７六歩(77)\n   2 ５五飛(82)\n")
    sentence = reason_of(caught.value)
    assert (sentence.params["line"], sentence.params["column"]) == (3, 6)
    assert str(sentence).startswith("Line 3, column 6: could not play '５五飛(82)'")


@pytest.mark.parametrize("ply", [-1, 4])
def test_a_ply_outside_the_record_is_refused(ply: int) -> None:
    with pytest.raises(
        ServiceError, match=r"from move 0 \(its start\) to move 3: pick a move between them"
    ):
        read_position(KIF, ply)


def test_empty_text_and_a_large_file_are_refused_before_reading() -> None:
    for empty in ("   ", b"", b" \n"):
        with pytest.raises(ServiceError, match="Give a position"):
            read_position(empty)
    check_record_size(MAX_RECORD_BYTES)
    with pytest.raises(ServiceError, match="may be at most 256 KiB") as caught:
        check_record_size(MAX_RECORD_BYTES + 1)
    assert reason_of(caught.value).params["size"] == 257
    with pytest.raises(ServiceError, match="at most 256 KiB"):
        read_position(b" " * (MAX_RECORD_BYTES + 1))


async def test_a_tsume_challenge_plays_to_mate_and_exports_with_its_start(
    service: GameService,
) -> None:
    game = await start_game(service, start_sfen=start_of(TSUME), rated=True)
    assert game.game.start.sfen() == TSUME
    assert not game.rated  # a set-up position is never rated
    assert game.to_move is not None and game.to_move.user_id == ALICE.user_id
    played = await service.moves.play(game.id, ALICE.user_id, "G*5b")
    outcome = played.game.outcome
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert outcome.winner is Color.SENTE

    kif = (await service.exports.file(game.id, "kif")).content
    assert "手合割" not in kif and "後手の持駒" in kif
    ki2 = (await service.exports.file(game.id, "ki2")).content
    assert "手合割" not in ki2
    csa = (await service.exports.file(game.id, "csa")).content
    assert "PI" not in csa.split() and "P1" in csa
    usi = (await service.exports.file(game.id, "usi")).content
    assert usi.strip() == f"position sfen {TSUME} moves G*5b"
    sfen = await service.exports.file(game.id, "sfen")
    assert sfen.content.strip().startswith("4k4/4G4/4G4/9")
    assert sfen.analysis_url is not None  # the game is over
    assert sfen.analysis_url.startswith("https://lishogi.org/analysis/4k4/9/4G4/9/9/9/9/9/9_b_G_1")
    for fmt, text in (("kif", kif), ("ki2", ki2), ("csa", csa), ("usi", usi)):
        back = read_record(text, fmt)
        assert back.game.start.sfen() == TSUME and [m.usi() for m in back.game.moves] == ["G*5b"]
        if fmt != "usi":
            assert back.game.outcome is not None and back.game.outcome.winner is Color.SENTE
    # cshogi's KIF reader reads no diagram (its start is always a 手合割), so the start is
    # checked as the diagram cshogi itself writes for that position, and the moves read.
    assert cshogi.KIF.board_to_bod(cshogi.Board(TSUME)) in kif
    theirs = cshogi.KIF.Parser.parse_str(kif)
    assert [cshogi.move_to_usi(m) for m in theirs.moves] == ["G*5b"]
    their_csa = cshogi.CSA.Parser.parse_str(csa)[0]
    assert [cshogi.move_to_usi(m) for m in their_csa.moves] == ["G*5b"]
    assert their_csa.sfen.split()[:3] == TSUME.split()[:3]


async def test_a_challenge_from_a_record_at_a_ply_starts_there(service: GameService) -> None:
    start = start_of(KIF, 2)
    assert start == "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3"
    game = await start_game(service, start_sfen=start, color="gote")
    assert game.game.start.sfen() == start and game.turn is Color.SENTE
    assert game.to_move is not None and game.to_move.user_id == BOB.user_id  # sente moves first
    await service.moves.play(game.id, BOB.user_id, "8h2b+")
    kif = (await service.exports.file(game.id, "kif")).content
    assert cshogi.KIF.board_to_bod(cshogi.Board(start)) in kif
    assert "手合割" not in kif
    # two moves were played before the start: the record counts them, and reads back so
    assert "手数＝2\n" in kif and "\n   3 ２二角成(88)\n" in kif
    ki2 = (await service.exports.file(game.id, "ki2")).content
    for text in (kif, ki2):
        back = read_record(text).game
        assert back.start.sfen() == start and [m.usi() for m in back.moves] == ["8h2b+"]
    csa = (await service.exports.file(game.id, "csa")).content
    theirs = cshogi.CSA.Parser.parse_str(csa)[0]
    assert [cshogi.move_to_usi(m) for m in theirs.moves] == ["8h2b+"]
    assert theirs.sfen.split()[:3] == start.split()[:3]


@pytest.mark.parametrize(
    ("data", "found"),
    [
        (NIFU_START, "nifu"),  # a record may start so; a game may not
        ("4k4/9/9/9/9/9/9/9/9 b - 1", "no move"),  # sente has nothing to play
    ],
)
async def test_the_strict_check_decides_where_a_game_can_start(
    service: GameService, data: str, found: str
) -> None:
    with pytest.raises(ServiceError, match=found):
        await start_game(service, start_sfen=start_of(data))


def test_a_record_that_starts_later_is_read_by_its_own_move_numbers() -> None:
    """A record starting after move 2 (its SFEN's move number, KIF's `手数＝2`) numbers
    its first move 3, and a move asked for is that number, as the record shows it."""
    start = read_position(KIF, 2).position
    assert read_position(start.sfen()).move_number == 2
    kif = write_kif(Game.replay(start, ["8h2b+"]))
    assert "手数＝2" in kif
    first = read_position(kif, 3)
    assert (first.ply, first.move_number, first.last_number) == (1, 3, 3)
    assert first.position == read_position(KIF, 3).position
    assert read_position(kif, 2).position == start
    for outside in (1, 4):
        with pytest.raises(ServiceError, match=r"from move 2 \(its start\) to move 3"):
            read_position(kif, outside)
    assert start_of(kif, 3) == first.position.sfen()
