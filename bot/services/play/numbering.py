"""Move numbers as players read them, and the plies the game keeps.

A game started from a position reached after N moves (an SFEN whose move number is
N+1, e.g. a record at its ply N) goes on numbering its moves from N+1, as its KIF does:
a club playing on from move 40 of a professional game reads "41." in its thread, not
"1.". The database, the rules and every button keep counting plies from the game's own
start; only what a player reads or types is a move number. A game from the usual start
(move number 1) numbers its moves as its plies.

Shifted, as move numbers: a move's post (`31.`), every board's caption and alt text
(the start board says move 30), the ending (`after move 50`, `まで50手`, like the KIF's
last line), `/replay`'s "move 31 of 50" and its list, `/board`'s caption and diagram,
notes (`saved at move 31`), `/games` and the `game` option's suggestions (`after move 50`,
`50手で`, the last move's number), the analysis's marked moves and its chart's
axis, the animation's frames, and `/replay from_move`, which takes a number. Not
shifted, as counts or plies of this game: the analysis's "positions evaluated", a
takeback's one or two moves, forecast lines' own numbers, and the plies buttons, the
database and the logs carry.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules import Sentence

from ..errors import BadMoveNumber


@dataclass(frozen=True, slots=True)
class Numbering:
    """How one game numbers its moves: `before` moves were played before its start.

    >>> Numbering(30).number(1), Numbering(30).ply(31), Numbering().number(1)
    (31, 1, 1)
    """

    before: int = 0

    @classmethod
    def of_sfen(cls, sfen: str | None) -> Numbering:
        """The numbering of a game started at `sfen` (None: the usual start), read from
        its move number, the last of its four fields (a missing one counts as 1).

        >>> Numbering.of_sfen("lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 31")
        Numbering(before=30)
        """
        fields = (sfen or "").split()
        if len(fields) < 4 or not fields[3].isdigit():
            return cls()
        return cls.starting_at(int(fields[3]))

    @classmethod
    def starting_at(cls, move_number: int) -> Numbering:
        """The numbering of a game whose first move is numbered `move_number`: a start
        position's move number, or the one `of_sfen` reads from a stored start's text
        (a list of games numbers each without building its position).

        >>> Numbering.starting_at(31), Numbering.starting_at(1)
        (Numbering(before=30), Numbering(before=0))
        """
        return cls(max(0, move_number - 1))

    def number(self, ply: int) -> int:
        """The number players read for the move at `ply` of the game (its `ply`-th
        move); `number(0)`, the start, is the number of the last move played before it
        (0 from the usual start). A position after `ply` moves is shown as "move
        number(ply)", and an ending after the last move names that move's number, as a
        KIF's `まで…手` does."""
        return self.before + ply

    def ply(self, number: int) -> int:
        """The ply of the move players call `number`, the inverse of `number`; the start
        (`before`) is ply 0. A number before the start is refused with one sentence that
        gives the first move's number."""
        if number < self.before:
            raise BadMoveNumber(
                Sentence(
                    "This game starts after move {before}: its first move is move {first}.",
                    before=self.before,
                    first=self.before + 1,
                )
            )
        return number - self.before


#: The numbering of a game from the usual start: move numbers are plies.
FROM_MOVE_ONE = Numbering()
