"""Reading the bot's board texts back into a position, so that tests check the words
against the position itself: the alt text's pieces and hands, and `/board style:text`."""

from __future__ import annotations

import re

from rules import Color, Position, Role, Square
from rules.notation.bod import diagram_sfen, read_hand, read_row
from rules.notation.common import KANJI_DIGITS, WIDE_DIGITS

Placement = dict[Square, tuple[Color, Role]]
Hands = dict[Color, dict[Role, int]]

_ENGLISH_ROLES = {role.english: role for role in Role}
_ENGLISH_ROLES |= {role.english + "s": role for role in Role}
_ENGLISH_GROUP = re.compile(r"(?P<name>[a-z ]+?) (?P<squares>[1-9][a-i](?:, [1-9][a-i])*)")
_KANJI_ROLES = {role.kanji: role for role in Role}
_ALT = {
    "en": (r"{side}: (?P<pieces>[^.]*)\. {side} in hand: (?P<hand>[^.]*)\.", ("Sente", "Gote")),
    "ja": (r"{side}の駒：(?P<pieces>[^。]*)。{side}の持駒：(?P<hand>[^。]*)。", ("先手", "後手")),
}


def board_part(position: Position) -> str:
    """The board and the hands of a position's SFEN, without the turn and move number."""
    fields = position.sfen().split()
    return f"{fields[0]} {fields[2]}"


def _square(lang: str, text: str) -> Square:
    if lang == "en":
        return Square.from_usi(text)
    return Square.of(WIDE_DIGITS.index(text[0]) + 1, KANJI_DIGITS.index(text[1]) + 1)


def _pieces(lang: str, text: str, color: Color, placement: Placement) -> None:
    for group in text.split("; " if lang == "en" else "、"):
        if lang == "en":
            match = _ENGLISH_GROUP.fullmatch(group)
            assert match is not None, f"not a group of pieces: {group!r}"
            role = _ENGLISH_ROLES[match["name"]]
            where = match["squares"].split(", ")
        else:
            kanji = group[:2] if group[:2] in _KANJI_ROLES else group[:1]
            role = _KANJI_ROLES[kanji]
            where = group[len(kanji) :].split("・")
        for square in where:
            placement[_square(lang, square)] = (color, role)


def _hand(lang: str, text: str) -> dict[Role, int]:
    if lang == "ja":
        return read_hand(text)
    counts: dict[Role, int] = {}
    if text == "none":
        return counts
    for item in text.split(", "):
        count, _, name = item.rpartition(" ")
        counts[_ENGLISH_ROLES[name]] = int(count) if count else 1
    return counts


def alt_text_position(lang: str, alt: str) -> str:
    """The board and hands an alt text describes, as `board_part` writes them."""
    pattern, sides = _ALT[lang]
    placement: Placement = {}
    hands: Hands = {}
    for color, side in zip(Color, sides, strict=True):
        match = re.search(pattern.format(side=side), alt)
        assert match is not None, f"no pieces of {side} in {alt!r}"
        _pieces(lang, match["pieces"], color, placement)
        hands[color] = _hand(lang, match["hand"])
    rows = [[placement.get(Square(row * 9 + i)) for i in range(9)] for row in range(9)]
    return " ".join(diagram_sfen(rows, hands, Color.SENTE).split()[:3:2])


def diagram_position(lang: str, message: str) -> str:
    """The board and hands of `/board style:text`'s code block, as `board_part` writes them."""
    block = message.split("```")[1].strip("\n").splitlines()
    if lang == "ja":
        rows = [read_row(line) for line in block if line.startswith("|")]
        hands = {
            Color.GOTE: read_hand(block[0].split("：")[1]),
            Color.SENTE: read_hand(
                next(b for b in block if b.startswith("先手の持駒")).split("：")[1]
            ),
        }
    else:
        rows = [_letter_row(line) for line in block if line.startswith("|")]
        hand_lines = [line for line in block if " in hand: " in line]
        hands = {
            color: _hand(
                "en", next(h for h in hand_lines if h.startswith(side)).split(": ")[1][:-1]
            )
            for color, side in zip(Color, ("Sente", "Gote"), strict=True)
        }
    assert len(rows) == 9
    return " ".join(diagram_sfen(rows, hands, Color.SENTE).split()[:3:2])


def _letter_row(line: str) -> list[tuple[Color, Role] | None]:
    cells = line[1 : line.rindex("|")]
    assert len(cells) == 27, line
    row: list[tuple[Color, Role] | None] = []
    for i in range(0, 27, 3):
        letter = cells[i : i + 3].strip()
        if letter == ".":
            row.append(None)
        else:
            color = Color.SENTE if letter.upper() == letter else Color.GOTE
            row.append((color, Role.from_sfen(letter.upper())))
    return row
