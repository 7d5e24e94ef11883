"""The rule table of openings and castles (`data/openings.toml`), read and checked.

The table is data a person extends: each entry names what one side builds, by the pieces
that stand on given squares (written from that side's own seat), the names the side or its
opponent already has, and the plies when it may become clear. Reading it checks every key,
so a typo in the table is one clear error naming the entry, not a rule that never matches.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from ..types import Color, Role

TABLE_PATH = Path(__file__).resolve().parents[2] / "data" / "openings.toml"

_ROLES = {
    "K": Role.KING,
    "R": Role.ROOK,
    "B": Role.BISHOP,
    "G": Role.GOLD,
    "S": Role.SILVER,
    "N": Role.KNIGHT,
    "L": Role.LANCE,
    "P": Role.PAWN,
    "+R": Role.DRAGON,
    "+B": Role.HORSE,
}
_KEYS = {
    "id",
    "ja",
    "en",
    "kind",
    "within",
    "pieces",
    "opponent_pieces",
    "any_of",
    "requires",
    "lacks",
    "opponent_requires",
    "opponent_lacks",
    "bishops_off",
    "plies",
}
KINDS = ("opening", "castle")


class TableError(ValueError):
    """The opening table has an entry the classifier cannot read."""


@dataclass(frozen=True, slots=True)
class Name:
    """An opening or castle as players name it: `Name("ishida", "石田流", "Ishida", ...)`."""

    id: str
    ja: str
    en: str
    kind: str
    within: str | None = None

    def text(self, japanese: bool) -> str:
        """The name in Japanese or English."""
        return self.ja if japanese else self.en


#: One requirement on the board: any of these (board index, piece code) pairs holds.
Alternatives = tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Rule:
    """One entry of the table made ready to test for one side (`color`): its squares are
    already turned for gote and its pieces coded as `Position.board` holds them."""

    name: Name
    color: Color
    pieces: tuple[Alternatives, ...]
    any_of: frozenset[str]
    requires: frozenset[str]
    lacks: frozenset[str]
    opponent_requires: frozenset[str]
    opponent_lacks: frozenset[str]
    bishops_off: bool
    first: int
    last: int


@dataclass(frozen=True, slots=True)
class Table:
    """The names by id and the rules in table order, per side."""

    names: dict[str, Name]
    rules: dict[Color, tuple[Rule, ...]]


def _square_index(text: str, color: Color, where: str) -> int:
    if len(text) != 2 or not text.isdigit() or "0" in text:
        raise TableError(f"{where}: {text!r} is not a square such as 28")
    file, rank = int(text[0]), int(text[1])
    index = (rank - 1) * 9 + (9 - file)
    return index if color == Color.SENTE else 80 - index


def _alternatives(text: str, color: Color, own: bool, where: str) -> Alternatives:
    owner = color if own else color.opponent
    found = []
    for option in text.split("|"):
        role = _ROLES.get(option[:-2])
        if role is None:
            raise TableError(f"{where}: {option!r} does not start with a piece letter")
        found.append((_square_index(option[-2:], color, where), int(role) + 16 * int(owner)))
    return tuple(found)


def _ids(entry: dict[str, Any], key: str, where: str) -> frozenset[str]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TableError(f"{where}: {key} must be a list of ids")
    return frozenset(value)


def _name(entry: dict[str, Any], names: dict[str, Name], where: str) -> Name:
    entry_id = entry.get("id")
    if not isinstance(entry_id, str) or not entry_id:
        raise TableError(f"{where}: every entry needs an id")
    if entry_id in names and not {"ja", "en", "kind"} & entry.keys():
        return names[entry_id]
    if entry_id in names:
        raise TableError(f"{where}: {entry_id} is named twice; a second rule leaves its names out")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise TableError(f"{where}: kind must be one of {', '.join(KINDS)}")
    ja, en, within = entry.get("ja"), entry.get("en"), entry.get("within")
    if not isinstance(ja, str) or not isinstance(en, str) or not ja or not en:
        raise TableError(f"{where}: ja and en must be names")
    if within is not None and not isinstance(within, str):
        raise TableError(f"{where}: within must be an id")
    return Name(entry_id, ja, en, kind, within)


def _rule(entry: dict[str, Any], name: Name, color: Color, where: str) -> Rule:
    plies = entry.get("plies", [1, 200])
    if not (isinstance(plies, list) and len(plies) == 2 and all(isinstance(p, int) for p in plies)):
        raise TableError(f"{where}: plies must be [first, last]")
    pieces = entry.get("pieces", [])
    opponent = entry.get("opponent_pieces", [])
    if not all(isinstance(item, str) for item in [*pieces, *opponent]):
        raise TableError(f'{where}: pieces are written like "K28" or "R58|R56"')
    return Rule(
        name=name,
        color=color,
        pieces=tuple(
            [_alternatives(item, color, True, where) for item in pieces]
            + [_alternatives(item, color, False, where) for item in opponent]
        ),
        any_of=_ids(entry, "any_of", where),
        requires=_ids(entry, "requires", where),
        lacks=_ids(entry, "lacks", where),
        opponent_requires=_ids(entry, "opponent_requires", where),
        opponent_lacks=_ids(entry, "opponent_lacks", where),
        bishops_off=entry.get("bishops_off", False) is True,
        first=plies[0],
        last=plies[1],
    )


def parse_table(text: str) -> Table:
    """Read a table written as `data/openings.toml` is; raises `TableError` naming the entry.

    >>> table = parse_table('[[entry]]\\nid = "x"\\nja = "中飛車"\\nen = "Central Rook"\\n'
    ...                     'kind = "opening"\\npieces = ["R58"]')
    >>> table.names["x"].ja
    '中飛車'
    """
    try:
        entries = tomllib.loads(text).get("entry", [])
    except tomllib.TOMLDecodeError as error:
        raise TableError(f"the table is not TOML: {error}") from error
    names: dict[str, Name] = {}
    rules: dict[Color, list[Rule]] = {Color.SENTE: [], Color.GOTE: []}
    for number, entry in enumerate(entries, start=1):
        where = f"entry {number} ({entry.get('id', '?')})"
        unknown = set(entry) - _KEYS
        if unknown:
            raise TableError(f"{where}: unknown key {', '.join(sorted(unknown))}")
        name = _name(entry, names, where)
        names[name.id] = name
        for color in Color:
            rules[color].append(_rule(entry, name, color, where))
    for name in names.values():
        if name.within is not None and name.within not in names:
            raise TableError(f"{name.id}: within names no entry ({name.within})")
    for rule in rules[Color.SENTE]:
        mentioned = rule.any_of | rule.requires | rule.lacks
        mentioned |= rule.opponent_requires | rule.opponent_lacks
        missing = mentioned - names.keys()
        if missing:
            raise TableError(f"{rule.name.id}: names no entry {', '.join(sorted(missing))}")
    return Table(names, {color: tuple(found) for color, found in rules.items()})


@cache
def default_table() -> Table:
    """The table in `data/openings.toml`, read once."""
    return parse_table(TABLE_PATH.read_text(encoding="utf-8"))
