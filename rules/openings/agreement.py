"""How far the classifier agrees with records that carry their opening as a label.

A KIF record may name its game's opening (`戦型：四間飛車`) and each side's openings and
castles (`先手の戦型：…`, `後手の囲い：…`, comma-separated). Every label the table has a
name for counts once: it agrees when the classifier gives that name to that side (or, for
the game's `戦型`, to either side). Labels the table has no name for are counted apart, so
the agreement is per family the table names.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..game import Game
from ..types import Color
from .classify import classify_game
from .table import Table, default_table

#: Other spellings of a name met in records.
ALIASES = {
    "向飛車": "向かい飛車",
    "相振飛車": "相振り飛車",
    "elmo囲い": "エルモ囲い",
    "横歩取": "横歩取り",
}
_SIDE_HEADERS = {
    "先手の戦型": Color.SENTE,
    "後手の戦型": Color.GOTE,
    "先手の囲い": Color.SENTE,
    "後手の囲い": Color.GOTE,
}


@dataclass(frozen=True, slots=True)
class Label:
    """A record's word for one side's (or, `color` None, the game's) opening or castle."""

    ja: str
    color: Color | None


def labels(headers: Mapping[str, str]) -> list[Label]:
    """The labels in a record's headers.

    >>> [(label.ja, label.color) for label in labels({"後手の囲い": "美濃囲い, 銀冠"})]
    [('美濃囲い', <Color.GOTE: 1>), ('銀冠', <Color.GOTE: 1>)]
    """
    found = []
    for key, value in headers.items():
        color = _SIDE_HEADERS.get(key)
        if color is None and key != "戦型":
            continue
        for word in value.replace("、", ",").split(","):
            word = word.strip()
            if word:
                found.append(Label(ALIASES.get(word, word), color))
    return found


@dataclass(slots=True)
class Agreement:
    """Labels counted per family (the Japanese name): how many, and how many agreed."""

    total: dict[str, int] = field(default_factory=dict)
    agreed: dict[str, int] = field(default_factory=dict)
    unnamed: dict[str, int] = field(default_factory=dict)
    misses: list[str] = field(default_factory=list)
    #: Records whose game's 戦型 the table names, and how many the classifier names as the
    #: game (`Openings.game_name`, not only among either side's names): the same name or
    #: one of its line (中飛車 for ゴキゲン中飛車, as records name the family or the variation).
    games: int = 0
    games_agreed: int = 0
    game_misses: list[str] = field(default_factory=list)

    def add(
        self,
        source: str,
        game: Game,
        record_labels: Iterable[Label],
        table: Table,
        known: frozenset[str] = frozenset(),
    ) -> None:
        """Count one record's labels against what the classifier names in its game; a
        miss listed in `known` (a disagreement on purpose) is listed but not counted."""
        named = {name.ja for name in table.names.values()}
        openings = classify_game(game, table)
        names = {color: {table.names[i].ja for i in openings.ids(color)} for color in Color}
        game_name = openings.game_name()
        for label in record_labels:
            if label.color is None and label.ja in named:
                self.games += 1
                if game_name is not None and _same_line(table, game_name.ja, label.ja):
                    self.games_agreed += 1
                else:
                    called = "nothing" if game_name is None else game_name.ja
                    self.game_misses.append(f"{source}: {label.ja}, named {called}")
            if label.ja not in named:
                self.unnamed[label.ja] = self.unnamed.get(label.ja, 0) + 1
                continue
            given = (
                names[label.color]
                if label.color is not None
                else names[Color.SENTE] | names[Color.GOTE]
            )
            side = {Color.SENTE: "sente", Color.GOTE: "gote", None: "game"}[label.color]
            miss = f"{source}: {side} {label.ja}"
            if label.ja not in given:
                self.misses.append(miss)
                if miss in known:
                    continue
            self.total[label.ja] = self.total.get(label.ja, 0) + 1
            if label.ja in given:
                self.agreed[label.ja] = self.agreed.get(label.ja, 0) + 1

    def rate(self, family: str) -> float:
        """The share of that family's labels the classifier agreed with."""
        return self.agreed.get(family, 0) / self.total[family]

    def rows(self) -> list[tuple[str, int, int]]:
        """(family, agreed, labels) for every family seen, most labels first."""
        return sorted(
            ((family, self.agreed.get(family, 0), total) for family, total in self.total.items()),
            key=lambda row: (-row[2], row[0]),
        )


def _line(table: Table, ja: str) -> set[str]:
    """The name and every name it refines, in Japanese."""
    by_ja = {name.ja: name for name in table.names.values()}
    line = set()
    name = by_ja.get(ja)
    while name is not None and name.ja not in line:
        line.add(name.ja)
        name = table.names.get(name.within) if name.within is not None else None
    return line


def _same_line(table: Table, one: str, other: str) -> bool:
    """Whether one name refines the other (or they are the same)."""
    return one in _line(table, other) or other in _line(table, one)


def agreement_of(
    records: Iterable[tuple[str, Game, Mapping[str, str]]], known: Iterable[str] = ()
) -> Agreement:
    """The agreement over (source, game, headers) triples with the default table; the
    misses in `known` (disagreements on purpose) are listed but not counted."""
    table = default_table()
    result = Agreement()
    for source, game, headers in records:
        result.add(source, game, labels(headers), table, frozenset(known))
    return result
