"""A move or an accepted takeback racing a vacation that begins or ends.

Both do their checks and clock arithmetic outside the transaction that stores them; a
vacation's start or end meanwhile moves the turn's start or the next deadline. The write
then finds the clock changed (`require_same_clock`) and the whole is checked and counted
again from a fresh moment (`with_clock_retries`), so the time charged is exactly the
time off vacation and the deadline written is the one the deadline task would compute.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.db import GameRow, Session

from ..errors import PositionChanged
from .snapshots import clock_state
from .store import MOVED_ON, GameStore

#: How many times an action is checked and counted again when a vacation began or ended
#: between its checks and its write; more than once in a row would take vacations
#: toggled faster than a move is stored.
CLOCK_RETRIES = 3

T = TypeVar("T")


class ClockMoved(Exception):
    """The game's clock state changed (not its ply) between an action's checks and its
    write."""


async def require_same_clock(tx: Session, row: GameRow) -> None:
    """In the writing transaction `tx`: `ClockMoved` if the game's clock is no longer the
    one `row` (read for the checks) shows at the same ply. A changed ply is left to the
    write's own conditional update, which refuses it.

    Example: `await require_same_clock(tx, loaded.row)` before `tx.games.advance(...)`.
    """
    fresh = await tx.games.get(row.id)
    if fresh is not None and fresh.ply == row.ply and clock_state(fresh) != clock_state(row):
        raise ClockMoved


async def with_clock_retries(
    store: GameStore, game_id: int, attempt: Callable[[], Awaitable[T]]
) -> T:
    """`attempt()` (checks, arithmetic and write, from a fresh moment each time), again
    after each `ClockMoved` with the game read afresh; `PositionChanged` after
    `CLOCK_RETRIES` tries.

    Example: `return await with_clock_retries(store, game.id, lambda: write(game.id))`.
    """
    for _ in range(CLOCK_RETRIES):
        try:
            return await attempt()
        except ClockMoved:
            store.forget(game_id)
    raise PositionChanged(MOVED_ON)
