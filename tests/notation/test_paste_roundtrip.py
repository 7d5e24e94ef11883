"""Every record the bot exports, pasted on one line, reads back as its file does.

Discord's text box turns a pasted record's line breaks into spaces; `/board position:`
reads it through `unfold` and `read_record` (`bot.services.records.positions.read_position`).
Games are random legal games from the rules core (a seeded `random.Random`): the even
start, every handicap, positions set up by hand (some reached after N moves), each
ending the bot writes with its `まで` line, comments at random plies, and names with
spaces, full-width characters, digits and emoji. Each record `/export` writes (KIF, KI2,
CSA, USI, SFEN) is pasted with its line breaks as one space, as runs of spaces, and from
a file with CRLF line ends, and must read back to the same moves, names, handicap and
result as the game written; the headers the bot writes (開始日時, 終了日時, 持ち時間, 棋戦
with the server's name, 場所) read as any other header.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.services.records.exports import FORMATS
from bot.services.records.positions import read_position
from rules import Color, Game, Handicap, Move, Outcome, Position, Termination
from rules.notation import Record, read_record, unfold
from rules.notation.charsets import SHIFT_JIS, shift_jis_text
from rules.notation.endings import ending_of
from rules.notation.files import RECORD_FILES, write_record_file

#: Set-ups the writers give as a board diagram or P rows: a tsume with its mate, a
#: middle game with promoted pieces and hands (reached after 30 moves), a bare pair of kings.
SET_UPS = [
    ("4k4/9/4P4/9/9/9/9/9/4K4 b G 1", "G*5b"),
    ("l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 31", None),
    ("4k4/9/9/9/9/9/9/9/4K4 b 2P 1", None),
]
#: What members write in names and notes: words with spaces (ASCII, ideographic or none
#: between them), kana and kanji, full-width letters and digits, emoji (one of several
#: code points joined), numbers, commas and everyday punctuation. Not generated: a word
#: that is itself a line of a format (`+7776FU`, `▲７六歩`, `'`, `*`, `N-`), which a
#: paste cannot tell from that line (see `rules/notation/paste.py`).
WORDS = [
    "Ann", "Lee", "はなこ🌸", "羽生", "善治", "七段", "5", "dan", "Ｔａｒｏ", "１２３",
    "👨\u200d👩\u200d👧", "🐉", "Tom", "&", "Jerry", "O'Neil", "Habu,", "(Club)", "#3",
    "a-b", "3-0", "2024/01/02", "plan：attack", "x:y", "!?", "・", "最強", "7", "days",
    "将棋部", "Ｒ２", "x+y",
]  # fmt: skip
TEXT = st.tuples(
    st.lists(st.sampled_from(WORDS), max_size=5), st.sampled_from([" ", "\u3000", "", "  "])
).map(lambda words: words[1].join(words[0]))
NAMES = TEXT.map(str.strip).filter(bool)
ENDINGS = [
    "none", "resign", "resign-out-of-turn", "time", "abort", "sennichite", "declare",
    "count-draw", "count-won", "jsa24", "mate",
]  # fmt: skip


def _start(rng: random.Random) -> tuple[Position, str | None]:
    kind = rng.choice(["even", "even", "handicap", "set-up"])
    if kind == "even":
        return Position.initial(), None
    if kind == "handicap":
        return Position.initial(rng.choice(list(Handicap)[1:])), None
    sfen, mate = rng.choice(SET_UPS)
    return Position.from_sfen(sfen), mate


def random_game(seed: int) -> Game:
    """A legal game from `seed`: its start, up to 60 random moves, one of `ENDINGS`."""
    rng = random.Random(seed)
    start, mate = _start(rng)
    ending = rng.choice(ENDINGS)
    game = Game(start)
    if ending == "mate" and mate is not None:
        game.push(Move.from_usi(mate))
        return game
    if ending == "sennichite" and start == Position.initial():
        return Game(start, ["5i5h", "5a5b", "5h5i", "5b5a"] * 3)
    for _ in range(rng.choice([0, 1, 2, 5, 20, 60])):
        moves = game.position.legal_moves()
        if game.outcome is not None or not moves:
            break
        game.push(rng.choice(moves))
    if game.outcome is None:
        _end(game, ending, rng)
    return game


def _end(game: Game, ending: str, rng: random.Random) -> None:
    turn = game.position.turn
    if ending == "resign":
        game.resign(turn)
    elif ending == "resign-out-of-turn":
        game.resign(turn.opponent)
    elif ending == "time":
        game.time_out(turn)
    elif ending == "abort" and len(game.moves) < 2:
        game.abort()
    elif ending == "sennichite":
        game.set_outcome(Outcome(Termination.SENNICHITE, None))
    elif ending == "declare":
        game.set_outcome(Outcome(Termination.IMPASSE_27, turn))
    elif ending == "count-draw":
        game.set_outcome(Outcome(Termination.IMPASSE_24, None))
    elif ending == "count-won":
        game.set_outcome(Outcome(Termination.IMPASSE_24, rng.choice(list(Color))))
    elif ending == "jsa24":
        game.set_outcome(Outcome(Termination.IMPASSE_JSA24, rng.choice([None, *Color])))


def pastes(text: str) -> dict[str, str]:
    """`text` as it arrives from Discord's text box, several ways."""
    crlf = text.replace("\n", "\r\n")
    return {
        "spaces": text.replace("\n", " "),
        "runs": text.replace("\n", "    "),
        "crlf-one-line": crlf.replace("\r\n", " "),
        "crlf-each": crlf.replace("\r", " ").replace("\n", " "),
        "crlf-lines": crlf,
    }


def result(game: Game) -> tuple[str | None, Color | None]:
    """A game's result as a record can say it: how it ended, and who won."""
    return ending_of(game), None if game.outcome is None else game.outcome.winner


def assert_same(pasted: Record, whole: Record, where: str) -> None:
    """The paste read as the file: the same start, moves, result, names and headers."""
    assert pasted.game.start.sfen() == whole.game.start.sfen(), where
    assert pasted.game.moves == whole.game.moves, where
    assert pasted.game.outcome == whole.game.outcome, where
    assert (pasted.sente, pasted.gote, pasted.started) == (
        whole.sente,
        whole.gote,
        whole.started,
    ), where
    assert pasted.headers == whole.headers, where


@settings(max_examples=120, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 2**32),
    sente=NAMES,
    gote=NAMES,
    event=TEXT,
    notes=st.dictionaries(st.integers(0, 70), st.lists(TEXT, min_size=1, max_size=2), max_size=4),
)
def test_every_export_pasted_on_one_line_reads_back(
    seed: int, sente: str, gote: str, event: str, notes: dict[int, list[str]]
) -> None:
    game = random_game(seed)
    headers = {
        "終了日時": "2026/12/04 10:00:00",
        "持ち時間": "7日＋1日",
        "棋戦": event,
        "場所": "Bot 🌸",
    }
    for kind in FORMATS:  # every file `/export` gives, as a member would open and copy it
        file = RECORD_FILES[kind]
        written = write_record_file(
            Record(game, headers=headers),
            kind,
            sente=sente,
            gote=gote,
            started="2026/11/27 10:00:00",
            comments=notes,
        )
        text = written.data.decode(file.encoding).replace("\r\n", "\n")  # lines, as shown
        format = file.format
        whole = read_record(text)
        for way, pasted in pastes(text).items():
            read = read_record(unfold(pasted))  # as `read_position` reads it, with what it drops
            assert_same(read, whole, f"{format} pasted as {way}:\n{text}")
        shown = read_position(pastes(text)["spaces"])  # and `/board position:` itself
        assert (shown.sente, shown.gote, shown.outcome) == (
            whole.sente,
            whole.gote,
            whole.game.outcome,
        )
        assert shown.position == whole.game.position
        if format == "sfen":  # the position alone
            assert whole.game.position == game.position
            continue
        assert whole.game.moves == game.moves, text
        if format == "csa":  # CSA numbers nothing: its start reads back as move 1
            assert whole.game.start.sfen().rsplit(" ", 1)[0] == game.start.sfen().rsplit(" ", 1)[0]
        else:
            assert whole.game.start == game.start, text
        assert whole.game.handicap == game.handicap, text
        if format != "usi":  # USI has no names and no result
            names = [" ".join(name.split()) for name in (sente, gote)]
            if file.encoding == SHIFT_JIS:  # what Shift_JIS lacks is written as 〓
                names = [shift_jis_text(name)[0] for name in names]
            assert [whole.sente, whole.gote] == names
            assert result(whole.game) == result(game), text
