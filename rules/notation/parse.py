"""Reading one move in any notation: `parse_move`.

The text is normalised (section 6.1 of the specification), then the grammars are
tried in the order of section 6.2; the first that matches turns the text into an
`Intent` (what the player said), which `resolve` checks against the position.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

from ..errors import InvalidMoveError, Sentence, quote
from ..moves import Move
from ..position import Position
from ..types import Color, Role, Square
from .common import (
    CSA_ROLES,
    JAPANESE_PIECE_PATTERN,
    READ_NAMES,
    TURN_MARKS,
    WESTERN_LETTERS,
    Style,
    digit_value,
    style_name,
)
from .resolve import Intent, resolve

_TRANSLATE = str.maketrans(
    {
        "−": "-", "ー": "-", "—": "-", "–": "-", "‐": "-", "‑": "-", "―": "-", "ｰ": "-",
        "×": "x", "’": "'", "′": "'", "‘": "'",
        "步": "歩",  # the traditional form some phone keyboards offer first
    }
)  # fmt: skip

#: The longest text read as a move, blanks included (`▲ ７ 六 歩 ( 7 7 )` is 18).
MAX_MOVE_TEXT = 64
_USI = re.compile(r"([1-9][a-i])([1-9][a-i])(\+?)|([PLNSGBR])\*([1-9][a-i])")
_COORDINATES = re.compile(r"([1-9][a-i1-9])-?([1-9][a-i1-9])([+=]?)", re.IGNORECASE)
_CSA_STRICT = re.compile(r"([+-]?)([0-9]{2})([0-9]{2})([A-Z]{2})")
_CSA = re.compile(_CSA_STRICT.pattern, re.IGNORECASE)
_WESTERN = re.compile(
    r"(\+?[PLNSGBRK]|[THD])([1-9][a-i1-9])?([-x*'])?([1-9][a-i1-9])([+=])?", re.IGNORECASE
)
_SQUARE = "[1-9一二三四五六七八九]{2}"
_JAPANESE = re.compile(
    rf"(?:(?P<dest>{_SQUARE})(?P<same1>同)?|(?P<same2>同)(?P<dest2>{_SQUARE})?)"
    rf"(?P<piece>{JAPANESE_PIECE_PATTERN})(?P<mods>[右左直上引寄行]*)"
    r"(?P<action>成り?|不成り?|生|打)?(?:\((?P<origin>[1-9]{2})\))?"
)
_KITAO = re.compile(
    rf"(?P<piece>\+?(?:{JAPANESE_PIECE_PATTERN}))(?:\(?(?P<origin>[1-9]{{2}})\)?)?"
    r"(?P<sep>[-x*'])?(?P<dest>[1-9]{2})?(?P<promo>[+=])?"
)


def _unreadable(family: str, shown: str) -> Sentence:
    """What to say about text no grammar of `family` reads, with that family's examples."""
    if family == "usi":
        return Sentence(
            "Could not read '{text}' as a move; write it like 7g7f, 8h2b+ or P*5e.", text=shown
        )
    if family == "csa":
        return Sentence(
            "Could not read '{text}' as a move; write it like +7776FU or -0055KA.", text=shown
        )
    if family == "western":
        return Sentence(
            "Could not read '{text}' as a move; write it like P-76, P-7f, G69-58, Bx22+ or B*55.",
            text=shown,
        )
    if family == "japanese":
        return Sentence(
            "Could not read '{text}' as a move;"
            " write it like ７六歩, 同　歩, ５八金右, ２二角成 or ７六歩(77).",
            text=shown,
        )
    return Sentence(
        "Could not read '{text}' as a move; write it like 7g7f, P-76, ７六歩 or +7776FU.",
        text=shown,
    )


def normalise(text: str) -> tuple[str, Color | None]:
    """NFKC, dash look-alikes to `-`, no whitespace, and the turn mark split off.

    >>> normalise("▲７六　歩")
    ('7六歩', <Color.SENTE: 0>)
    """
    text = unicodedata.normalize("NFKC", text).translate(_TRANSLATE)
    text = "".join(text.split())
    if text and text[0] in TURN_MARKS:
        return text[1:], TURN_MARKS[text[0]]
    return text, None


def _square(text: str) -> Square:
    """A square from file + rank in any digit form, or a USI/Hodges letter rank."""
    rank_char = text[1].lower()
    rank = "abcdefghi".index(rank_char) + 1 if rank_char in "abcdefghi" else digit_value(rank_char)
    return Square.of(digit_value(text[0]), rank)


def _promotion(suffix: str | None) -> bool | None:
    return True if suffix == "+" else False if suffix == "=" else None


def _usi(text: str, strict: bool) -> Intent | None:
    match = _USI.fullmatch(text)
    if match is None:
        return None
    if match[4]:
        return Intent("usi", role=Role.from_sfen(match[4]), target=_square(match[5]), drop=True)
    return Intent(
        "usi", target=_square(match[2]), origin=_square(match[1]), promotion=bool(match[3])
    )


def _coordinates(text: str, strict: bool) -> Intent | None:
    match = _COORDINATES.fullmatch(text)
    if match is None:
        return None
    origin, target = _square(match[1]), _square(match[2])
    return Intent("usi", target=target, origin=origin, promotion=_promotion(match[3]))


def _csa(text: str, strict: bool) -> Intent | None:
    match = (_CSA_STRICT if strict else _CSA).fullmatch(text)
    if match is None or "0" in match[3] or (match[2] != "00" and "0" in match[2]):
        return None
    role = CSA_ROLES.get(match[4].upper())
    if role is None:
        return None
    mark = {"+": Color.SENTE, "-": Color.GOTE}.get(match[1])
    target = _square(match[3])
    if match[2] == "00":
        return Intent("csa", role=role, target=target, drop=True, mark=mark)
    return Intent("csa", target=target, origin=_square(match[2]), after=role, mark=mark)


def _western(text: str, strict: bool) -> Intent | None:
    match = _WESTERN.fullmatch(text)
    if match is None:
        return None
    role = WESTERN_LETTERS[match[1].upper()]
    separator = (match[3] or "").lower()
    drop: bool | None = None
    if separator in ("*", "'"):
        drop = True
    elif match[2] or (separator and strict):
        drop = False
    origin = _square(match[2]) if match[2] else None
    return Intent(
        "western", role=role, target=_square(match[4]), origin=origin, drop=drop,
        promotion=_promotion(match[5]), board_mark=separator in ("-", "x"),
    )  # fmt: skip


def _japanese(text: str, strict: bool) -> Intent | None:
    match = _JAPANESE.fullmatch(text)
    if match is None:
        return None
    dest = match["dest"] or match["dest2"]
    action = (match["action"] or "").rstrip("り")
    origin = _square(match["origin"]) if match["origin"] else None
    return Intent(
        "japanese",
        role=READ_NAMES[match["piece"]],
        target=_square(dest) if dest else None,
        same=bool(match["same1"] or match["same2"]),
        origin=origin,
        drop=True if action == "打" else False if origin is not None else None,  # 打(69): refused
        modifiers=match["mods"],
        promotion=True if action == "成" else False if action in ("不成", "生") else None,
        default_promotion=False if origin is not None else None,
    )


def _kitao(text: str, strict: bool) -> Intent | None:
    match = _KITAO.fullmatch(text)
    if match is None:
        return None
    origin, dest, separator = match["origin"], match["dest"], match["sep"]
    if dest is None and separator is None:
        origin, dest = None, origin
    if dest is None and (separator is None or separator in "*'"):
        return None
    name = match["piece"]
    role = READ_NAMES[name.lstrip("+")]
    if name.startswith("+"):
        if not role.can_promote:
            return None
        role = role.promoted
    return Intent(
        "kitao",
        role=role,
        target=_square(dest) if dest else None,
        same=dest is None,
        origin=_square(origin) if origin else None,
        drop=True if separator in ("*", "'") else False if origin else None,
        promotion=_promotion(match["promo"]),
    )


Grammar = Callable[[str, bool], "Intent | None"]
_GRAMMARS: dict[str, tuple[Grammar, ...]] = {
    "lenient": (_usi, _csa, _coordinates, _western, _japanese, _kitao),
    "usi": (_usi,),
    "csa": (_csa,),
    "western": (_western,),
    "hodges": (_western,),
    "japanese": (_japanese,),
    "kif": (_japanese,),
}


def parse_move(
    position: Position,
    text: str,
    *,
    last_move: Move | None = None,
    style: Style | str | None = None,
) -> Move:
    """Read a move written in any notation (USI, CSA, Western, Japanese, KIF, Kitao-Kawasaki).

    `last_move` (the opponent's previous move) is needed for 同. `style` restricts
    reading to one notation and its strict rules (for example USI's lower-case ranks,
    or Western `-` never meaning a drop); the default reads everything leniently.

    Raises `rules.InvalidMoveError` (nothing readable), `rules.IllegalMoveError`
    (readable but not legal here, with `.reason`) or `AmbiguousMoveError` (several
    moves fit, or the promotion was left open; see `.candidates`).

    >>> position = Position.initial()
    >>> [parse_move(position, text).usi() for text in ("P-76", "７六歩", "+7776FU", "7g7f")]
    ['7g7f', '7g7f', '7g7f', '7g7f']
    >>> parse_move(position, "５八金右").usi()
    '4i5h'
    """
    name = "lenient" if style is None else style_name(style)
    if name == "auto":
        name = "lenient"
    if name not in _GRAMMARS:
        raise ValueError(f"unknown notation style {style!r}")
    if not isinstance(text, str):
        raise InvalidMoveError(Sentence("A move must be given as text, such as 7g7f or ７六歩."))
    # The longest move is a few characters; a long text is not normalised, which takes
    # time in proportion (a pasted record in `/move` is not read as a move either).
    normal, mark = normalise(text) if len(text) <= MAX_MOVE_TEXT else ("", None)
    strict = name != "lenient"
    intent = None
    if 0 < len(normal) <= 24:
        for grammar in _GRAMMARS[name]:
            try:
                intent = grammar(normal, strict)
            except InvalidMoveError:
                raise
            except (KeyError, ValueError, IndexError):
                intent = None  # a shape that looked like this grammar but names no move
            if intent is not None:
                break
    shown = quote(text)
    if intent is None:
        family = {"kif": "japanese", "hodges": "western"}.get(name, name)
        raise InvalidMoveError(_unreadable(family, shown))
    if mark is not None:
        intent.mark = mark
    return resolve(position, intent, shown, last_move)
