"""Requests a second as the fake Discord saw them: the busiest span of each limit's
window, globally and per route bucket, to compare with Discord's limits (a test or a
benchmark of a burst reads these instead of trusting the client's pacing)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass
from typing import Final

from tests.fakediscord.counting import is_global_limited
from tests.fakediscord.limits import RouteLimit
from tests.fakediscord.models import RequestRecord
from tests.support.windows import most_in_window

#: A route's major parameter in its path: the channel or guild it acts on.
_MAJOR: Final = re.compile(r"^/(?:api/v\d+/)?(channels|guilds)/(\d+)")


def fixed_windows(times: Iterable[float], per: float) -> int:
    """The most of `times` in one window of a bucket as Discord keeps it: the first time
    after a reset opens a window of `per` seconds."""
    most = count = 0
    opened: float | None = None
    for at in sorted(times):
        if opened is None or at >= opened + per:
            opened, count = at, 0
        count += 1
        most = max(most, count)
    return most


def _grouped(pairs: Iterable[tuple[Hashable, float]]) -> dict[Hashable, list[float]]:
    grouped: dict[Hashable, list[float]] = defaultdict(list)
    for key, at in pairs:
        grouped[key].append(at)
    return grouped


@dataclass(frozen=True)
class Bursts:
    """The busiest second of the requests the global limit counts, the busiest second of
    each route (every channel together), each route bucket (one channel or guild) whose
    window took more than its limit, and the 429s."""

    global_max: int
    per_route: dict[str, int]
    bucket_over: dict[str, tuple[int, int]]
    refused: int

    @classmethod
    def of(cls, records: Iterable[RequestRecord], routes: Mapping[str, RouteLimit]) -> Bursts:
        served = [r for r in records if r.route is not None]
        global_max = most_in_window(r.started for r in served if is_global_limited(r.route or ""))
        by_route = _grouped((r.route, r.started) for r in served)
        per_route = {str(k): most_in_window(v) for k, v in by_route.items()}
        over: dict[str, tuple[int, int]] = {}
        for route, limit in routes.items():
            buckets = _grouped(
                ((m.group(2) if (m := _MAJOR.match(r.path)) else ""), r.started)
                for r in served
                if r.route == route and r.status != 429
            )
            for major, times in buckets.items():
                most = fixed_windows(times, limit.per)
                if most > limit.limit:
                    over[f"{route} {major}"] = (most, limit.limit)
        refused = sum(1 for r in records if r.status == 429)
        return cls(global_max, per_route, over, refused)
