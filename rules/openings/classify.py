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


def classify(start: Position, moves: Sequence[Move], table: Table | None = None) -> Openings:
    """Name both sides' openings and castles over `moves` played from `start`; a start
    other than the even one (a handicap, a composed position) gets no names.

    >>> from rules.moves import Move
    >>> moves = [Move.from_usi(text) for text in ["7g7f", "3c3d", "2h5h"]]
    >>> [naming.name.en for naming in classify(Position.initial(), moves).namings]
    ['Central Rook', 'Ranging Rook']
    """
    table = table or default_table()
    if Handicap.from_sfen(start.sfen()) is not Handicap.EVEN:
        return Openings(())
    last = max((rule.last for rule in table.rules[Color.SENTE]), default=0)
    position = start.copy()
    found: dict[Color, set[str]] = {Color.SENTE: set(), Color.GOTE: set()}
    namings: list[Naming] = []
    for ply, move in enumerate(moves[:last], start=1):
        position.push_unchecked(move)
        board = position.board
        bishops_off = not any(code in _BISHOPS for code in board)
        # Again while a side's new name lets the other side's rules hold at the same ply
        # (相振り飛車 once the second side ranges); each pass names something, so it ends.
        named = True
        while named:
            named = False
            for color in Color:
                have, other = found[color], found[color.opponent]
                for rule in table.rules[color]:
                    if rule.name.id in have or not rule.first <= ply <= rule.last:
                        continue
                    if _holds(rule, board, have, other, bishops_off):
                        have.add(rule.name.id)
                        namings.append(Naming(rule.name, color, ply))
                        named = True
    return Openings(tuple(namings))


def classify_game(game: Game, table: Table | None = None) -> Openings:
    """`classify` over a game's start and moves."""
    return classify(game.start, game.moves, table)
