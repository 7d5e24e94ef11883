"""Whole games as records: the container, the shared helpers, SFEN/USI and the lishogi link.

A `Record` is a `rules.game.Game` plus what the file said about it (players, start
date, other headers, the end word as written, what was irregular about its start).
Readers return a `Record`; writers take a `Game` or a `Record`. Every reading problem
is a `RecordError` naming the line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import TypedDict

from ..errors import Sentence, quote, tidy
from ..game import Game
from ..moves import Move
from ..position import Position
from ..sfen import StartWarning
from ..types import Color


class RecordError(ValueError):
    """A record that could not be read; `line` is the 1-based line number (None: whole file)
    and `column` the 1-based character where the unreadable part starts (None: the line).

    `reason` says what is wrong as a `Sentence`, and `sentence` adds where, so a player
    reads both in their own language; `str(error)` is the English text.

    >>> str(RecordError(Sentence("the move is not legal here."), 12))
    'Line 12: the move is not legal here.'
    >>> str(RecordError(Sentence("the move is not legal here."), 12, 5))
    'Line 12, column 5: the move is not legal here.'
    """

    def __init__(
        self, reason: Sentence, line: int | None = None, column: int | None = None
    ) -> None:
        self.reason = reason
        self.line = line
        self.column = column
        super().__init__(tidy(str(self.sentence)))

    @property
    def sentence(self) -> Sentence:
        """Where the record went wrong and why, for a player."""
        if self.line is None:
            return self.reason
        if self.column is None:
            return Sentence("Line {line}: {reason}", line=self.line, reason=self.reason)
        return Sentence(
            "Line {line}, column {column}: {reason}",
            line=self.line,
            column=self.column,
            reason=self.reason,
        )


def because(error: ValueError) -> Sentence:
    """Why a part of a record could not be read: the error's own sentence (a `FormatError`,
    an unreadable or illegal move, a wrong SFEN), so the player reads it in their language.

    Every error a reader can meet carries one; an error without one is a reader's bug,
    raised as such (`TypeError`) rather than shown to a player in English.
    """
    sentence = getattr(error, "sentence", None)
    if not isinstance(sentence, Sentence):
        raise TypeError(f"a record reader met {error!r}, which has no sentence for a player")
    return sentence


@dataclass
class Record:
    """A game with what its file said about it. `game.outcome` holds the result.

    `warnings` says what is irregular about the start position the record gives (nifu,
    a piece that could never move, no king at all): its moves are read all the same, as
    other shogi software reads them, but a game on Discord cannot start from there.

    A reader keeps the names, headers and end word it reads through `keep_name`,
    `keep_header` and `keep_end`, so none it returns is longer than its limit.

    >>> record = Record(Game(moves=["7g7f"]), sente="Ann", gote="Bo", started="2024/01/02")
    >>> record.game.position.turn, record.sente
    (<Color.GOTE: 1>, 'Ann')
    """

    game: Game
    sente: str | None = None
    gote: str | None = None
    started: str | None = None
    headers: dict[str, str] = field(default_factory=dict)
    end: str | None = None
    warnings: tuple[StartWarning, ...] = ()

    def keep_name(self, color: Color, name: str) -> None:
        """Keep a player's name, cut to `NAME_LIMIT`."""
        if color == Color.SENTE:
            self.sente = cut(name, NAME_LIMIT)
        else:
            self.gote = cut(name, NAME_LIMIT)

    def keep_header(self, key: str, value: str) -> str:
        """Keep a header, its key cut to `KEY_LIMIT` and its value to `HEADER_LIMIT`; the
        value as kept."""
        kept = self.headers[cut(key, KEY_LIMIT)] = cut(value, HEADER_LIMIT)
        return kept

    def keep_end(self, word: str) -> None:
        """Keep the end word or code as written, cut to `HEADER_LIMIT` (none if empty)."""
        self.end = cut(word, HEADER_LIMIT) or None


def record_time(moment: datetime) -> str:
    """A date and time as KIF's `開始日時` and CSA's `$START_TIME` write it, in the zone
    `moment` is given in (records have no place for a zone).

    Kifu for Windows 7 and lishogi write `2026/11/27 21:05:00`; older Kifu for Windows added
    the weekday (`2026/11/27(金) 21:05:00`), which cshogi's reader (and others that take the
    date apart) cannot read, so the weekday is left out.

    >>> record_time(datetime(2026, 11, 27, 21, 5))
    '2026/11/27 21:05:00'
    """
    return moment.strftime("%Y/%m/%d %H:%M:%S")


#: Comments to write into a record, by ply: ply 0 comes before the first move, ply n after
#: the n-th move. Each text may span several lines.
Comments = Mapping[int, Sequence[str]]


class Details(TypedDict, total=False):
    """What a writer may be told of a game besides its moves, each overriding a `Record`'s
    own: the players' names, when it started (a `datetime` is written as `record_time`
    writes it) and the `comments` to write by ply (see `Comments`)."""

    sente: str | None
    gote: str | None
    started: datetime | str | None
    comments: Comments | None


def as_record(game: Game | Record, details: Details) -> Record:
    """A `Record` for a writer: the given details override those of a `Record`."""
    if not details.keys() <= Details.__optional_keys__:
        raise TypeError(f"a record has no {', '.join(details.keys() - Details.__optional_keys__)}")
    record = game if isinstance(game, Record) else Record(game)
    sente, gote, started = details.get("sente"), details.get("gote"), details.get("started")
    if isinstance(started, datetime):
        started = record_time(started)
    return Record(
        record.game,
        sente if sente is not None else record.sente,
        gote if gote is not None else record.gote,
        started if started is not None else record.started,
        dict(record.headers),
        record.end,
        record.warnings,
    )


def place_comments(comments: Comments | None, moves: int) -> dict[int, list[str]]:
    """The comment lines to write after each ply (0: before the first move), in ply order.

    A comment at a ply past the last move (written before a takeback, say) goes after the
    last move: dropping it would lose what its author wrote. Each text is split into its
    lines, so no line of a comment can be read as a move or a header.

    >>> place_comments({5: ["late"], 0: ["a\\nb"], 1: ["x"]}, 3)
    {0: ['a', 'b'], 1: ['x'], 3: ['late']}
    """
    placed: dict[int, list[str]] = {}
    for ply in sorted(comments or {}):
        if ply < 0:
            raise ValueError(f"a comment's ply cannot be negative ({ply})")
        assert comments is not None
        for text in comments[ply]:
            lines = [line.rstrip() for line in text.splitlines()] or [""]
            placed.setdefault(min(ply, moves), []).extend(lines)
    return placed


def decode(data: bytes | str) -> str:
    """Text of a record given as UTF-8 or Shift_JIS bytes (or already as text)."""
    if isinstance(data, str):
        return data.lstrip("\ufeff")
    if not isinstance(data, bytes | bytearray):
        raise RecordError(Sentence("A record must be given as text or bytes."))
    raw = bytes(data)
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        return raw.decode("cp932")
    except UnicodeDecodeError:
        raise RecordError(Sentence("The record is neither UTF-8 nor Shift_JIS text.")) from None


# --------------------------------------------------------------------- limits

#: The longest player name a record keeps (longer ones are cut, with an ellipsis): names
#: are shown on board images and in captions, where a pasted screenful would bury the board.
NAME_LIMIT = 64
#: The longest value kept of any other header (event, place, time control, start date) and
#: of the end word as written, cut like a name: a real record's long comment or note still
#: reads, and no header costs more than a line of a reply to show.
HEADER_LIMIT = 200
#: The longest header key kept: every key a record uses is a few words.
KEY_LIMIT = 40


def cut(text: str, limit: int) -> str:
    """`text` at most `limit` characters long, an ellipsis marking where it was cut.

    >>> cut("Habu Yoshiharu", 8), cut("Habu", 8)
    ('Habu Yo…', 'Habu')
    """
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --------------------------------------------------------------------- SFEN, USI, links


def write_sfen(game: Game | Record | Position) -> str:
    """The SFEN of a position, or of a game's current position.

    >>> write_sfen(Game(moves=["7g7f"]))
    'lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2'
    """
    if isinstance(game, Record):
        game = game.game
    return game.sfen() if isinstance(game, Position) else game.position.sfen()


def write_usi(game: Game | Record) -> str:
    """The USI `position` command that sets up the game's current position.

    >>> write_usi(Game(moves=["7g7f", "3c3d"]))
    'position startpos moves 7g7f 3c3d'
    """
    if isinstance(game, Record):
        game = game.game
    start = game.start
    head = "startpos" if start == Position.initial() else f"sfen {start.sfen()}"
    moves = " ".join(move.usi() for move in game.moves)
    return f"position {head}" + (f" moves {moves}" if moves else "")


def read_usi(data: bytes | str) -> Record:
    """A game from `position startpos moves ...`, `position sfen ... moves ...`, an SFEN
    (optionally followed by `moves ...`) or a bare list of USI moves.

    >>> read_usi("position startpos moves 7g7f 3c3d").game.position.turn
    <Color.SENTE: 0>
    """
    lines = [(n, line.strip()) for n, line in enumerate(decode(data).splitlines(), 1)]
    lines = [(n, line) for n, line in lines if line]
    if len(lines) != 1:
        raise RecordError(Sentence("A USI record is one line: position startpos moves 7g7f ..."))
    number, line = lines[0]
    words = line.split()
    if words[0] == "position":
        words = words[1:]
    head, _, tail = " ".join(words).partition("moves")
    head_words = head.split()
    warnings: tuple[StartWarning, ...] = ()
    try:
        if not head_words or head_words == ["startpos"]:
            start = Position.initial()
        else:
            start, warnings = Position.from_sfen_with_warnings(
                " ".join(head_words[1:] if head_words[0] == "sfen" else head_words)
            )
    except ValueError as error:
        if head_words and re.fullmatch(r"[1-9][a-i][1-9][a-i]\+?|[A-Z]\*[1-9][a-i]", head_words[0]):
            start, tail = Position.initial(), line
        else:
            raise RecordError(because(error), number, line.find(head_words[0]) + 1) from None
    game = Game(start)
    column = 0 if tail is line else line.find("moves") + len("moves")
    for index, text in enumerate(tail.split(), 1):
        column = line.index(text, column)
        try:
            game.push(Move.from_usi(text))
        except ValueError as error:
            reason = Sentence(
                "move {index} ({text}) could not be played: {reason}",
                index=index,
                text=quote(text),
                reason=because(error),
            )
            raise RecordError(reason, number, column + 1) from None
        column += len(text)
    return Record(game, warnings=warnings)


LINK_MOVES = 300


def analysis_link(game: Game | Record) -> str:
    """A lishogi analysis board for the game (at most 300 moves; a longer game starts
    from the position 300 moves before the end).

    >>> link = analysis_link(Game(moves=["7g7f", "3c3d", "8h2b+"]))
    >>> link[:40], link[-45:]
    ('https://lishogi.org/analysis/lnsgkgsnl/1', '1B5R1/LNSGKGSNL_b_-_1?moves=7g7f_3c3d_8h2b%2B')
    """
    if isinstance(game, Record):
        game = game.game
    moves = game.moves
    start = game.start.copy()
    for move in moves[: max(0, len(moves) - LINK_MOVES)]:
        start.push_unchecked(move)
    shown = moves[max(0, len(moves) - LINK_MOVES) :]
    link = "https://lishogi.org/analysis/" + start.sfen().replace(" ", "_").replace("+", "%2B")
    if shown:
        link += "?moves=" + "_".join(move.usi() for move in shown).replace("+", "%2B")
    return link
