"""Handicaps by rating difference (段級差による手合割), from a table a club can edit.

A club's tradition gives the stronger player a handicap that grows with the gap between
the players' grades. Here the gap is the difference of their ratings, and the table maps
ranges of it to a handicap. The default, `data/tournaments/handicaps.txt` (where it is
explained line by line), counts about 100 rating points as one grade (段 or 級) and follows
the usual amateur ladder: 平手 by lot, then 平手 with the weaker player as sente (先手番),
香落ち, 角落ち, 飛車落ち, 飛香落ち, 二枚落ち, 四枚落ち, 六枚落ち and 八枚落ち.

A club writes its own table in the same form: one line per step, the least difference (0)
first, then the handicap as the rules name it (`rules.Handicap`: 香落ち, Lance, lance, ...),
with `先` (or `sente`) after 平手 for the weaker player's sente. Each line holds from its
difference up to the next line's. A handicap game is played as `rules.Handicap` says: the
giver (上手) plays gote and moves first.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rules import Handicap, Sentence

from ..errors import ServiceError

#: The most lines a table may have (the handicaps the rules know, and a few even steps).
MAX_STEPS = 24
#: The largest difference a line may name: no two ratings are further apart.
MAX_DIFFERENCE = 10_000
#: The longest table text read, in characters.
MAX_TEXT = 2_000
_SENTE_WORDS = frozenset({"先", "sente"})


class BadHandicapTable(ServiceError):
    """A handicap table that cannot be read: the sentence says which line and why."""


@dataclass(frozen=True, slots=True)
class Step:
    """From `difference` rating points up (to the next step), these terms."""

    difference: int
    handicap: Handicap
    weaker_sente: bool = False


@dataclass(frozen=True, slots=True)
class Terms:
    """The terms of one game: the handicap, who gives it (the stronger, gote) and who
    receives it; for an even game, `sente` is the weaker player when the table says so,
    else None (decided by lot, furigoma)."""

    handicap: Handicap
    giver: int
    receiver: int
    sente: int | None


@dataclass(frozen=True, slots=True)
class HandicapTable:
    """Steps of rating difference, the least (0) first.

    >>> HandicapTable.default().handicap_for(250)
    <Handicap.LANCE: ('lance', '香落ち', 'Lance', 'lnsgkgsn1/1r5b1')>
    """

    steps: tuple[Step, ...]

    @classmethod
    def parse(cls, text: str) -> HandicapTable:
        """A table from its text, one step a line (`200 香落ち`); blank lines and lines
        starting with `#` are skipped. Refused (`BadHandicapTable`) in one sentence."""
        if len(text) > MAX_TEXT:
            raise BadHandicapTable(
                Sentence("A handicap table is at most {count} characters.", count=MAX_TEXT)
            )
        steps = []
        for number, line in enumerate(text.splitlines(), start=1):
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            steps.append(_step(number, words))
            if len(steps) > MAX_STEPS:
                raise BadHandicapTable(
                    Sentence("A handicap table has at most {count} lines.", count=MAX_STEPS)
                )
        return cls.of(steps)

    @classmethod
    def of(cls, steps: list[Step]) -> HandicapTable:
        """A table from its steps, checked: the first from 0, the differences rising."""
        if not steps or steps[0].difference != 0:
            raise BadHandicapTable(Sentence("A handicap table's first line starts at 0."))
        for before, after in itertools.pairwise(steps):
            if after.difference <= before.difference:
                raise BadHandicapTable(
                    Sentence(
                        "In a handicap table each difference is larger than the one before: "
                        "{difference} is not.",
                        difference=after.difference,
                    )
                )
        return cls(tuple(steps))

    @classmethod
    def default(cls) -> HandicapTable:
        """The documented default (see the module's docstring)."""
        return _default()

    def step_for(self, difference: float) -> Step:
        """The step a rating difference falls in (its sign ignored)."""
        gap = abs(difference)
        found = self.steps[0]
        for step in self.steps:
            if gap >= step.difference:
                found = step
        return found

    def handicap_for(self, difference: float) -> Handicap:
        return self.step_for(difference).handicap

    def terms(self, first: int, first_rating: float, second: int, second_rating: float) -> Terms:
        """The terms of a game between two players by their ratings: the stronger gives
        the handicap (equal ratings: the first named counts as the stronger).

        >>> terms = HandicapTable.default().terms(1, 1500, 2, 1650)
        >>> terms.handicap.japanese, terms.giver, terms.receiver, terms.sente
        ('平手', 2, 1, 1)
        """
        if second_rating > first_rating:
            first, first_rating, second, second_rating = second, second_rating, first, first_rating
        step = self.step_for(first_rating - second_rating)
        if step.handicap is not Handicap.EVEN:
            return Terms(step.handicap, first, second, None)
        return Terms(step.handicap, first, second, second if step.weaker_sente else None)

    def text(self) -> str:
        """The table written as `parse` reads it (Japanese names)."""
        lines = []
        for step in self.steps:
            sente = " 先" if step.weaker_sente else ""
            lines.append(f"{step.difference} {step.handicap.japanese}{sente}")
        return "\n".join(lines) + "\n"


def _step(number: int, words: list[str]) -> Step:
    if len(words) not in (2, 3) or not words[0].isascii() or not words[0].isdigit():
        raise BadHandicapTable(
            Sentence(
                "Line {line} of the handicap table: write a rating difference and a handicap, "
                "like 200 香落ち.",
                line=number,
            )
        )
    difference = int(words[0])
    if difference > MAX_DIFFERENCE:
        raise BadHandicapTable(
            Sentence(
                "Line {line} of the handicap table: a difference is at most {most}.",
                line=number,
                most=MAX_DIFFERENCE,
            )
        )
    try:
        handicap = Handicap.parse(words[1])
    except ValueError:
        raise BadHandicapTable(
            Sentence(
                "Line {line} of the handicap table: {name} is not a handicap.",
                line=number,
                name=words[1][:40],
            )
        ) from None
    sente = len(words) == 3
    if sente and (words[2].lower() not in _SENTE_WORDS or handicap is not Handicap.EVEN):
        raise BadHandicapTable(
            Sentence(
                "Line {line} of the handicap table: only 平手 may be followed by 先.",
                line=number,
            )
        )
    return Step(difference, handicap, sente)


#: The default table's file (its comments say what it follows).
DEFAULT_PATH = Path(__file__).resolve().parents[3] / "data" / "tournaments" / "handicaps.txt"


@cache
def _default() -> HandicapTable:
    return HandicapTable.parse(DEFAULT_PATH.read_text(encoding="utf-8"))
