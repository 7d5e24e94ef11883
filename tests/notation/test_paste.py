"""Records pasted on one line, as Discord's slash-command text boxes send them (line
breaks turned into spaces): `unfold` finds the lines again, and the record reads as its
file does. Real CSA files, hand-written set-ups (P1..P9 rows and hands, PI with pieces
removed), names and comments with spaces, and our own writer's records."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rules import Color, Game, Outcome, Position, Termination
from rules.notation import (
    Record,
    RecordError,
    read_record,
    unfold,
    write_csa,
    write_ki2,
    write_kif,
)

from .support import RECORDS
from .test_records import GAMES

CSA_FILES = sorted(RECORDS.glob("*.csa"))


def one_line(text: str) -> str:
    """`text` as the text box sends it: every line break a space."""
    return text.replace("\r\n", " ").replace("\n", " ")


def assert_same_record(pasted: Record, whole: Record) -> None:
    assert pasted.game.start.sfen() == whole.game.start.sfen()
    assert pasted.game.moves == whole.game.moves
    assert pasted.game.outcome == whole.game.outcome
    assert (pasted.sente, pasted.gote, pasted.started) == (whole.sente, whole.gote, whole.started)
    assert pasted.headers == whole.headers and pasted.warnings == whole.warnings


KAKINOKI_FILES = sorted(p for p in RECORDS.iterdir() if p.suffix in (".kifu", ".ki2u"))


@pytest.mark.parametrize("path", KAKINOKI_FILES, ids=lambda p: p.name)
def test_a_real_kif_or_ki2_record_pasted_on_one_line_reads_as_its_file(path: Path) -> None:
    """Headers other software writes (bioshogi's 先手の囲い, 後手の手筋...) each start a line,
    also after a header the formats know; time fields, comments and variations read."""
    text = path.read_text(encoding="utf-8")
    whole = read_record(text)
    assert_same_record(read_record(unfold(one_line(text))), whole)


@pytest.mark.parametrize("path", CSA_FILES, ids=lambda p: p.name)
def test_a_real_csa_record_pasted_on_one_line_reads_as_its_file(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    assert "\n'" in text or "N+加藤桃子 女王" in text  # comments, or a name with a space
    whole = read_record(text)
    assert_same_record(read_record(unfold(one_line(text))), whole)
    squeezed = re.sub(r"\s+", " ", text)  # even with runs of spaces made one
    assert_same_record(read_record(unfold(squeezed)), whole)


def test_the_audit_s_one_line_csa_reads() -> None:
    """Read before as one `V` line, "never says who moves first"."""
    record = read_record(unfold("V2.2 N+Alice N-Bob PI + +7776FU -3334FU %TORYO"))
    assert (record.sente, record.gote) == ("Alice", "Bob")
    assert [move.usi() for move in record.game.moves] == ["7g7f", "3c3d"]
    outcome = record.game.outcome
    assert outcome is not None and outcome.termination is Termination.RESIGNATION
    assert outcome.winner is Color.GOTE


TSUME = """V2.2
N+Habu Yoshiharu
N-Tanigawa Koji
$EVENT:詰将棋 第1問
$START_TIME:2024/01/02 10:00:00
' a problem: mate in 1
P1 *  *  *  * -OU *  *  *  *
P2 *  *  *  *  *  *  *  *  *
P3 *  *  *  * +KI *  *  *  *
P4 *  *  *  *  *  *  *  *  *
P5 *  *  *  *  *  *  *  *  *
P6 *  *  *  *  *  *  *  *  *
P7 *  *  *  *  *  *  *  *  *
P8 *  *  *  *  *  *  *  *  *
P9 *  *  *  *  *  *  *  *  *
P+00KI
P-00AL
+
+0052KI,T5
' mate, as the problem says
%TSUMI
"""
HANDICAP = """V2.2
N+Shitate San
N-Uwate San
PI82HI22KA
-
-5142OU
T12
+7776FU
T3
-4232OU
%CHUDAN
"""


@pytest.mark.parametrize("text", [TSUME, HANDICAP], ids=["p-rows-and-hands", "pi-removed"])
def test_a_hand_written_set_up_pasted_on_one_line_reads_as_written(text: str) -> None:
    whole = read_record(text)
    pasted = read_record(unfold(one_line(text)))
    assert_same_record(pasted, whole)
    assert " " in (pasted.sente or "") and " " in (pasted.gote or "")


def test_the_set_ups_are_what_they_say() -> None:
    tsume = read_record(TSUME)
    assert tsume.game.start.sfen() == "4k4/9/4G4/9/9/9/9/9/9 b G2r2b2g4s4n4l18p 1"
    assert tsume.sente == "Habu Yoshiharu" and tsume.headers["棋戦"] == "詰将棋 第1問"
    assert tsume.started == "2024/01/02 10:00:00"
    handicap = read_record(HANDICAP)
    assert handicap.game.start == Position.initial("two_piece")
    assert handicap.game.position.turn is Color.SENTE and len(handicap.game.moves) == 3


def test_our_csa_records_pasted_on_one_line_read_as_written() -> None:
    """Every round-trip game (handicaps, set-ups, every ending), with names, a start
    time and comments holding spaces."""
    for game in GAMES:
        text = write_csa(
            game,
            sente="Habu Yoshiharu",
            gote="Sato Amahiko",
            started="2024/01/02 10:00:00",
            comments={0: ["the plan: attack"], len(game.moves): ["a long think, then"]},
        )
        assert_same_record(read_record(unfold(one_line(text))), read_record(text))


def test_a_comment_runs_to_the_next_line_a_csa_record_can_have() -> None:
    unfolded = unfold("V2.2 PI + ' a quiet - line, P1 is no row here +7776FU T3 %TORYO")
    assert unfolded.splitlines() == [
        "V2.2",
        "PI",
        "+",
        "' a quiet - line, P1 is no row here",
        "+7776FU",
        "T3",
        "%TORYO",
    ]


def test_a_dash_in_a_name_or_an_event_is_not_the_side_to_move() -> None:
    text = "V2.2\nN+Bob - 5 dan\nN-Al + co\n$EVENT:Floodgate - R2\nPI\n-\n'start\n-3334FU\n"
    pasted = read_record(unfold(one_line(text)))
    assert_same_record(pasted, read_record(text))
    assert (pasted.sente, pasted.gote) == ("Bob - 5 dan", "Al + co")
    assert pasted.headers["棋戦"] == "Floodgate - R2"


def test_what_stays_unreadable_is_refused_with_line_and_column() -> None:
    with pytest.raises(RecordError) as caught:
        read_record(unfold("V2.2 N+A B PI + +7776FU -3334FU +7775FU"))
    assert (caught.value.line, caught.value.column) == (7, 1)
    assert "'+7775FU' could not be read" in str(caught.value)
    with pytest.raises(RecordError) as caught:  # no move follows the side to move
        read_record(unfold("V2.2 PI + P1 * -KY"))
    assert (caught.value.line, caught.value.column) == (2, 1)
    assert "'PI +' could not be read: '+' is not a square" in str(caught.value)


def test_a_reading_comment_listing_moves_is_refused_not_played() -> None:
    """floodgate's `'**` comments list the moves an engine expected: on one line they
    cannot be told from the game's own, so the paste is refused, naming the comment."""
    floodgate = "V2 PI + +7776FU,T1 '** 30 -3334FU +2726FU -8384FU,T2 %TORYO"
    with pytest.raises(RecordError, match="attach the record as a file") as caught:
        unfold(floodgate)
    assert (caught.value.line, caught.value.column) == (5, 1)
    lines = "V2\nPI\n+\n+7776FU,T1\n'** 30 -3334FU +2726FU\n-8384FU,T2\n%TORYO\n"
    game = read_record(lines).game  # as a file it reads
    assert [move.usi() for move in game.moves] == ["7g7f", "8c8d"]


@pytest.mark.parametrize(
    "text",
    [
        "V2.2\nPI\n+\n+7776FU\n",  # lines already
        "V2.2,PI,+,+7776FU",  # commas for line breaks
        "position startpos moves 7g7f 3c3d",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
        "▲７六歩 △３四歩",
        "4k4/9/4G4/9/9/9/9/9/9 b G 1",
    ],
    ids=["lines", "commas", "usi", "sfen", "ki2", "tsume-sfen"],
)
def test_what_needs_no_line_breaks_is_left_as_it_is(text: str) -> None:
    assert unfold(text) == text


def test_a_one_line_kif_is_split_in_the_same_place() -> None:
    kif = "手合割：平手\n先手：Ann Lee\n後手：Bo\n   1 ７六歩(77)\n*a comment: here\n   2 投了\n"
    pasted = read_record(unfold(one_line(kif)))
    assert_same_record(pasted, read_record(kif))
    assert pasted.sente == "Ann Lee"


def test_a_one_line_paste_of_a_game_from_a_set_up_keeps_its_start() -> None:
    game = Game(Position.from_sfen("4k4/9/4G4/9/9/9/9/9/9 b G 1"), ["G*5b"])
    text = write_csa(game, sente="A B", gote="C D")
    record = read_record(unfold(one_line(text)))
    assert record.game.start == game.start and record.game.moves == game.moves


def test_a_pasted_kif_keeps_its_last_name_apart_from_the_moves_heading() -> None:
    """The `手数----指手----` line under the headers (ours and Kifu for Windows' KIF have
    it) starts a line too: it was read as the end of gote's name."""
    kif = write_kif(Game(moves=["7g7f", "3c3d"]), sente="Ann", gote="Bo")
    pasted = read_record(unfold(one_line(kif)))
    assert (pasted.sente, pasted.gote) == ("Ann", "Bo")
    assert pasted.game.moves == read_record(kif).game.moves


def _resigned(*moves: str) -> Game:
    game = Game(moves=list(moves))
    game.resign(game.position.turn)
    return game


@pytest.mark.parametrize(
    ("sente", "gote"), [("Ann", "Bo"), ("Ann Lee", "はなこ🌸 さん"), (None, None)]
)
def test_our_ki2_pasted_on_one_line_reads_as_written(sente: str | None, gote: str | None) -> None:
    """Its moves ran on in gote's name (a record of no move), or in 手合割's value when no
    name came before them (an unknown handicap)."""
    game = _resigned("7g7f", "3c3d", "8h2b+", "3a2b")
    ki2 = write_ki2(game, sente=sente, gote=gote, comments={1: ["a quiet start"]})
    pasted = read_record(unfold(one_line(ki2)))
    assert_same_record(pasted, read_record(ki2))
    assert (pasted.sente, pasted.gote) == (sente, gote)
    assert len(pasted.game.moves) == 4 and pasted.game.outcome == game.outcome


def test_a_kif_whose_summary_follows_its_last_move_reads_on_one_line() -> None:
    """Software that writes no end word (`投了`) puts `まで…` right after the last move:
    it was read as the end of that move."""
    kif = (
        "手合割：平手\n先手：Ann\n後手：Bo\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\n"
    )
    pasted = read_record(unfold(one_line(kif)))
    assert_same_record(pasted, read_record(kif))
    assert pasted.game.outcome == Outcome(Termination.RESIGNATION, Color.GOTE)


def test_numbers_in_headers_names_and_comments_start_no_move() -> None:
    """A value or a comment holding a number and a word (`7 days`, `3 pawns`) was cut
    there, and what followed was read as a move of that number."""
    kif = (
        "開始日時：2024/01/02 10:00:00\n持ち時間：7 days + 1 day a move\n棋戦：Club 2 同好会\n"
        "手合割：平手\n先手：Ann 5 dan\n後手：Bo 3 七段\n手数----指手---------消費時間--\n"
        "*plan: 3 pawns, 5 ７六歩 first\n   1 ７六歩(77)\n*2 moves\n   2 ３四歩(33)\n"
    )
    pasted = read_record(unfold(one_line(kif)))
    assert_same_record(pasted, read_record(kif))
    assert (pasted.sente, pasted.gote) == ("Ann 5 dan", "Bo 3 七段")
    assert pasted.headers["持ち時間"] == "7 days + 1 day a move"


def test_a_name_holding_a_colon_keeps_it() -> None:
    """A full-width colon in a name is no new header; a key the KIF format knows still is."""
    kif = (
        "手合割：平手\n先手：Ann Lee：pro\n後手：Bo\n棋戦：Club\n手数----指手---------消費時間--\n"
    )
    pasted = read_record(unfold(one_line(kif)))
    assert (pasted.sente, pasted.gote, pasted.headers["棋戦"]) == ("Ann Lee：pro", "Bo", "Club")


def test_a_kif_from_a_set_up_position_pasted_on_one_line_keeps_its_diagram() -> None:
    """A board diagram's rows, hands, file numbers and `手数＝N` each start a line."""
    start = Position.from_sfen(
        "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 31"
    )
    game = Game(start, ["2b2c"])
    for text in (write_kif(game, sente="A B", gote="C"), write_ki2(game, sente="A B", gote="C")):
        pasted = read_record(unfold(one_line(text)))
        assert_same_record(pasted, read_record(text))
        assert pasted.game.start == start


def test_a_ki2_count_keeps_its_points_comment_apart_from_the_last_move() -> None:
    """The comment `*持将棋（24点法）：…` was taken for a header (it holds a colon), which
    cannot come among the moves, so it ran on in the last move."""
    game = Game(moves=["7g7f", "3c3d"])
    game.set_outcome(Outcome(Termination.IMPASSE_24, Color.GOTE))
    ki2 = write_ki2(game, sente="Ann", gote="Bo")
    assert "*持将棋（24点法）：" in ki2
    pasted = read_record(unfold(one_line(ki2)))
    assert_same_record(pasted, read_record(ki2))
    assert pasted.game.outcome == game.outcome


def test_an_ampersand_in_a_name_starts_no_comment() -> None:
    kif = write_kif(Game(moves=["7g7f"]), sente="Tom & Jerry", gote="Bo")
    assert read_record(unfold(one_line(kif))).sente == "Tom & Jerry"


def test_a_comma_in_a_csa_name_or_header_is_kept() -> None:
    """CSA's commas part moves and times written on one line; a name or a header holds
    its own (`Habu, Yoshiharu`), which was read as a line of its own and refused. A
    header line written with commas for its line breaks still reads."""
    csa = write_csa(Game(moves=["7g7f"]), sente="Habu, Yoshiharu", gote="Sato, A")
    for text in (csa, one_line(csa)):
        record = read_record(unfold(text))
        assert (record.sente, record.gote) == ("Habu, Yoshiharu", "Sato, A")
    record = read_record("V2.2,N+Ann,N-Bo,$EVENT:Club, R2,PI,+,+7776FU")
    assert (record.sente, record.gote, record.headers["棋戦"]) == ("Ann", "Bo", "Club, R2")


def test_a_csa_side_to_move_followed_by_an_illegal_action_ends_the_header() -> None:
    """A resignation on the opponent's turn before any move is `%-ILLEGAL_ACTION` right
    after the side to move: the `-` was not taken for the side to move."""
    game = Game(Position.initial("two_piece"))
    game.resign(Color.SENTE)
    csa = write_csa(game, sente="Ann", gote="Bo")
    assert "\n-\n%+ILLEGAL_ACTION" in csa
    pasted = read_record(unfold(one_line(csa)))
    assert_same_record(pasted, read_record(csa))
    assert pasted.game.outcome == game.outcome


def test_a_colon_in_a_comment_before_the_moves_starts_no_header() -> None:
    """A note at the start of a KI2 (before its first move, among the headers) holding
    `plan：attack` was cut there into a header `plan`."""
    ki2 = write_ki2(Game(moves=["7g7f"]), sente="Ann", gote="Bo", comments={0: ["my plan：attack"]})
    pasted = read_record(unfold(one_line(ki2)))
    assert_same_record(pasted, read_record(ki2))
    assert "plan" not in pasted.headers


def test_an_event_holding_a_colon_keeps_it() -> None:
    """棋戦 holds the server's name as its members wrote it."""
    record = Record(Game(moves=["7g7f"]), headers={"棋戦": "Shogi Club：R2 🌸", "場所": "Bot"})
    kif = write_kif(record, sente="Ann", gote="Bo")
    pasted = read_record(unfold(one_line(kif)))
    assert_same_record(pasted, read_record(kif))
    assert pasted.headers["棋戦"] == "Shogi Club：R2 🌸"


def test_a_kif_without_names_keeps_its_handicap_apart_from_the_moves_heading() -> None:
    """Without names, `手合割：平手` came right before the heading of the moves, which was
    read as part of the handicap's name (unknown handicap '平手 手数----…')."""
    game = Game(Position.initial("lance"), ["5a4b"])
    pasted = read_record(unfold(one_line(write_kif(game))))
    assert pasted.game.start == game.start and pasted.game.moves == game.moves
