"""Discord's limits, enforced by the fake: the global limit per bot token, per-route buckets
announced in ``X-RateLimit-*`` headers, the ban after too many invalid requests, the cap on
active threads and the upload size.

Why the fake enforces them: what limits a large bot is Discord, not its CPU.  A bot tested
against a Discord without limits can send 200 requests a second from two processes and pass
every test; against this one it gets the 429s (or the ban) it would get in production.

The knobs are one :class:`Limits` value, ``fake.limits``, with Discord's figures by default
(per-route buckets opt-in: ``FakeDiscord(limits=Limits.discord())``);
a test changes a field (``fake.limits.invalid_threshold = 50``) or replaces the whole value
(``fake.limits = Limits.off()``) at any moment, and the next request sees it.  What the fake
refused is counted in ``fake.rate_limited`` (:class:`RateLimitCounts`) and recorded, with
status 429, in ``fake.requests`` like any other request.

How each limit is kept (so that a client built against the fake knows what passes):

* **Global**: at most :attr:`Limits.global_per_second` requests by one token (its
  ``Authorization`` header, or the address for requests without one) in *any* span of
  :attr:`Limits.global_window` seconds, by arrival time: a *sliding window log*, the
  strictest reading of "50 a second".  A client spacing its requests at least 1/50 s apart
  (less :data:`GLOBAL_SLACK`, a millisecond) never trips it; 51 within 0.999 s always do.
  A token bucket in the client passes when its capacity plus what it refills in one
  window is at most the limit (capacity 1 at 50/s, or capacity 25 at 25/s), not with
  capacity 50 at 50/s (100 in the first second).
  Only routes :func:`~.counting.is_global_limited` counts are limited (interaction
  callbacks and the interaction webhook are exempt); a refused request does not take a
  place in the window.  Over it: 429, ``{"message", "retry_after", "global": true}``,
  ``Retry-After``, ``X-RateLimit-Global: true``, ``X-RateLimit-Scope: global``, ``Via``.
* **Per route** (opt-in, see :class:`Limits`): a *fixed window* per bucket, as Discord
  announces it: the first request after a reset opens a window of :attr:`RouteLimit.per`
  seconds in which :attr:`RouteLimit.limit` requests pass.  A bucket is one
  :attr:`RouteLimit.bucket` name and one *major parameter* (``channel_id``, ``guild_id``,
  or the webhook's id and token).
  Every answer of a limited route carries ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``
  (epoch seconds), ``-Reset-After`` and ``-Bucket`` (a hash of the bucket's name); the
  request over the limit gets 429 with ``"global": false`` and ``X-RateLimit-Scope: user``
  (``shared`` for a :attr:`RouteLimit.shared` bucket).  discord.py reads the headers and
  waits by itself before the bucket is empty.
* **Invalid requests and the ban**: answers 401, 403 and 429 (not those of scope
  ``shared``) are counted for the fake's one address in a sliding window of
  :attr:`Limits.invalid_window` seconds.  Once :attr:`Limits.invalid_threshold` are in
  the window, every REST request is answered as Cloudflare's ban looks to discord.py (429
  without ``Via``, a text body: discord.py raises at once) until enough have left the
  window.  The ban's own answers are not counted, or a bot that keeps trying would never
  be let back in.
* **Active threads**: creating (or reopening) a thread in a guild that has
  :attr:`Limits.active_threads` threads not archived answers 400, code 160006.
* **Uploads**: a request whose files total more than :attr:`Limits.upload_bytes` answers
  413, code 40005.

Every window is read on :attr:`Limits.clock` (``time.monotonic`` by default), so a test can
move time instead of sleeping.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections import Counter, deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Final

from .constants import ATTACHMENT_SIZE_LIMIT

#: Route keys (``"POST /channels/{channel_id}/messages"``) of the limited routes.
CREATE_MESSAGE: Final = "POST /channels/{channel_id}/messages"
EDIT_MESSAGE: Final = "PATCH /channels/{channel_id}/messages/{message_id}"
MODIFY_CHANNEL: Final = "PATCH /channels/{channel_id}"
CREATE_THREAD: Final = "POST /channels/{channel_id}/messages/{message_id}/threads"
OPEN_DM: Final = "POST /users/@me/channels"

#: The route parameters that split a bucket, as Discord's "top-level resources".
MAJOR_PARAMETERS: Final = ("channel_id", "guild_id", "application_id", "token")


@dataclass(frozen=True)
class RouteLimit:
    """``limit`` requests per ``per`` seconds in bucket ``bucket`` (routes naming the same
    bucket share it), per major parameter."""

    limit: int
    per: float
    bucket: str
    #: A limit shared by every bot (a busy resource): its 429s say scope ``shared`` and are
    #: not invalid requests.
    shared: bool = False

    @property
    def bucket_hash(self) -> str:
        """The opaque ``X-RateLimit-Bucket`` value."""
        return hashlib.sha1(self.bucket.encode()).hexdigest()[:16]


def _webhook(method: str, tail: str = "") -> str:
    return f"{method} /webhooks/{{application_id}}/{{token}}{tail}"


#: Discord publishes no figures; these are what its headers announce for bots, where known
#: (posting and editing in a channel: 5 per 5 s each), and otherwise a generous guess that
#: leaves the global limit as what binds.
DISCORD_ROUTE_LIMITS: Final[Mapping[str, RouteLimit]] = {
    CREATE_MESSAGE: RouteLimit(5, 5.0, "channel-messages-create"),
    EDIT_MESSAGE: RouteLimit(5, 5.0, "channel-messages-edit"),
    "GET /channels/{channel_id}/messages": RouteLimit(5, 1.0, "channel-messages-read"),
    "GET /channels/{channel_id}/messages/{message_id}": RouteLimit(5, 1.0, "channel-message-read"),
    "GET /channels/{channel_id}": RouteLimit(5, 1.0, "channel-read"),
    MODIFY_CHANNEL: RouteLimit(5, 5.0, "channel-modify"),
    CREATE_THREAD: RouteLimit(5, 5.0, "thread-create"),
    OPEN_DM: RouteLimit(10, 1.0, "dm-open"),
    "PUT /applications/{application_id}/commands": RouteLimit(5, 20.0, "commands-put"),
    "PUT /applications/{application_id}/guilds/{guild_id}/commands": RouteLimit(
        5, 20.0, "guild-commands-put"
    ),
    # The interaction's webhook: per interaction token, outside the global limit.
    _webhook("POST"): RouteLimit(5, 1.0, "interaction-webhook"),
    _webhook("GET", "/messages/{message_id}"): RouteLimit(5, 1.0, "interaction-webhook"),
    _webhook("PATCH", "/messages/{message_id}"): RouteLimit(5, 1.0, "interaction-webhook"),
    _webhook("DELETE", "/messages/{message_id}"): RouteLimit(5, 1.0, "interaction-webhook"),
}

#: Seconds a request may arrive early and still find the global window's oldest request
#: gone: requests exactly 1/50 s apart must pass, whatever the rounding of their times.
#: A route's window is as lenient: the headers round its reset up to the millisecond.
GLOBAL_SLACK: Final = 0.001

#: Statuses Discord counts as invalid requests.
INVALID_STATUSES: Final = frozenset({401, 403, 429})


@dataclass
class Limits:
    """Every limit the fake enforces; ``None`` (or an empty ``routes``) turns one off.

    Discord's figures by default, except per-route buckets, which are opt-in
    (:meth:`discord` has them all).  Why: discord.py honours a bucket by holding the next
    request back until the window resets, up to 5 s, sending nothing meanwhile; the
    harness's ``wait_quiet`` takes that silence for the end of the bot's work, so a test
    that makes the bot post more than 5 times in one channel within 5 s (a game's moves,
    each with a direct message) would read the world while a post is still held back, and
    a bot process restarted on the same fake meets the bucket its predecessor emptied and
    logs discord.py's 429 warning.  The global limit, the ban, the thread cap and the
    upload size cost a test nothing unless it goes over them.

    Change a field on ``fake.limits`` or assign a new value; the next request sees it
    (state already counted, such as a bucket's window, is kept).
    """

    #: Requests per token in any :attr:`global_window` seconds (Discord: 50 a second).
    global_per_second: int | None = 50
    global_window: float = 1.0
    #: Per-route buckets by route key; routes not listed have none (and no headers).  Opt
    #: in (``Limits.discord()``, or ``DISCORD_ROUTE_LIMITS``): see the class's docstring.
    routes: Mapping[str, RouteLimit] = field(default_factory=dict)
    #: Invalid requests (401, 403, 429) in :attr:`invalid_window` seconds that bring the
    #: ban (Discord: 10,000 in 10 minutes).
    invalid_threshold: int | None = 10_000
    invalid_window: float = 600.0
    #: Threads not archived per guild (Discord: 1,000).
    active_threads: int | None = 1000
    #: Bytes of files per request (Discord: 10 MiB for a bot in a server without boosts).
    upload_bytes: int | None = ATTACHMENT_SIZE_LIMIT
    #: Seconds, monotonic: what every window is read on.
    clock: Callable[[], float] = time.monotonic

    @classmethod
    def discord(cls) -> Limits:
        """Discord's figures, per-route buckets included."""
        return cls(routes=dict(DISCORD_ROUTE_LIMITS))

    @classmethod
    def off(cls) -> Limits:
        """No limit at all (benchmarks that measure the bot's CPU, not Discord's pace)."""
        return cls(
            global_per_second=None,
            routes={},
            invalid_threshold=None,
            active_threads=None,
            upload_bytes=None,
        )


@dataclass
class RateLimitCounts:
    """What the fake refused because of a rate limit, by kind; :meth:`reset` freely."""

    #: 429s of the global limit.
    global_limit: int = 0
    #: 429s of a per-route bucket, and by route key.
    route: int = 0
    by_route: Counter[str] = field(default_factory=Counter)
    #: Requests answered with the ban.
    ban: int = 0

    @property
    def total(self) -> int:
        return self.global_limit + self.route + self.ban

    def reset(self) -> None:
        self.global_limit = self.route = self.ban = 0
        self.by_route.clear()


@dataclass(frozen=True)
class Refusal:
    """The answer to a request a limit refuses: ``body`` is JSON, or text for the ban."""

    status: int
    body: object
    headers: dict[str, str]

    @property
    def is_text(self) -> bool:
        return isinstance(self.body, str)


#: discord.py takes a 429 without ``Via`` for Cloudflare's; Discord's own 429s carry it.
VIA: Final = "1.1 google"
BAN_BODY: Final = (
    "<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare to "
    "restrict access</title></head><body>Error 1015: You are being rate limited.</body></html>"
)


@dataclass
class _Window:
    resets_at: float
    used: int = 0


class RateLimiter:
    """The state behind :class:`Limits`: the global windows, the route buckets, the invalid
    requests; each check is given the :class:`Limits` in force."""

    def __init__(self) -> None:
        self.counts = RateLimitCounts()
        self._global: dict[str, deque[float]] = {}
        self._buckets: dict[tuple[str, str], _Window] = {}
        self._invalid: deque[float] = deque()

    # -- the ban --------------------------------------------------------------------------------

    def invalid_in_window(self, limits: Limits) -> int:
        """Invalid requests (401, 403, 429) in the window now."""
        self._expire_invalid(limits)
        return len(self._invalid)

    def _expire_invalid(self, limits: Limits) -> None:
        oldest = limits.clock() - limits.invalid_window
        while self._invalid and self._invalid[0] <= oldest:
            self._invalid.popleft()

    def is_banned(self, limits: Limits) -> bool:
        threshold = limits.invalid_threshold
        return threshold is not None and self.invalid_in_window(limits) >= threshold

    def ban(self, limits: Limits) -> Refusal | None:
        """The ban's answer while it lasts, counted; else None."""
        if not self.is_banned(limits):
            return None
        self.counts.ban += 1
        headers = {"Retry-After": str(int(limits.invalid_window)), "Content-Type": "text/html"}
        return Refusal(429, BAN_BODY, headers)

    def answered(self, limits: Limits, status: int, headers: Mapping[str, str]) -> None:
        """Count an answer that was sent (the ban's own are not)."""
        shared = headers.get("X-RateLimit-Scope") == "shared"
        if status in INVALID_STATUSES and not shared:
            self._expire_invalid(limits)  # kept short even while no ban is looked for
            self._invalid.append(limits.clock())

    # -- the global limit -----------------------------------------------------------------------

    def take_global(self, limits: Limits, who: str) -> Refusal | None:
        """Count a request of ``who`` (a token) against the global limit, or refuse it."""
        limit = limits.global_per_second
        if limit is None:
            return None
        now = limits.clock()
        window = self._global.setdefault(who, deque())
        while window and window[0] <= now - limits.global_window + GLOBAL_SLACK:
            window.popleft()
        if len(window) < limit:
            window.append(now)
            return None
        self.counts.global_limit += 1
        retry_after = max(window[0] + limits.global_window - GLOBAL_SLACK - now, 0.001)
        body = {
            "message": "You are being rate limited.",
            "retry_after": _up(retry_after),
            "global": True,
        }
        headers = {
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": VIA,
        }
        return Refusal(429, body, headers)

    # -- per-route buckets ----------------------------------------------------------------------

    def take_route(
        self, limits: Limits, route: str, params: Mapping[str, str]
    ) -> tuple[Refusal | None, dict[str, str]]:
        """Count a request to ``route`` in its bucket: the refusal if it is over the limit,
        and the ``X-RateLimit-*`` headers every answer of the route carries."""
        spec = limits.routes.get(route)
        if spec is None:
            return None, {}
        now = limits.clock()
        major = "+".join(params[p] for p in MAJOR_PARAMETERS if p in params)
        key = (spec.bucket, major)
        window = self._buckets.get(key)
        if window is None or now >= window.resets_at - GLOBAL_SLACK:
            window = self._buckets[key] = _Window(now + spec.per)
        refused = window.used >= spec.limit
        if not refused:
            window.used += 1
        reset_after = _up(max(window.resets_at - now, 0.0))
        headers = {
            "X-RateLimit-Limit": str(spec.limit),
            "X-RateLimit-Remaining": str(spec.limit - window.used),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": spec.bucket_hash,
        }
        if not refused:
            return None, headers
        self.counts.route += 1
        self.counts.by_route[route] += 1
        retry_after = max(reset_after, 0.001)
        body = {
            "message": "You are being rate limited.",
            "retry_after": _up(retry_after),
            "global": False,
        }
        refusal_headers = {
            **headers,
            "Retry-After": str(max(1, round(retry_after))),
            "X-RateLimit-Scope": "shared" if spec.shared else "user",
            "Via": VIA,
        }
        return Refusal(429, body, refusal_headers), headers


def _up(seconds: float) -> float:
    """Seconds rounded up to the millisecond: a client that waits exactly this is let through."""
    return math.ceil(seconds * 1000) / 1000


def files_too_large(limits: Limits, sizes: list[int]) -> bool:
    """Whether files of ``sizes`` bytes exceed what one request may upload."""
    return limits.upload_bytes is not None and sum(sizes) > limits.upload_bytes
