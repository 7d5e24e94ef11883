"""KIF and KI2 records (Kakinoki formats), read and written.

Both share the header lines (`キー：値`), the handicap name (`手合割`) or a board
diagram for other starts, and the closing `まで…` line. KIF numbers every move and
gives its origin (`   1 ７六歩(77)`); KI2 writes the JSA notation, several moves a line.
A diagram of a position reached after N moves says `手数＝N`: KIF then numbers the
moves from N+1, and both count to the last move's number in `まで…手`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Unpack

from ..errors import Sentence, SfenError, quote
from ..game import Game
from ..handicaps import Handicap
from ..moves import Move
from ..position import Position
from ..sfen import StartWarning
from ..types import Color, Role
from . import bod
from .common import TURN_MARKS, AmbiguousMoveError, read_number
from .endings import (
    COUNT_MARK,
    END_WORDS,
    WRITTEN_WORDS,
    End,
    apply_ending,
    count_comment,
    ending_of,
    read_summary,
    summary,
    summary_winner,
)
from .parse import parse_move
from .records import Details, Record, RecordError, as_record, because, decode, place_comments
from .write import japanese_move, kif_move

OTHER_END_WORDS = ("封じ手", "不詰", "不戦勝", "不戦敗", "勝ち宣言", "入玉")
PLAYER_KEYS = {"先手": Color.SENTE, "下手": Color.SENTE, "後手": Color.GOTE, "上手": Color.GOTE}
OWN_KEYS = {"開始日時", "手合割", *PLAYER_KEYS}
_KIF_MOVE = re.compile(r"([0-9]+)\s+(.*)")
_MARKED = re.compile("[▲△▼▽☗☖][^▲△▼▽☗☖]+")


# --------------------------------------------------------------------- writing


def _clean(value: str) -> str:
    return " ".join(value.split())


def _head(record: Record) -> list[str]:
    game = record.game
    handicap = game.handicap
    lines = []
    if record.started:
        lines.append(f"開始日時：{_clean(record.started)}")
    lines += [
        f"{k}：{_clean(v)}"
        for k, v in record.headers.items()
        if k not in OWN_KEYS and "：" not in k
    ]
    uneven = handicap not in (None, Handicap.EVEN)
    if handicap is None or game.start.move_number > 1:  # 手合割 has no move number
        lines += bod.write_bod(game.start, handicap=uneven, numbered=True)
    else:
        lines.append(f"手合割：{handicap.japanese}")
    for color, name in ((Color.SENTE, record.sente), (Color.GOTE, record.gote)):
        if name is not None:
            lines.append(f"{bod_side(color, uneven)}：{_clean(name)}")
    return lines


def bod_side(color: Color, uneven: bool) -> str:
    if color == Color.SENTE:
        return "下手" if uneven else "先手"
    return "上手" if uneven else "後手"


def _uneven(game: Game) -> bool:
    return game.handicap not in (None, Handicap.EVEN)


def write_kif(game: Game | Record, *, encoding: str = "UTF-8", **details: Unpack[Details]) -> str:
    """The game as a KIF record (Kifu for Windows layout; its first line names `encoding`,
    the one its file is saved in: `UTF-8` or `Shift_JIS`). `comments` by ply
    are written as `*` lines after the move of their ply (ply 0: before the first move),
    where KIF readers show them with that move. A game from a position reached after N
    moves (an SFEN move number of N+1) says `手数＝N` under its diagram and numbers its
    moves from N+1, as Japanese software does, so the move numbers survive the record.

    >>> print(write_kif(Game(moves=["7g7f", "3c3d"]), sente="Ann", gote="Bo"))
    #KIF version=2.0 encoding=UTF-8
    手合割：平手
    先手：Ann
    後手：Bo
    手数----指手---------消費時間--
       1 ７六歩(77)
       2 ３四歩(33)
    <BLANKLINE>
    >>> print(write_kif(Game(moves=["7g7f"]), comments={0: ["plan"], 1: ["good"]}))
    #KIF version=2.0 encoding=UTF-8
    手合割：平手
    手数----指手---------消費時間--
    *plan
       1 ７六歩(77)
    *good
    <BLANKLINE>
    """
    record = as_record(game, details)
    game = record.game
    notes = place_comments(details.get("comments"), len(game.moves))
    lines = [
        f"#KIF version=2.0 encoding={encoding}",
        *_head(record),
        "手数----指手---------消費時間--",
    ]
    lines += [f"*{line}" for line in notes.get(0, ())]
    position, last = game.start.copy(), None
    first = game.start.move_number  # moves played before the start are counted too
    for ply, move in enumerate(game.moves, 1):
        same = last is not None and last.to_square == move.to_square
        lines.append(f"{first + ply - 1:>4} {kif_move(position, move, same=same)}")
        lines += [f"*{line}" for line in notes.get(ply, ())]
        position.push_unchecked(move)
        last = move
    key = ending_of(game)
    if key is not None:
        lines.append(f"{first + len(game.moves):>4} {WRITTEN_WORDS[key]}")
        lines += [text for text in [count_comment(game, _uneven(game))] if text]
        lines.append(summary(game, _uneven(game)) or "")
    return "\n".join(lines) + "\n"


def write_ki2(game: Game | Record, *, per_line: int = 8, **details: Unpack[Details]) -> str:
    """The game as a KI2 record: JSA notation with turn marks, `per_line` moves a line.
    `comments` by ply are `*` lines after the move of their ply (the row of moves is
    broken there), ply 0 before the first move.

    >>> print(write_ki2(Game(moves=["7g7f", "3c3d", "8h2b+", "3a2b"])))
    手合割：平手
    <BLANKLINE>
    ▲７六歩 △３四歩 ▲２二角成 △同　銀
    <BLANKLINE>
    >>> print(write_ki2(Game(moves=["7g7f", "3c3d", "8h2b+"]), comments={2: ["sharp"]}))
    手合割：平手
    <BLANKLINE>
    ▲７六歩 △３四歩
    *sharp
    ▲２二角成
    <BLANKLINE>
    """
    record = as_record(game, details)
    game = record.game
    notes = place_comments(details.get("comments"), len(game.moves))
    lines = [*_head(record), ""]
    lines += [f"*{line}" for line in notes.get(0, ())]
    position, last, row = game.start.copy(), None, []
    for number, move in enumerate(game.moves, 1):
        same = last is not None and last.to_square == move.to_square
        mark = "▲" if position.turn == Color.SENTE else "△"
        row.append(mark + japanese_move(position, move, same=same))
        if len(row) == per_line or number in notes:
            lines.append(" ".join(row))
            row = []
        lines += [f"*{line}" for line in notes.get(number, ())]
        position.push_unchecked(move)
        last = move
    if row:
        lines.append(" ".join(row))
    closing = summary(game, _uneven(game))
    if closing:
        lines += [text for text in [count_comment(game, _uneven(game))] if text]
        lines.append(closing)
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------- reading


class _Reader:
    """What KIF and KI2 share: headers, the start position, playing moves, the end."""

    def __init__(self) -> None:
        self.kept = Record(Game())  # the names, headers and end word, the game once read
        self.handicap: tuple[int, str] | None = None
        self.rows: list[list[tuple[Color, Role] | None]] = []
        self.hands: dict[Color, dict[Role, int]] = {}
        self.turn = Color.SENTE
        self.diagram_line = 0
        self.move_number = 1  # of the start, from a `手数＝N` line (N moves played)
        self.numbering: int | None = None  # the number the record gives its first move
        self.game: Game | None = None
        self.last: Move | None = None
        self.end: str | None = None
        self.ending: End | None = None
        self.summary: str | None = None
        self.warnings: tuple[StartWarning, ...] = ()
        self.counted = False  # the record marks its end as a 24-point count

    def header(self, number: int, line: str) -> bool:
        """Take a header or diagram line; False when the line is neither."""
        key, colon, value = line.partition("：")
        key, value = key.strip(), value.strip()
        try:
            if colon and key in bod.HAND_KEYS:
                self.hands[bod.HAND_KEYS[key]] = bod.read_hand(value)
            elif line.startswith("|"):
                self.rows.append(bod.read_row(line))
                self.diagram_line = number
            elif line in bod.TURN_LINES:
                self.turn = bod.TURN_LINES[line]
            elif line.startswith(bod.MOVES_PLAYED):
                self.move_number = bod.read_moves_played(line) + 1
            elif line.startswith(("+--", "９ ８", "手数-")):
                pass
            elif colon and key:
                self.kept.keep_header(key, value)
                if key in PLAYER_KEYS:
                    self.kept.keep_name(PLAYER_KEYS[key], value)
                if key == "手合割":
                    self.handicap = (number, value)
            else:
                return False
        except ValueError as error:
            reason = Sentence(
                "the board diagram could not be read: {reason}", reason=because(error)
            )
            raise RecordError(reason, number) from None
        starts = line.startswith(("|", bod.MOVES_PLAYED)) or key in bod.HAND_KEYS or key == "手合割"
        if self.game is not None and starts:
            raise RecordError(Sentence("the start position is given after the first move."), number)
        return True

    def start(self) -> Game:
        if self.game is not None:
            return self.game
        if self.rows:
            if len(self.rows) != 9:
                raise RecordError(Sentence("a board diagram has nine rows."), self.diagram_line)
            sfen = bod.diagram_sfen(self.rows, self.hands, self.turn, self.move_number)
            try:
                position, self.warnings = Position.from_sfen_with_warnings(sfen)
            except SfenError as error:
                reason = Sentence(
                    "the board diagram is not a legal position: {reason}", reason=error.sentence
                )
                raise RecordError(reason, self.diagram_line) from None
        elif self.handicap is not None:
            number, name = self.handicap
            try:
                position = Position.initial(Handicap.parse(name))
            except ValueError:
                reason = Sentence(
                    "unknown handicap '{name}'; give the start as a board diagram.",
                    name=quote(name),
                )
                raise RecordError(reason, number) from None
        else:
            position = Position.initial()
        position.move_number = self.move_number
        self.game = Game(position)
        return self.game

    def play(self, number: int, text: str, style: str, column: int) -> None:
        """Play the move written as `text` at `column` (1-based) of line `number`."""
        game = self.start()
        if self.ending is not None or self.end is not None:
            reason = Sentence("'{text}' follows the end of the game.", text=quote(text))
            raise RecordError(reason, number, column)
        try:
            try:
                move = parse_move(game.position, text, last_move=self.last, style=style)
            except AmbiguousMoveError as error:
                # Finished records often leave out 不成: then the promotion was declined.
                if len({m.from_square for m in error.candidates}) != 1:
                    raise
                move = next(m for m in error.candidates if not m.promotion)
            game.push(move)
        except ValueError as error:
            reason = Sentence(
                "could not play '{text}': {reason}", text=quote(text), reason=because(error)
            )
            raise RecordError(reason, number, column) from None
        self.last = move

    def expected_number(self, found: int) -> int:
        """The number the next numbered KIF line should have, given that it has `found`.

        A record's first line fixes how it counts: from the start's move number (after
        `手数＝N`, N+1), or from 1 as software that ignores `手数＝` writes it; the start
        keeps its move number either way.
        """
        game = self.start()
        if self.numbering is None:
            self.numbering = 1 if found == 1 else game.start.move_number
        return self.numbering + len(game.moves)

    def stop(self, number: int, word: str, column: int) -> None:
        self.start()
        if self.end is not None:
            reason = Sentence("'{text}' follows the end of the game.", text=quote(word))
            raise RecordError(reason, number, column)
        self.end = word
        self.ending = END_WORDS.get(word)

    def finish(self) -> Record:
        game = self.start()
        key = self.ending
        if key is None and self.end is None and self.summary is not None:
            key = read_summary(self.summary)
        if self.counted and key == End.RESIGN:  # a KI2 count: only the comment says so
            key = End.IMPASSE
        if key is not None:
            winner = summary_winner(self.summary) if self.summary else None
            apply_ending(game, key, winner)
        record = self.kept
        record.game = game
        record.started = record.headers.get("開始日時")
        record.keep_end(self.end or self.summary or "")
        record.warnings = self.warnings
        return record


def _lines(data: bytes | str) -> Iterator[tuple[int, str, int]]:
    """Numbered lines that carry something (not blank, not a comment), up to variations,
    stripped, each with the number of characters stripped before it (to name columns)."""
    for number, raw in enumerate(decode(data).splitlines(), 1):
        line = raw.strip()
        if not line or line[0] in "#*&'":
            continue
        if line.startswith("変化"):
            return
        yield number, line, len(raw) - len(raw.lstrip())


def _not_read(line: str, number: int, indent: int) -> RecordError:
    reason = Sentence("'{text}' is not a header, diagram row or move.", text=quote(line, 40))
    return RecordError(reason, number, indent + 1)


def _without_time(text: str) -> str:
    """A KIF move's text without its time field (`７六歩(77)   ( 0:01/00:00:01)+`), stripped.

    Read with str methods from the last `(`, which only the time field can follow: a
    pattern with runs of optional blanks around each part backtracks quadratically on a
    long run of blanks, and the regex engine holds the GIL meanwhile.

    >>> _without_time("７六歩(77)   ( 0:01/00:00:01)+"), _without_time("投了 ( 0:03/ )")
    ('７六歩(77)', '投了')
    """
    text = text.strip()
    opening = text.rfind("(")
    inside = text[opening + 1 :]
    if inside.endswith("+"):  # a move that checks (some software marks it)
        inside = inside[:-1].rstrip()
    if opening < 0 or not inside.endswith(")"):
        return text
    used, slash, total = inside[:-1].partition("/")
    used, total = used.strip(), total.strip()
    if not slash or not used or used.strip(_TIME_CHARS) or total.strip(_TIME_CHARS):
        return text
    return text[:opening].strip()


_TIME_CHARS = "0123456789:"


def _counted(data: bytes | str) -> bool:
    return any(line.startswith(COUNT_MARK) for line in decode(data).splitlines())


def read_kif(data: bytes | str) -> Record:
    """Read a KIF record (UTF-8 or Shift_JIS; handicap header or board diagram).

    >>> record = read_kif("手合割：平手\\n   1 ７六歩(77)\\n   2 投了\\n")
    >>> record.game.outcome.termination.name, [m.usi() for m in record.game.moves]
    ('RESIGNATION', ['7g7f'])
    """
    reader = _Reader()
    reader.counted = _counted(data)  # a KI2 of no moves reads as KIF: its count still counts
    for number, line, indent in _lines(data):
        if line.startswith("まで"):
            reader.summary = line
            continue
        match = _KIF_MOVE.fullmatch(line)
        if match is None:
            if not reader.header(number, line):
                raise _not_read(line, number, indent)
            continue
        try:
            found = read_number(match[1])
        except ValueError as error:
            raise RecordError(because(error), number, indent + 1) from None
        expected = reader.expected_number(found)
        if found != expected:
            reason = Sentence(
                "move {found} where move {expected} was expected.",
                found=quote(match[1]),
                expected=expected,
            )
            raise RecordError(reason, number, indent + 1)
        text = _without_time(match[2]).rstrip("+").strip()
        word = text.split()[0] if text else ""
        column = indent + match.start(2) + 1
        if word in END_WORDS or word.startswith(OTHER_END_WORDS):
            reader.stop(number, word, column)
        else:
            reader.play(number, text, "kif", column)
    return reader.finish()


def read_ki2(data: bytes | str) -> Record:
    """Read a KI2 record: JSA moves with turn marks, several a line; a missing 不成
    counts as declining the promotion, as finished records often leave it out.

    >>> [m.usi() for m in read_ki2("▲７六歩 △３四歩 ▲２二角成 △同　銀").game.moves]
    ['7g7f', '3c3d', '8h2b+', '3a2b']
    """
    reader = _Reader()
    reader.counted = _counted(data)
    for number, line, indent in _lines(data):
        if line.startswith("まで"):
            reader.summary = line
        elif line[0] in TURN_MARKS:
            for token in _MARKED.finditer(line):
                reader.play(number, token[0].strip(), "japanese", indent + token.start() + 1)
        elif not reader.header(number, line):
            raise _not_read(line, number, indent)
    return reader.finish()
