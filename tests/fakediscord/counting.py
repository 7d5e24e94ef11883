"""How many REST requests the bot made, by route and by whether Discord's global limit counts
them: the figure that limits a large bot, so a test can pin the cost of each thing it does.

Why apart from the request records: :attr:`World.requests` keeps every request with its body
for failure messages; this keeps only counts, cheap enough for a benchmark of many games, and
can be reset between the steps a test measures.

Discord's global limit (50 requests a second per bot token) leaves out interaction
endpoints: the initial response (``POST /interactions/{id}/{token}/callback``) and the
interaction's webhook (follow-ups, edits and deletes under ``/webhooks/{app}/{token}``).
Everything else counts, whatever its answer.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Final

#: How an unknown route is named: its numeric ids replaced by ``{id}``.
_ID: Final = re.compile(r"/\d+(?=/|$)")


def route_name(method: str, path: str) -> str:
    """``"POST /channels/{id}/messages"`` for a path the fake has no route for."""
    return f"{method} {_ID.sub('/{id}', path)}"


def is_global_limited(route: str) -> bool:
    """Whether Discord's global per-token limit counts a request to ``route`` (a route key
    such as ``"POST /channels/{channel_id}/messages"``)."""
    method, _, template = route.partition(" ")
    callback = template.startswith("/interactions/") and template.endswith("/callback")
    if method == "POST" and callback:
        return False
    return not template.startswith("/webhooks/")


class RequestCounts:
    """REST requests served, by route key; read :attr:`by_route`, :attr:`global_limited`
    and :attr:`exempt`, and :meth:`reset` before the step to measure."""

    def __init__(self) -> None:
        self.by_route: Counter[str] = Counter()

    def add(self, route: str) -> None:
        self.by_route[route] += 1

    def reset(self) -> None:
        self.by_route.clear()

    @property
    def total(self) -> int:
        return self.by_route.total()

    @property
    def global_limited(self) -> int:
        """Requests Discord's global limit counts."""
        return sum(n for route, n in self.by_route.items() if is_global_limited(route))

    @property
    def exempt(self) -> int:
        """Interaction responses and the interaction webhook's requests."""
        return self.total - self.global_limited

    def limited_routes(self) -> Counter[str]:
        """:attr:`by_route` without the exempt routes."""
        return Counter({r: n for r, n in self.by_route.items() if is_global_limited(r)})

    def __repr__(self) -> str:
        return f"RequestCounts({dict(self.by_route)!r})"
