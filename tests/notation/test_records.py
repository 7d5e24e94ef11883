"""Game records: the real records in tests/data/records, and write-then-read round trips."""

from __future__ import annotations

import random
import re
from pathlib import Path

import cshogi
import cshogi.CSA
import cshogi.KIF
import pytest

from rules import Color, Move, Position, Sentence
from rules.game import Game, Outcome, Termination
from rules.notation import (
    Record,
    RecordError,
    analysis_link,
    detect_format,
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

from .support import POSITION_593, RECORDS

FILES = sorted(path for path in RECORDS.iterdir() if path.suffix != ".txt")
# Moves and result of every record, from SOURCES.txt and the files' closing lines.
EXPECTED: dict[str, tuple[int, Termination | None, Color | None]] = {
    "bioshogi_sample": (113, Termination.RESIGNATION, Color.SENTE),
    "kfjs_20091203": (172, Termination.RESIGNATION, Color.GOTE),
    "kfjs_8mai": (25, Termination.ABORT, None),
    "kfjs_ryuou4": (101, Termination.RESIGNATION, Color.SENTE),
    "kfjs_9fu": (61, Termination.CHECKMATE, Color.SENTE),
    # A problem's "まで49手詰" with useless interpositions (無駄合) left: no mate on the board.
    "kfjs_kobayashi_kinsho196702": (49, None, None),
}
# Problems: no players' names, and a start the strict reader refuses.
PROBLEMS = {"kfjs_9fu", "kfjs_kobayashi_kinsho196702"}
FORMATS = {".kifu": "kif", ".ki2u": "ki2", ".csa": "csa"}


def same_game(a: Game, b: Game) -> bool:
    return a.start.key() == b.start.key() and a.moves == b.moves and a.outcome == b.outcome


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_record_reads_and_replays_legally(path: Path) -> None:
    record = read_record(path.read_bytes())
    assert detect_format(path.read_text(encoding="utf-8")) == FORMATS[path.suffix]
    plies, termination, winner = EXPECTED[path.stem]
    game = record.game
    assert len(game.moves) == plies
    assert game.outcome == (None if termination is None else Outcome(termination, winner))
    replay = game.start.copy()
    for move in game.moves:
        replay.push(move)  # validating
    assert replay == game.position
    assert (path.stem in PROBLEMS) or (record.sente and record.gote and record.started)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_records_read_from_shift_jis_bytes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    from_sjis = read_record(text.encode("cp932"))
    assert same_game(from_sjis.game, read_record(text).game)
    assert from_sjis.sente == read_record(text).sente


@pytest.mark.parametrize(
    "versions",
    [
        ("kfjs_8mai.ki2u", "kfjs_8mai.kifu", "kfjs_8mai.csa"),
        ("bioshogi_sample.ki2u", "bioshogi_sample.csa"),
        ("kfjs_9fu.kifu", "kfjs_9fu.ki2u", "kfjs_9fu.csa"),
    ],
)
def test_versions_of_one_game_agree(versions: tuple[str, ...]) -> None:
    games = [read_record((RECORDS / name).read_bytes()).game for name in versions]
    for game in games[1:]:
        assert game.start.key() == games[0].start.key()
        assert game.moves == games[0].moves
        assert game.outcome == games[0].outcome
    assert len(games[0].moves) > 20


def _moves_of(text: str, pattern: str) -> list[str]:
    """The moves as printed, the dragon's two spellings (龍, 竜) counted as one."""
    return [re.sub(r"\s+", "", m).replace("龍", "竜") for m in re.findall(pattern, text)]


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix == ".ki2u"], ids=lambda p: p.name)
def test_ki2_writer_reproduces_the_printed_moves(path: Path) -> None:
    """Every modifier, 同 and 成 of three professional KI2 records, character for character."""
    original = path.read_text(encoding="utf-8")
    pattern = r"[▲△][^▲△\s]+(?:　[^▲△\s]+)?"
    written = write_ki2(read_ki2(original))
    assert _moves_of(written, pattern) == _moves_of(original, pattern)
    if path.stem not in PROBLEMS:  # a problem's "まで61手詰" is written as a game's mate
        assert original.strip().splitlines()[-1] in written


@pytest.mark.parametrize("path", [p for p in FILES if p.suffix == ".kifu"], ids=lambda p: p.name)
def test_kif_writer_reproduces_the_move_column(path: Path) -> None:
    original = path.read_text(encoding="utf-8")
    time = re.compile(r"\(\s*[0-9:]+/[0-9:]+\)")
    numbered = re.compile(r" *[0-9]+ ")
    theirs = [time.sub("", line).split() for line in original.splitlines() if numbered.match(line)]
    written = write_kif(read_kif(original)).splitlines()
    ours = [line.split() for line in written if numbered.match(line)]
    assert ours == theirs


# ----------------------------------------------------------------- round trips


def _random_game(rng: random.Random, start: Position, plies: int) -> Game:
    game = Game(start)
    for _ in range(plies):
        moves = game.position.legal_moves()
        if game.outcome is not None or not moves:
            break
        game.push(rng.choice(moves))
    if game.outcome is None:
        ending = rng.choice(["none", "resign", "time", "declare", "impasse"])
        turn = game.position.turn
        if ending == "resign":
            game.resign(rng.choice(list(Color)) if not game.moves else turn)
        elif ending == "time":
            game.time_out(turn)
        elif ending == "declare":
            game.outcome = Outcome(Termination.IMPASSE_27, turn)
        elif ending == "impasse":
            game.outcome = Outcome(Termination.IMPASSE_24, None)
    return game


def _starts(rng: random.Random) -> list[Position]:
    starts = [Position.initial(), Position.from_sfen(POSITION_593)]
    starts += [Position.initial(h) for h in ("lance", "two_piece", "eight_piece", "ten_piece")]
    middle = Position.initial()
    for _ in range(60):  # a start set up by hand: promoted pieces and hands in a diagram
        moves = middle.legal_moves()
        middle.push(rng.choice([m for m in moves if m.promotion] or moves))
    starts.append(Position.from_sfen(middle.sfen().rsplit(" ", 1)[0] + " 1"))
    return starts


def special_games() -> list[Game]:
    mate = Game("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", ["G*5b"])
    repetition = Game(moves=["5i5h", "5a5b", "5h5i", "5b5a"] * 3)
    aborted = Game(moves=["7g7f"])
    aborted.abort()
    return [mate, repetition, aborted]


def round_trip_games() -> list[Game]:
    rng = random.Random(7)
    games = special_games()
    for start in _starts(rng):
        for plies in (0, 1, 2, 40, 150):
            games.append(_random_game(rng, start, plies))
    return games


GAMES = round_trip_games()


def test_the_special_games_end_as_intended() -> None:
    terminations = [game.outcome.termination for game in special_games() if game.outcome]
    assert terminations == [Termination.CHECKMATE, Termination.SENNICHITE, Termination.ABORT]


SENTE, STARTED = "先手 太郎", "2024/05/06 07:08:09"


def test_round_trip_games_cover_every_ending() -> None:
    endings = {game.outcome.termination for game in GAMES if game.outcome is not None}
    assert endings >= {
        Termination.CHECKMATE, Termination.SENNICHITE, Termination.ABORT, Termination.RESIGNATION,
        Termination.TIME, Termination.IMPASSE_27, Termination.IMPASSE_24,
    }  # fmt: skip
    assert any(game.outcome is None for game in GAMES)
    out_of_turn = [g for g in GAMES if g.outcome and g.outcome.winner == g.position.turn]
    assert any(g.outcome.termination is Termination.RESIGNATION for g in out_of_turn)  # type: ignore[union-attr]
    assert any(len(game.moves) >= 100 for game in GAMES)


@pytest.mark.parametrize("name", ["kif", "ki2", "csa"])
def test_write_then_read_gives_the_same_game(name: str) -> None:
    for game in GAMES:
        text = write_record(game, name, sente=SENTE, gote="Hanako", started=STARTED)
        record = read_record(text)
        assert detect_format(text) == name or not game.moves  # no move: KIF and KI2 look alike
        assert same_game(record.game, game), text
        assert (record.sente, record.gote, record.started) == (SENTE, "Hanako", STARTED)
        again = read_record(write_record(record, name))
        assert same_game(again.game, game)


def test_usi_and_sfen_round_trips() -> None:
    for game in GAMES:
        record = read_usi(write_usi(game))
        assert record.game.start == game.start and record.game.moves == game.moves
        assert read_usi(write_sfen(game)).game.position == game.position
    assert write_usi(Game()) == "position startpos"
    assert read_usi("7g7f 3c3d").game.moves == [Move.from_usi("7g7f"), Move.from_usi("3c3d")]
    assert read_usi(f"sfen {POSITION_593} moves R*1a").game.moves == [Move.from_usi("R*1a")]


def test_records_read_back_by_cshogi() -> None:
    """An independent reader agrees with what we write (KIF needs a 手合割 start there)."""
    for game in GAMES:
        if game.handicap is None:
            continue
        usi = [move.usi() for move in game.moves]
        kif = cshogi.KIF.Parser.parse_str(write_kif(game))
        assert [cshogi.move_to_usi(m) for m in kif.moves] == usi
        csa = cshogi.CSA.Parser.parse_str(write_csa(game))[0]
        assert [cshogi.move_to_usi(m) for m in csa.moves] == usi
        assert csa.sfen.split()[:3] == game.start.sfen().split()[:3]


def test_handicap_headers() -> None:
    game = Game(Position.initial("two_piece"), ["5a4b"])
    game.resign(Color.SENTE)
    kif = write_kif(game, sente="下手さん", gote="上手さん")
    assert "手合割：二枚落ち" in kif and "下手：下手さん" in kif and "上手：上手さん" in kif
    assert "まで1手で上手の勝ち" in kif and "   2 投了" in kif
    csa = write_csa(game)
    assert "PI82HI22KA\n-\n-5142OU\n%TORYO" in csa
    assert read_csa(csa).game.handicap is not None


def test_board_diagram_start() -> None:
    game = Game("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1")
    kif = write_kif(game)
    assert "後手の持駒：金　銀　桂　歩五" in kif and "|v香 ・ ・ ・ ・ ・ ・v桂v香|一" in kif
    assert "後手番" in kif and "先手の持駒：飛　金" in kif
    assert read_kif(kif).game.start.key() == game.start.key()
    assert read_kif(cshogi.KIF.board_to_bod(cshogi.Board(game.start.sfen()))).game.start.key() == (
        game.start.key()
    )


def test_endings_are_written() -> None:
    mate, repetition, aborted = special_games()
    assert "   2 詰み" in write_kif(mate) and "%TSUMI" in write_csa(mate)
    assert "千日手" in write_kif(repetition) and "%SENNICHITE" in write_csa(repetition)
    assert "まで1手で中断" in write_ki2(aborted) and "%CHUDAN" in write_csa(aborted)
    running = Game(moves=["7g7f"])
    assert "まで" not in write_kif(running) and "%" not in write_csa(running)


# ----------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("手合割：平手\n   1 ７六歩(77)\n   2 ７六歩(77)\n", 3),
        ("手合割：平手\n   1 ７六歩(77)\n   3 ３四歩(33)\n", 3),
        ("手合割：九枚落ち\n   1 ７六歩(77)\n", 1),
        ("手合割：平手\nこんにちは\n", 2),
        ("▲７六歩 △３四歩\n▲９九飛\n", 2),
        ("▲７六歩 ▲３四歩\n", 1),
        ("V2.2\nPI\n+\n+7776FU\n+3334FU\n", 5),
        ("V2.2\nP1-KY-KE-GI-KI-OU-KI-GI-KE-KY\nQ\n+\n", 3),
        ("V2.2\nP1-KY\n+\n", 2),
        ("|v香v桂|一\n▲７六歩\n", 1),
        ("position startpos moves 7g7f 7g7f", 1),
    ],
)
def test_errors_name_the_line(text: str, line: int) -> None:
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert caught.value.line == line
    assert re.match(rf"Line {line}(, column [0-9]+)?: ", str(caught.value))


def test_unreadable_bytes() -> None:
    with pytest.raises(RecordError):
        read_record(b"\xff\xfe\x80\x81\xfc")
    with pytest.raises(RecordError):
        read_csa("V2.2\nN+a\n")  # never says who moves first


# ----------------------------------------------------------------- analysis link


def test_analysis_link() -> None:
    game = Game(moves=["7g7f", "3c3d", "8h2b+"])
    assert analysis_link(game) == (
        "https://lishogi.org/analysis/lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/"
        "LNSGKGSNL_b_-_1?moves=7g7f_3c3d_8h2b%2B"
    )
    assert analysis_link(Game()).endswith("LNSGKGSNL_b_-_1")
    assert "%2Bp" in analysis_link(Game("4k4/9/4+p4/9/9/9/9/9/4K4 b - 1"))


def test_long_games_link_the_last_300_moves() -> None:
    rng = random.Random(3)
    game = Game()
    while len(game.moves) < 320:
        game = _random_game(rng, Position.initial(), 320)
    link = analysis_link(game)
    shown = link.split("?moves=")[1].split("_")
    assert len(shown) == min(300, len(game.moves))
    start = game.start.copy()
    for move in game.moves[: len(game.moves) - len(shown)]:
        start.push(move)
    assert link.split("?")[0].endswith(start.sfen().replace(" ", "_"))


def test_record_container() -> None:
    record = read_kif((RECORDS / "kfjs_ryuou4.kifu").read_bytes())
    assert isinstance(record, Record)
    assert record.headers["棋戦"] == "第18期竜王戦第4局"
    assert record.end == "投了"
    assert "棋戦：第18期竜王戦第4局" in write_kif(record)


@pytest.mark.parametrize("stem", sorted(PROBLEMS))
@pytest.mark.parametrize("name", ["kif", "ki2", "csa", "usi"])
def test_problem_records_write_back_with_their_start(stem: str, name: str) -> None:
    """The two records the strict reader refused: written in every format with their
    start (KIF/KI2 board diagram, CSA P1..P9, USI sfen) and read back the same, warnings
    included."""
    path = next(p for p in FILES if p.stem == stem)
    record = read_record(path.read_bytes())
    text = write_record(record, name)
    again = read_record(text)
    assert same_game(again.game, record.game), text
    assert again.warnings == record.warnings
    if name in ("kif", "ki2"):
        assert "+---------------------------+" in text and "手合割" not in text
    if name == "csa":
        assert "\nP1" in text and "\nP9" in text and "PI" not in text
        theirs = cshogi.CSA.Parser.parse_str(text)[0]
        their_start = Position.from_sfen_with_warnings(theirs.sfen)[0]  # hands in our order
        assert their_start.key() == record.game.start.key()
        assert [cshogi.move_to_usi(m) for m in theirs.moves] == [m.usi() for m in record.game.moves]
    if name == "usi":
        assert text.startswith(f"position sfen {record.game.start.sfen()} moves ")


def test_problem_records_carry_their_warnings() -> None:
    nine = read_record((RECORDS / "kfjs_9fu.kifu").read_bytes())
    assert [w.code for w in nine.warnings] == ["nifu", "dead_piece"]
    tsume = read_record((RECORDS / "kfjs_kobayashi_kinsho196702.ki2u").read_bytes())
    assert tsume.warnings == ()
    assert not tsume.game.start.has_king(Color.SENTE)
    assert tsume.end == "まで49手詰"


@pytest.mark.parametrize(
    ("text", "line", "column"),
    [
        ("手合割：平手\n   1 ７六歩(77)\n   2 ３五歩(33)\n", 3, 6),  # KIF: the move's text
        ("▲７六歩 △３四歩 ▲７六歩\n", 1, 11),  # KI2: the third move on the line
        ("V2.2\nPI\n+\n+7776FU,T3,-3334FU,  +7776FU\n", 4, 22),  # CSA: the item
        ("position startpos moves 7g7f  3c3d 7g7f", 1, 36),  # USI: the move
        ("手合割：平手\n  ？？？\n", 2, 3),  # a line that is nothing
    ],
    ids=["kif", "ki2", "csa", "usi", "not-a-line"],
)
def test_errors_name_the_column(text: str, line: int, column: int) -> None:
    """The column is where the unreadable part starts, counted in characters of the line
    as written (indentation included), so a player can find it in what they pasted."""
    with pytest.raises(RecordError) as caught:
        read_record(text)
    assert (caught.value.line, caught.value.column) == (line, column)
    assert caught.value.sentence.params["column"] == column
    assert text.splitlines()[line - 1][column - 1 :].lstrip("▲△+-")[:1] not in ("", " ")


def test_an_error_reason_is_a_sentence_a_player_reads() -> None:
    """The reason of a move that cannot be played keeps the rules' own sentence (which
    the bot says in the reader's language), not only its English text."""
    with pytest.raises(RecordError) as caught:
        read_record("▲７六歩 △３四歩 ▲５五飛\n")
    sentence = caught.value.sentence
    assert sentence.template == "Line {line}, column {column}: {reason}"
    reason = sentence.params["reason"]
    assert isinstance(reason, Sentence) and reason.template == "could not play '{text}': {reason}"
    assert isinstance(reason.params["reason"], Sentence)
    assert str(sentence).startswith("Line 1, column 11: could not play '▲５五飛': ")


@pytest.mark.parametrize("name", ["a\nb", "x\r\n%TORYO", "a\u2028b", "a\x1cb", "\x00\x1f\n\t"])
@pytest.mark.parametrize("won", [Color.SENTE, Color.GOTE])
def test_a_name_with_a_line_break_stays_on_its_line_in_every_writer(name: str, won: Color) -> None:
    """CSA's summary line names the players after a resignation; a name that breaks the
    line must not leave the rest of it to be read as a move or an end code."""
    game = Game(moves=["7g7f", "3c3d"])
    game.resign(won.opponent)
    for fmt in ("kif", "ki2", "csa"):
        back = read_record(write_record(game, fmt, sente=name, gote=name), fmt)
        assert back.game.moves == game.moves, fmt
        assert back.game.outcome == game.outcome, fmt
