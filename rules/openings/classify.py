"""Naming each side's opening and castles from a game's positions, by the rule table.

After every ply (up to the table's last window) every rule not yet matched is tried for
each side: its pieces on their squares, the names the side and its opponent already have,
whether both bishops are off the board. The first ply where a rule holds is when its name
becomes clear; since that depends only on the moves up to it, naming a game again after
more moves never changes an earlier naming, which lets the bot announce each once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..game import Game
from ..handicaps import Handicap
from ..moves import Move
from ..position import Position
from ..types import Color, Role
from .table import Name, Rule, Table, default_table

_BISHOPS = frozenset(
    int(role) + 16 * int(color) for role in (Role.BISHOP, Role.HORSE) for color in Color
)
#: Names of the game as a whole (both sides get them): not shown as one side's opening.
GAME_FAMILIES = frozenset({"static_vs_ranging", "double_static_rook", "double_ranging_rook"})
_BROAD = frozenset({"static_rook", "ranging_rook"})


@dataclass(frozen=True, slots=True)
class Naming:
    """`name` became clear for `color` after ply `ply` (1 is the first move)."""

    name: Name
    color: Color
    ply: int


@dataclass(frozen=True, slots=True)
class Openings:
    """Every naming of a game in the order they became clear."""

    namings: tuple[Naming, ...]

    def ids(self, color: Color) -> set[str]:
        """The ids named for `color`."""
        return {naming.name.id for naming in self.namings if naming.color == color}

    def shown(self, color: Color, kind: str, *, up_to: int | None = None) -> list[Name]:
        """The most specific names of `kind` for `color` (石田流 rather than 三間飛車 and
        振り飛車), in the order they became clear; the game's families are left out, and
        居飛車 or 振り飛車 only when nothing narrower is named.

        >>> from rules.game import Game
        >>> game = Game(moves=["7g7f", "3c3d", "2h7h"])
        >>> [name.ja for name in classify_game(game).shown(Color.SENTE, "opening")]
        ['三間飛車']
        """
        found = [
            naming.name
            for naming in self.namings
            if naming.color == color
            and naming.name.kind == kind
            and (up_to is None or naming.ply <= up_to)
            and naming.name.id not in GAME_FAMILIES
        ]
        refined = {name.within for name in found}
        leaves = [name for name in found if name.id not in refined]
        narrow = [name for name in leaves if name.id not in _BROAD]
        return narrow or leaves

    def game_name(self) -> Name | None:
        """The game's 戦型 as a record's header gives it: 相振り飛車, the ranging side's
        opening against a static rook, the double-static family (矢倉, 角換わり, ...) or
        相居飛車; None before anything is clear."""
        by_id = {naming.name.id: naming.name for naming in self.namings}
        if "double_ranging_rook" in by_id:
            return by_id["double_ranging_rook"]
        for color in Color:
            ids = self.ids(color)
            if "ranging_rook" in ids and "ranging_rook" not in self.ids(color.opponent):
                shown = self.shown(color, "opening")
                return shown[0] if shown else by_id["ranging_rook"]
        for naming in self.namings:
            if naming.name.within == "double_static_rook":
                return naming.name
        return by_id.get("double_static_rook")

    def new_at(self, ply: int) -> list[Naming]:
        """The namings that became clear with the move at `ply`."""
        return [naming for naming in self.namings if naming.ply == ply]


def _holds(
    rule: Rule, board: list[int], have: set[str], other: set[str], bishops_off: bool
) -> bool:
    if rule.bishops_off and not bishops_off:
        return False
    if rule.any_of and not rule.any_of & have:
        return False
    if not rule.requires <= have or rule.lacks & have:
        return False
    if not rule.opponent_requires <= other or rule.opponent_lacks & other:
        return False
    return all(any(board[index] == code for index, code in options) for options in rule.pieces)


class Namer:
    """Names a game one ply at a time, keeping what each side has so far: `classify`
    over a whole game, or, kept between moves, one step per move.

    >>> namer = Namer()
    >>> position = Position.initial()
    >>> for text in ["7g7f", "3c3d", "2h6h"]:
    ...     position.push(Move.from_usi(text))
    ...     named = namer.step(position.board)
    >>> [naming.name.ja for naming in named]
    ['四間飛車', '振り飛車']
    """

    __slots__ = ("_found", "_table", "last", "namings", "ply")

    def __init__(self, table: Table | None = None) -> None:
        self._table = table or default_table()
        self._found: dict[Color, set[str]] = {Color.SENTE: set(), Color.GOTE: set()}
        self.namings: list[Naming] = []
        self.ply = 0
        #: The table's last ply: past it nothing more becomes clear.
        self.last = max((rule.last for rule in self._table.rules[Color.SENTE]), default=0)

    def copy(self) -> Namer:
        """An independent copy, to step on from here."""
        other = Namer.__new__(Namer)
        other._table, other.last, other.ply = self._table, self.last, self.ply
        other._found = {color: set(found) for color, found in self._found.items()}
        other.namings = self.namings[:]
        return other

    def openings(self) -> Openings:
        """Everything named so far."""
        return Openings(tuple(self.namings))

    def step(self, board: list[int]) -> list[Naming]:
        """Count one more ply, whose position has `board`; what became clear with it."""
        self.ply += 1
        ply = self.ply
        if ply > self.last:
            return []
        bishops_off = not any(code in _BISHOPS for code in board)
        fresh: list[Naming] = []
        # Again while a side's new name lets the other side's rules hold at the same ply
        # (相振り飛車 once the second side ranges); each pass names something, so it ends.
        named = True
        while named:
            named = False
            for color in Color:
                have, other = self._found[color], self._found[color.opponent]
                for rule in self._table.rules[color]:
                    if rule.name.id in have or not rule.first <= ply <= rule.last:
                        continue
                    if _holds(rule, board, have, other, bishops_off):
                        have.add(rule.name.id)
                        fresh.append(Naming(rule.name, color, ply))
                        named = True
        self.namings += fresh
        return fresh


def is_named(start: Position) -> bool:
    """Whether games from `start` are named: the even start only (a handicap's camps, or
    a composed position, differ from the table's shapes)."""
    return Handicap.from_sfen(start.sfen()) is Handicap.EVEN


def namer_of(start: Position, moves: Sequence[Move], table: Table | None = None) -> Namer:
    """A `Namer` that has counted `moves` from `start` (which `is_named`)."""
    namer = Namer(table)
    position = start.copy()
    for move in moves[: namer.last]:
        position.push_unchecked(move)
        namer.step(position.board)
    namer.ply = len(moves)
    return namer


def classify(start: Position, moves: Sequence[Move], table: Table | None = None) -> Openings:
    """Name both sides' openings and castles over `moves` played from `start`; a start
    other than the even one (a handicap, a composed position) gets no names.

    >>> moves = [Move.from_usi(text) for text in ["7g7f", "3c3d", "2h5h"]]
    >>> [naming.name.en for naming in classify(Position.initial(), moves).namings]
    ['Central Rook', 'Ranging Rook']
    """
    if not is_named(start):
        return Openings(())
    return namer_of(start, moves, table).openings()


def classify_game(game: Game, table: Table | None = None) -> Openings:
    """`classify` over a game's start and moves."""
    return classify(game.start, game.moves, table)
