"""Records pasted on one line, with their line breaks found again.

Discord's slash-command text boxes hold one line: a record pasted there arrives with its
line breaks turned into spaces. `unfold` is the one place that splits such a paste back
into the lines of its format, before any reader sees it:

* KIF and KI2: before a header, a board diagram's parts, a comment, the heading of the
  moves, a move where one can stand and the closing `まで…` line (`kif_paste`), so a
  name, a header's value or a comment keeps its spaces and numbers;
* CSA: before each thing a CSA line starts with (`V2.2`, `N+`, `$KEY:`, `PI`, `P1`..`P9`,
  `P+`/`P-`, the side to move, a move, a time, an end code, a `'` comment), reading the
  header part (up to the line with the side to move) apart from the moves, so a name
  or a comment runs on, spaces and all, up to the next such line;
* USI needs no breaks, nor a KI2 that is only moves, and a CSA written with commas for
  its breaks reads as it is.

What a line break alone told apart cannot be recovered: a name or a comment that holds
something looking like a CSA line is cut there. One case is refused rather than misread:
floodgate's reading comments (`'** 30 -3334FU +2726FU`) list moves that a one-line
paste cannot tell from the game's own.
"""

from __future__ import annotations

import re

from ..errors import Sentence
from .files import detect_format
from .kif_paste import kif_lines
from .records import RecordError

# A break is a whole run of blanks, matched once: `(?<!\s)` starts a match only where a
# run starts and `\s++` takes all of it without giving any back. Without them, a run of
# blanks before a lookahead that fails is tried from each of its characters and at every
# shorter length, quadratic in its length, and the regex engine holds the GIL meanwhile
# (reading in a thread would stop the bot all the same).
_RUN = r"(?<!\s)\s++"

_ENDS = r"(?=[\s,]|$)"  # where a CSA item ends: a space (a line break), a comma, the end
_HEADER_LINES = {
    "version": rf"V[23](?:\.[0-9]+)?{_ENDS}",
    "name": r"N[+-]",
    "info": r"\$[A-Z_]+:",
    "even": rf"PI(?:[1-9]{{2}}[A-Z]{{2}})*{_ENDS}",
    "row": r"P[1-9](?=\s*+(?:\*|[+-][A-Z]{2}))",
    "hand": rf"P[+-](?:[0-9]{{2}}[A-Z]{{2}})+{_ENDS}",
    # The side to move: what follows it is a move, an end code, a comment or nothing,
    # so a `-` inside a name or an event (`$EVENT:Floodgate - R2`) stays there.
    "turn": r"[+-](?=,|\s*+$|\s++(?:[+-][0-9]{4}[A-Z]{2}|%[A-Z+-]|'))",
}
_SHARED_LINES = {
    "comment": "'",
    "move": rf"[+-][0-9]{{4}}[A-Z]{{2}}{_ENDS}",
    "end": rf"%[A-Z_+-]+{_ENDS}",
}
_MOVE_LINES = {"time": rf"T[0-9]+(?:\.[0-9]+)?{_ENDS}", "game": rf"/{_ENDS}"}
_CSA_BREAK = re.compile(
    _RUN
    + "(?="
    + "|".join(
        f"(?P<{kind}>{pattern})"
        for kind, pattern in {**_HEADER_LINES, **_SHARED_LINES, **_MOVE_LINES}.items()
    )
    + ")"
)
_IN_HEADER = {*_HEADER_LINES, *_SHARED_LINES}
_IN_MOVES = {*_SHARED_LINES, *_MOVE_LINES}
_CELL = re.compile(r"\s*+(\*|[+-][A-Z]{2})")
_MOVE = re.compile(_SHARED_LINES["move"])


def unfold(text: str) -> str:
    """The record `text` with its lines back when it came on one line (see the module);
    text that has line breaks, and one-line text of no format that needs them, is
    returned as it is. Raises `RecordError` for a paste that cannot be split honestly.

    >>> print(unfold("V2.2 N+Habu Yoshiharu N-Sato PI +  +7776FU -3334FU %TORYO"))
    V2.2
    N+Habu Yoshiharu
    N-Sato
    PI
    +
    +7776FU
    -3334FU
    %TORYO
    >>> print(unfold("手合割：平手 先手：Ann    1 ７六歩(77)    2 投了"))
    手合割：平手
    先手：Ann
    1 ７六歩(77)
    2 投了
    """
    if "\n" in text or "\r" in text:
        return text
    pasted = text.strip()
    lines = _csa_lines(pasted)
    csa = "\n".join(lines)
    if detect_format(csa) == "csa":
        _refuse_listed_moves(lines)
        return csa
    lines = kif_lines(pasted)
    return "\n".join(lines) if len(lines) > 1 else text


def _csa_lines(text: str) -> list[str]:
    """`text` cut before every CSA line start that can come where it stands: header
    lines up to the side to move, moves, times and end codes after it."""
    lines: list[str] = []
    start, moving = 0, False
    line = _LoneSign()  # what the line since `start` holds, read once as it grows
    for found in _CSA_BREAK.finditer(text):
        line.read(text, found.start())
        moving_now = moving or line.found
        if found.lastgroup not in (_IN_MOVES if moving_now else _IN_HEADER):
            continue
        lines.append(_row(text[start : found.start()]))
        start, moving = found.end(), moving_now
        line = _LoneSign(start)
    lines.append(_row(text[start:]))
    return lines


class _LoneSign:
    """Whether a line that grows holds an item (between commas) that is a sign alone,
    `+` or `-`: the side to move, after which the header is over. Each part of the line
    is read once as the line grows past breaks it does not take, rather than the whole
    line again at each of them."""

    def __init__(self, start: int = 0) -> None:
        self.read_to = start
        self.found = False
        self._open = ""  # the item being read: "" blank so far, "sign" a sign alone, "other"

    def read(self, text: str, end: int) -> None:
        """Read the line on up to `end`."""
        for index, item in enumerate(text[self.read_to : end].split(",")):
            if index:  # a comma closed the item before it
                self.found = self.found or self._open == "sign"
                self._open = ""
            piece = item.strip()
            if piece:
                alone = not self._open and piece in ("+", "-")
                self._open = "sign" if alone else "other"
        self.read_to = end
        self.found = self.found or self._open == "sign"


def _row(line: str) -> str:
    """A `P1`..`P9` row in its fixed width again (three characters a square), whatever
    spaces the paste kept around the squares; any other line stripped."""
    line = line.strip()
    if len(line) < 3 or line[0] != "P" or line[1] not in "123456789":
        return line
    cells, at = [], 2
    while at < len(line):
        cell = _CELL.match(line, at)
        if cell is None:
            return line
        cells.append(cell[1])
        at = cell.end()
    return line[:2] + "".join(" * " if cell == "*" else cell for cell in cells).rstrip()


def _refuse_listed_moves(lines: list[str]) -> None:
    for number, line in enumerate(lines[:-1], 1):
        if line.startswith("'**") and _MOVE.match(lines[number]):
            raise RecordError(
                Sentence(
                    "a comment listing moves (such as '**) cannot be told from the game's "
                    "moves on one line: attach the record as a file instead."
                ),
                number,
                1,
            )
