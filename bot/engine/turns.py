"""Whose search runs next: the pool's few engine jobs handed out by urgency, then in turn.

A computer's move is waited for by a member in a game; an analysis is read at leisure, one
search per position. So every free job goes first to a waiting move, and only then to an
analysis search, except that after `MOVES_IN_A_ROW` moves one waiting analysis search
goes first (a server busy with computer games still analyses). Within each kind the
askers (members) take turns, one search each, so a member who queued many searches
(several analyses at once) cannot keep another waiting for more than one of them. A
queue per search, not per analysis: a computer's move slips in between two positions of a
long analysis.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Hashable
from contextlib import asynccontextmanager
from enum import Enum

#: Jobs given to computer moves in a row while an analysis search waits, before it gets one.
MOVES_IN_A_ROW = 4


class SearchKind(Enum):
    """What a search is for, most urgent first."""

    MOVE = "move"  # the computer's move in a game: a member waits for it
    ANALYSIS = "analysis"  # one position of an analysis


class Turns:
    """At most `jobs` holders at once; the others wait, served by kind, then in turn.

    Example::

        turns = Turns(1)
        async with turns.turn(SearchKind.MOVE, asker=member_id):
            ...  # this search's job
    """

    def __init__(self, jobs: int) -> None:
        self._free = jobs
        self._moves_in_a_row = 0
        # Per kind, the askers in the order of their next turn, each with their waiters in
        # the order they came (a dict keeps the order its keys were put in).
        self._waiting: dict[SearchKind, dict[Hashable, deque[asyncio.Future[None]]]] = {
            kind: {} for kind in SearchKind
        }

    @property
    def waiting(self) -> int:
        """How many searches wait for a job."""
        return sum(len(q) for askers in self._waiting.values() for q in askers.values())

    @asynccontextmanager
    async def turn(self, kind: SearchKind, asker: Hashable = None) -> AsyncIterator[None]:
        """Hold one job for the block, after waiting for it as `kind` asked by `asker`."""
        await self._take(kind, asker)
        try:
            yield
        finally:
            self._give_back()

    async def _take(self, kind: SearchKind, asker: Hashable) -> None:
        if self._free > 0 and not any(self._waiting.values()):
            self._free -= 1
            return
        granted = asyncio.get_running_loop().create_future()
        self._waiting[kind].setdefault(asker, deque()).append(granted)
        try:
            await granted
        except BaseException:
            if granted.done() and not granted.cancelled():
                self._give_back()  # handed the job just as it was cancelled: pass it on
            else:
                self._forget(kind, asker, granted)
            raise

    def _forget(self, kind: SearchKind, asker: Hashable, granted: asyncio.Future[None]) -> None:
        queue = self._waiting[kind].get(asker)
        if queue is None:
            return
        with_it = [waiter for waiter in queue if waiter is not granted]
        if with_it:
            queue.clear()
            queue.extend(with_it)
        else:
            del self._waiting[kind][asker]

    def _give_back(self) -> None:
        order = list(SearchKind)
        if self._moves_in_a_row >= MOVES_IN_A_ROW:
            order.reverse()
        for kind in order:
            if self._hand_over(kind):
                if kind is SearchKind.MOVE and self._waiting[SearchKind.ANALYSIS]:
                    self._moves_in_a_row += 1
                else:
                    self._moves_in_a_row = 0
                return
        self._free += 1

    def _hand_over(self, kind: SearchKind) -> bool:
        """Give the job to the next waiter of `kind`, if one still waits."""
        askers = self._waiting[kind]
        while askers:
            asker = next(iter(askers))
            queue = askers.pop(asker)
            waiter = queue.popleft()
            if queue:
                askers[asker] = queue  # the back of the line, behind every other asker
            if not waiter.done():
                waiter.set_result(None)
                return True
        return False
