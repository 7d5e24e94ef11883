"""What the service counts and times for an operator: moves, transaction and render times,
how late deadlines are settled.

Plain numbers, no monitoring library: the service must run without one. The optional
`/metrics` endpoint (`bot.monitoring`) reads them when it is scraped; nothing here
does any work beyond adding to a counter.
"""

from __future__ import annotations

from bisect import bisect_left
from dataclasses import dataclass, field

#: Upper bounds (seconds) of the buckets of every timing: from a cached move's
#: transaction (a millisecond) to a deadline settled after a restart (an hour).
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
           30.0, 60.0, 300.0, 3600.0)  # fmt: skip


@dataclass
class Timing:
    """A histogram of durations: how many, their sum, and how many fell in each bucket
    (each bucket counts the durations up to its bound, not those of the buckets below)."""

    count: int = 0
    total: float = 0.0
    buckets: list[int] = field(default_factory=lambda: [0] * len(BUCKETS))

    def observe(self, seconds: float) -> None:
        seconds = max(seconds, 0.0)
        self.count += 1
        self.total += seconds
        index = bisect_left(BUCKETS, seconds)
        if index < len(BUCKETS):
            self.buckets[index] += 1

    def cumulative(self) -> list[tuple[float, int]]:
        """(bound, durations up to it) for every bucket, as Prometheus counts them."""
        out, running = [], 0
        for bound, n in zip(BUCKETS, self.buckets, strict=True):
            running += n
            out.append((bound, running))
        return out


@dataclass
class ServiceStats:
    """The service's counters since this process started."""

    moves: int = 0
    #: The transaction that stores a move (with its forecast reply and its ending).
    move_transactions: Timing = field(default_factory=Timing)
    #: How long after its moment a time-out, a reminder or a daily digest was claimed.
    lateness: dict[str, Timing] = field(
        default_factory=lambda: {"timeout": Timing(), "reminder": Timing(), "digest": Timing()}
    )
