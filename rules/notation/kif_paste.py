"""A KIF or KI2 record pasted on one line, cut back into its lines (see `paste.unfold`).

A break is a whole run of blanks (what a line break became) before something that starts a
line of these formats. Which starts are taken depends on where the paste is, read once from
left to right:

* in the header part: a `key：value` header (in a comment, only a key the formats know;
  in the value of a header they know, only such a key or one in kana and kanji alone, as
  other software spells its own (先手の囲い), so a name `Ann Lee：pro` or an event
  `Club：R2` stays whole), a board diagram's parts (`+---`, a `|` row,
  the file numbers, `手数＝N`, `後手番`), a `*` comment, the heading of the moves (`手数----`),
  the first move (a number and a move, `1 ７六歩`, or a turn mark and a move, `▲７六歩`)
  and the closing `まで…手` line;
* among KIF's numbered moves: a number and a move (in a comment, only the number the next
  move has, so `*3 pawns` stays a comment), a comment, `まで…手` and `変化：`;
* among KI2's moves: a comment, `まで…手`, `変化：`, and the first move after a comment
  (a row of moves may stay on one line).

A header's value, a name or a comment thus runs, spaces and numbers and all, up to the next
line these formats can have where it stands. What a line break alone told apart is lost: a
name holding ` ▲７六歩`, or a comment holding the next move's number and a move
(`*11 ７六歩 was better` after move 10), is cut there.
"""

from __future__ import annotations

import re

from .common import DIGITS_LIMIT
from .endings import END_WORDS
from .kif import OTHER_END_WORDS, PLAYER_KEYS

#: Header keys of the KIF and KI2 formats: in the value of one of them only these start a
#: header, as a name or an event may hold a full-width colon of its own.
KNOWN_KEYS = frozenset(
    {
        "開始日時", "終了日時", "対局日", "棋戦", "戦型", "表題", "持ち時間", "消費時間",
        "場所", "掲載", "備考", "先手省略名", "後手省略名", "手合割", "作者", "作品番号",
        "作品名", "発表誌", "発表年月", "出典", "手数", "完全性", "分類", "受賞", "記録係",
        "解説", "観戦", "先手の備考", "後手の備考", "先手の持駒", "後手の持駒", "上手の持駒",
        "下手の持駒", "変化", *PLAYER_KEYS,
    }
)  # fmt: skip
_PIECES = "歩香桂銀金角飛玉王と杏圭全馬龍竜成"
_ENDS = "|".join(sorted({*END_WORDS, *OTHER_END_WORDS}, key=len, reverse=True))
# What a move of these formats starts with: a square (`７六`), `同` and a piece, an end word.
_MOVE_START = f"(?:[１-９][一二三四五六七八九]|同[\u3000 ]?[{_PIECES}]|{_ENDS})"
# In the order tried: a comment first (`*持将棋（24点法）：…` is no header).
_STARTS = {
    "comment": "[*&]",
    "number": rf"(?P<digits>[0-9]++)\s++{_MOVE_START}",
    "mark": f"[▲△▼▽☗☖]{_MOVE_START}",
    "key": r"(?P<name>[^\s：:]++)：",
    "heading": "手数-",
    "summary": "まで[0-9]++手",
    "played": "手数＝",
    "diagram": r"\+-|\||９ ８ ７|[先後上下]手番(?!\S)",
}
# A break is a whole run of blanks, matched once (see `paste._RUN`: a run matched from each
# of its characters would make a long one quadratic).
_BREAK = re.compile(
    r"(?<!\s)\s++(?="
    + "|".join(f"(?P<{kind}>{pattern})" for kind, pattern in _STARTS.items())
    + ")"
)
# The paste's first line, when it is a move (no break is before it).
_FIRST = re.compile(
    "(?:" + "|".join(f"(?P<{kind}>{_STARTS[kind]})" for kind in ("number", "mark")) + ")"
)
_PLAYED = re.compile(rf"手数＝\s*+([0-9]{{1,{DIGITS_LIMIT}}})(?![0-9])")
_KANA_KANJI = re.compile("[\u3041-\u30ff\u4e00-\u9fff々]++")
_IN_HEADER = {"mark", "heading", "played", "diagram"}


def kif_lines(text: str) -> list[str]:
    """`text`, a KIF or KI2 record on one line, as its lines (see the module); a text with
    nothing to cut comes back as one line.

    >>> kif_lines("手合割：平手 先手：Ann Lee 1 ７六歩(77) *3 pawns 2 投了 まで1手で先手の勝ち")
    ['手合割：平手', '先手：Ann Lee', '1 ７六歩(77)', '*3 pawns', '2 投了', 'まで1手で先手の勝ち']
    """
    cutter = _Cutter()
    first = _FIRST.match(text)
    if first is not None:  # the paste starts with its moves
        cutter.takes(first)
    lines: list[str] = []
    start = 0
    for found in _BREAK.finditer(text):
        if cutter.takes(found):
            lines.append(text[start : found.start()])
            start = found.end()
    lines.append(text[start:])
    return lines


class _Cutter:
    """Where the paste is (header part, KIF's numbered moves, KI2's moves) and what the
    line being cut holds, updated at each break taken."""

    def __init__(self) -> None:
        self.part = "header"  # then "kif" or "ki2", then "after" (a variation: no more cuts)
        self.in_known = False  # the line is the value of a header the formats know
        self.in_comment = False
        self.first_numbers = {1}  # what KIF's first move may be numbered (1, or N+1)
        self.next_number: int | None = None  # KIF's next move number, once one is read

    def takes(self, found: re.Match[str]) -> bool:
        """Whether the line breaks at `found`; if so, what the new line is is noted."""
        kind = found.lastgroup
        number = _number(found) if kind == "number" else None
        if not self._allowed(found, kind, number):
            return False
        self.in_comment = kind == "comment"
        self.in_known = kind == "key" and found["name"] in KNOWN_KEYS
        if kind == "played":
            played = _PLAYED.match(found.string, found.end())
            if played is not None:
                self.first_numbers = {1, int(played[1]) + 1}
        elif kind == "key" and found["name"] == "変化":
            self.part = "after"
        elif kind in ("number", "heading") and self.part == "header":
            self.part = "kif"
        elif kind == "mark" and self.part == "header":
            self.part = "ki2"
        if kind == "number":
            self.next_number = None if number is None else number + 1
        return True

    def _allowed(self, found: re.Match[str], kind: str | None, number: int | None) -> bool:
        if self.part == "after":
            return False
        if kind == "key":
            name = found["name"]
            if self.part != "header":
                return name == "変化"
            if name in KNOWN_KEYS or not (self.in_known or self.in_comment):
                return True
            # After a known header's value, another key as KIF writers spell theirs:
            # in kana and kanji only (bioshogi's 先手の囲い), unlike most names.
            return self.in_known and _KANA_KANJI.fullmatch(name) is not None
        if kind == "comment":  # `&` (a bookmark) only among the moves: `Tom & Jerry`
            return self.part != "header" or found.string[found.end()] == "*"
        if kind == "summary":
            return True
        if kind == "number" and self.part != "ki2":
            # Outside a comment any numbered move starts a line (a wrong number is then
            # refused by the reader, naming it); in a comment only the next move's number.
            return not self.in_comment or number in self._expected()
        if self.part == "header":
            return kind in _IN_HEADER
        return self.part == "ki2" and kind == "mark" and self.in_comment

    def _expected(self) -> set[int]:
        if self.next_number is None:
            return self.first_numbers
        return {self.next_number}


def _number(found: re.Match[str]) -> int | None:
    """A KIF move's number, None when longer than any record's (the reader refuses it)."""
    digits = found["digits"]
    return int(digits) if len(digits) <= DIGITS_LIMIT else None
