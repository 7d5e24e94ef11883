"""A mate solver: does the side to move mate within N plies, and how?

`solve(position, max_plies, nodes=..., seconds=...)` answers for the side to move (the
attacker) with a `MateResult`: `PROVEN`, `DISPROVEN` or `UNKNOWN` (the budget ran out).

What "mate in at most N plies" means here, exactly:

* The attacker plays only moves that give check; the defender plays every legal reply.
  The attacker's own king (if it has one) must be safe after each of its moves, as in play.
* Mate is the defender having no legal reply while in check. Every legal reply counts:
  king moves, captures of the checking piece, and interpositions by moving a piece or by
  dropping one from the defender's hand (a drop that is legal where it is dropped). The
  attacker's hand matters too: its drops are checks like any other.
* A pawn dropped to give mate (uchifuzume) is illegal, so it is no mating move: the core's
  move generator never offers it. A pawn drop that checks without mating is allowed.
* The mate must come at or before ply N against every defence: the attacker's k-th move
  (k odd, k <= N) leaves the defender without a legal reply. N counts plies of both sides,
  so a "mate in 3" (tsume's 3手詰め) is N = 3.
* The position alone is searched, not the game that led to it: repetition (sennichite)
  cannot shorten or lengthen a forced mate of a few plies, because a shortest mate never
  passes a position twice.

The search is df-pn (depth-first proof-number search) over positions keyed by board, hands,
side to move and the plies left, so a proof or disproof under one limit is never reused
under another and the graph has no cycles. A proof under N is followed by the same search
under 1, 3, 5... plies to find the shortest mate's length, then the principal line is read
off by the same bounded searches: the attacker takes a shortest mate, the defender the reply
that delays it longest. Every call runs under a node budget and optionally a time budget:
the work a caller can cause is bounded.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import Enum

from .moves import MOVES, Move
from .position import Position
from .tables import KNIGHT_SOURCES, RAYS8, SLIDE_ATTACKS_FROM, STEP_ATTACKS_FROM

INFINITE = 1 << 40
"""A proof or disproof number that means "impossible" (larger than any sum of real ones)."""

DEFAULT_NODES = 100_000
"""The node budget (positions entered) when the caller gives none: seconds of pure Python
at most, and the table it fills stays far below the memory a bot process can spare."""

MAX_PLIES = 255
"""The longest limit a caller may ask for: the search recurses once per ply, and no mate a
node budget allows is longer."""

_MOVE_LISTS = 20_000
"""Move lists kept for positions the search may come back to; past that many they are
dropped and made again when needed (each list holds a key per move: the bulk of memory)."""

_CHECK_EVERY = 256
"""Nodes between two looks at the clock (reading it costs as much as a few nodes)."""


class Verdict(Enum):
    PROVEN = "proven"
    """The attacker mates within the limit against every defence."""
    DISPROVEN = "disproven"
    """Some defence survives past the limit (or the attacker has no check at all)."""
    UNKNOWN = "unknown"
    """The budget ran out before an answer."""


@dataclass(frozen=True)
class MateResult:
    """The answer of `solve`.

    `plies` is the length of the shortest forced mate (odd, at most the limit) and `line` a
    principal line of that length, when proven; `unique` whether no other first move also
    mates within `plies` (None when the budget ran out before that was known). `nodes` is
    the number of times the search entered a position, the unit of its budget.
    """

    verdict: Verdict
    plies: int | None = None
    line: tuple[Move, ...] = ()
    unique: bool | None = None
    nodes: int = 0


class _OutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""


def _key(position: Position) -> bytes:
    """Board, hands and side to move, as bytes (hashed by the dictionary in C)."""
    hands = position.hands
    return bytes(position.board) + bytes(hands[0]) + bytes(hands[1]) + bytes((position.turn_index,))


# _LINES[king]: for every square on one of the eight lines from `king`, which line (an index
# into RAYS8[king]) and how far along it (0 = next to the king).
_LINES: list[dict[int, tuple[int, int]]] = [
    {
        square: (line, distance)
        for line, ray in enumerate(RAYS8[king])
        for distance, square in enumerate(ray)
    }
    for king in range(81)
]
_KNIGHT_SQUARES = [
    [frozenset(KNIGHT_SOURCES[color][king]) for king in range(81)] for color in range(2)
]
_KNIGHT = 3


def _checks(position: Position, codes: list[int]) -> list[int]:
    """The legal moves among `codes` that give check, read off the board without playing
    them: the moved or dropped piece attacks the king from where it lands (along a clear
    line), or it leaves a line between the king and one of the mover's sliders."""
    board = position.board
    us = position.turn_index
    king = position.kings[1 - us]
    if king < 0:
        return []
    lines = _LINES[king]
    rays = RAYS8[king]
    steps = STEP_ATTACKS_FROM[us]
    slides = SLIDE_ATTACKS_FROM[us]
    knight = _KNIGHT + 16 * us
    knight_squares = _KNIGHT_SQUARES[us][king]
    checks = []
    for code in codes:
        source, target = divmod(code >> 1, 81)
        if source > 80:
            piece = source - 80 + 16 * us
            source = -1
        else:
            piece = board[source] + 8 if code & 1 else board[source]
        line = lines.get(target)
        if line is not None:
            direction, distance = line
            if distance == 0:
                if steps[direction][piece]:
                    checks.append(code)
                    continue
            elif slides[direction][piece] and all(
                not board[square] or square == source for square in rays[direction][:distance]
            ):
                checks.append(code)
                continue
        elif piece == knight and target in knight_squares:
            checks.append(code)
            continue
        if source < 0:
            continue
        opened = lines.get(source)
        if opened is None or (line is not None and line[0] == opened[0]):
            continue  # not on a line, or still on the same one
        direction, distance = opened
        ray = rays[direction]
        if any(board[square] for square in ray[:distance]):
            continue
        for square in ray[distance + 1 :]:
            behind = board[square]
            if behind:
                if slides[direction][behind]:
                    checks.append(code)
                break
    return checks


class _Search:
    """One solver run: the table of proof and disproof numbers, and the budget."""

    def __init__(self, position: Position, nodes: int, seconds: float | None) -> None:
        self.position = position
        self.attacker = position.turn_index
        self.table: dict[tuple[bytes, int], tuple[int, int]] = {}
        self.moves: dict[tuple[bytes, int], list[tuple[int, bytes]]] = {}
        self.nodes = 0
        self.node_budget = nodes
        self.deadline = None if seconds is None else time.perf_counter() + seconds

    # ------------------------------------------------------------------ moves

    def _spend(self) -> None:
        self.nodes += 1
        if self.nodes > self.node_budget:
            raise _OutOfBudget
        if (
            self.deadline is not None
            and self.nodes % _CHECK_EVERY == 0
            and time.perf_counter() > self.deadline
        ):
            raise _OutOfBudget

    def _children(self, key: bytes, attacking: bool) -> list[tuple[int, bytes]]:
        """The attacker's checks or the defender's replies, each with the key it leads to."""
        cached = self.moves.get((key, attacking))
        if cached is not None:
            return cached
        position = self.position
        codes = position._legal_codes()
        children: list[tuple[int, bytes]] = []
        for code in _checks(position, codes) if attacking else codes:
            position._make(code)
            children.append((code, _key(position)))
            position._unmake()
        if len(self.moves) >= _MOVE_LISTS:
            self.moves.clear()
        self.moves[(key, attacking)] = children
        return children

    # ------------------------------------------------------------------ df-pn

    def mid(
        self, key: bytes, left: int, attacking: bool, proof_limit: int, disproof_limit: int
    ) -> None:
        """Expand the node until its proof or disproof number reaches its threshold.

        `left` is the number of plies the attacker still has; an attacking node with none
        left is disproven, a defending node without a reply is proven (mate)."""
        self._spend()
        entry = (key, left)
        if attacking and left < 1:
            self.table[entry] = (INFINITE, 0)
            return
        children = self._children(key, attacking)
        if not children:
            self.table[entry] = (INFINITE, 0) if attacking else (0, INFINITE)
            return
        if not attacking and left < 2:
            # A reply exists and the attacker has no ply left to mate after it.
            self.table[entry] = (INFINITE, 0)
            return
        position = self.position
        table = self.table
        child_left = left - 1
        while True:
            # Proof (pn) and disproof (dn) numbers of the node, best and second best child.
            best = -1
            best_pn = best_dn = second = INFINITE
            total = 0
            for index, (_code, child) in enumerate(children):
                pn, dn = table.get((child, child_left), (1, 1))
                if attacking:
                    total += dn
                    if pn < best_pn:
                        second, best_pn, best_dn, best = best_pn, pn, dn, index
                    elif pn < second:
                        second = pn
                else:
                    total += pn
                    if dn < best_dn:
                        second, best_pn, best_dn, best = best_dn, pn, dn, index
                    elif dn < second:
                        second = dn
            total = min(total, INFINITE)
            if attacking:
                node_pn, node_dn = best_pn, total
            else:
                node_pn, node_dn = total, best_dn
            table[entry] = (node_pn, node_dn)
            if node_pn >= proof_limit or node_dn >= disproof_limit or node_pn == 0 or node_dn == 0:
                return
            if attacking:
                child_pn_limit = min(proof_limit, second + 1)
                child_dn_limit = disproof_limit - node_dn + best_dn
            else:
                child_pn_limit = proof_limit - node_pn + best_pn
                child_dn_limit = min(disproof_limit, second + 1)
            code, child = children[best]
            position._make(code)
            try:
                self.mid(child, child_left, not attacking, child_pn_limit, child_dn_limit)
            finally:
                position._unmake()

    def prove(self, left: int, attacking: bool = True) -> bool | None:
        """Whether the current position is won for the attacker within `left` plies (True),
        not (False); the budget error propagates."""
        key = _key(self.position)
        self.mid(key, left, attacking, INFINITE, INFINITE)
        pn, dn = self.table[(key, left)]
        if pn == 0:
            return True
        if dn == 0:
            return False
        return None  # pragma: no cover - the thresholds are infinite

    def shortest(self, limit: int, attacking: bool = True) -> int | None:
        """The length of the shortest forced mate from here within `limit` plies (None: none).

        Tried under 1, 3, 5... plies for the attacker to move (0, 2, 4... for the defender),
        so the first proof gives the exact length."""
        for left in range(1 if attacking else 0, limit + 1, 2):
            if self.prove(left, attacking):
                return left
        return None

    def line(self, plies: int) -> list[int]:
        """A principal line of a mate proven in exactly `plies`: a shortest mate for the
        attacker, the reply that delays it longest for the defender."""
        position = self.position
        codes: list[int] = []
        left = plies
        try:
            while left > 0:
                key = _key(position)
                if position.turn_index == self.attacker:
                    chosen = None
                    for code, _child in self._children(key, True):
                        position._make(code)
                        try:
                            proven = self.prove(left - 1, attacking=False)
                        finally:
                            position._unmake()
                        if proven:
                            chosen = code
                            break
                    if chosen is None:  # pragma: no cover - proven above
                        break
                else:
                    chosen = None
                    longest = -1
                    for code, _child in self._children(key, False):
                        position._make(code)
                        try:
                            length = self.shortest(left - 1, attacking=True)
                        finally:
                            position._unmake()
                        if length is not None and length > longest:
                            chosen, longest = code, length
                    if chosen is None:  # mate: no reply
                        break
                position._make(chosen)
                codes.append(chosen)
                left -= 1
        finally:
            for _ in codes:
                position._unmake()
        return codes


def solve(
    position: Position,
    max_plies: int,
    *,
    nodes: int = DEFAULT_NODES,
    seconds: float | None = None,
) -> MateResult:
    """Whether the side to move mates within `max_plies` plies (see the module docstring).

    The search enters positions at most `nodes` times and, if `seconds` is given, stops
    after about that long; either way an unfinished search answers `UNKNOWN` (or a proven
    mate without its line or uniqueness, if only those were left). The position is left
    as it was.
    """
    if not 0 <= max_plies <= MAX_PLIES:
        raise ValueError(f"max_plies must be between 0 and {MAX_PLIES}")
    if nodes < 1:
        raise ValueError("nodes must be at least 1")
    work = position.copy()
    search = _Search(work, nodes, seconds)
    try:
        proven = search.prove(max_plies)
    except _OutOfBudget:
        return MateResult(Verdict.UNKNOWN, nodes=search.nodes)
    if not proven:
        return MateResult(Verdict.DISPROVEN, nodes=search.nodes)
    try:
        plies = search.shortest(max_plies)
    except _OutOfBudget:
        return MateResult(Verdict.PROVEN, nodes=search.nodes)
    assert plies is not None
    try:
        codes = search.line(plies)
    except _OutOfBudget:
        return MateResult(Verdict.PROVEN, plies=plies, nodes=search.nodes)
    line = tuple(MOVES[code] for code in codes)
    try:
        others = 0
        for code, _child in search._children(_key(work), True):
            if code == codes[0]:
                continue
            work._make(code)
            try:
                if search.prove(plies - 1, attacking=False):
                    others += 1
            finally:
                work._unmake()
            if others:
                break
    except _OutOfBudget:
        return MateResult(Verdict.PROVEN, plies=plies, line=line, nodes=search.nodes)
    return MateResult(Verdict.PROVEN, plies, line, unique=not others, nodes=search.nodes)


def mated_within(
    position: Position,
    max_plies: int,
    *,
    nodes: int = DEFAULT_NODES,
    seconds: float | None = None,
) -> Verdict:
    """Whether the side to move (the defender, after an attacker's move) is mated within
    `max_plies` more plies against its every defence: the attacker's moves are again
    checks only, and a defender already without a legal reply in check is mated at once.
    This is how a solver's answer to a problem is judged: after its first move, the
    defender must still be mated within the problem's remaining length.

    >>> mated = Position.from_sfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1")
    >>> mated_within(mated, 0)
    <Verdict.PROVEN: 'proven'>
    """
    if not 0 <= max_plies <= MAX_PLIES:
        raise ValueError(f"max_plies must be between 0 and {MAX_PLIES}")
    if nodes < 1:
        raise ValueError("nodes must be at least 1")
    search = _Search(position.copy(), nodes, seconds)
    try:
        proven = search.prove(max_plies - max_plies % 2, attacking=False)
    except _OutOfBudget:
        return Verdict.UNKNOWN
    return Verdict.PROVEN if proven else Verdict.DISPROVEN
