"""`/healthz` and `/metrics` on 127.0.0.1, for the operator's monitoring (`METRICS_PORT`).

`/healthz` answers 200 with `{"ready": true, ...}` when the bot is connected to Discord,
its database answers and its deadline task is on time, and 503 with the same fields
otherwise, so a process supervisor or a load balancer can restart or avoid it.
`/metrics` is the Prometheus text format: moves, active games, the time of a move's
transaction and of rendering a board, how late time-outs and reminders were claimed,
the deadline task's lag, the sends waiting in the outbox and those sent, whether the
database answers, and Discord's 4xx answers to the bot's requests: by status, and the
invalid ones (401, 403, 429) of the last 10 minutes, whose alarm is
`bot.ui.rejections.ALARM` (Discord bans the address at 10,000); its 429s by scope
(global, user, shared), and the requests that waited for a slot of the global limit
(`bot.ui.pacing`) with the seconds they waited.

Only on 127.0.0.1: the numbers are the operator's, not the internet's (a scraper on
another machine goes through the operator's own proxy). prometheus-client is an
optional extra (`pip install -e '.[metrics]'`); the bot runs without it when no port
is set, and says in one sentence what to install when one is.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, Protocol

from aiohttp import web

from .db import Database
from .services import GameService
from .services.stats import Timing

if TYPE_CHECKING:
    from prometheus_client.core import Metric

log = logging.getLogger(__name__)

HOST = "127.0.0.1"
#: The deadline task may fall this far behind before the bot counts as unhealthy.
LAG_LIMIT = timedelta(minutes=2)
#: How long the database may take to answer `/healthz`'s query.
DATABASE_TIMEOUT = 5.0
MISSING = (
    "METRICS_PORT is set but prometheus-client is not installed: install it with "
    "pip install -e '.[metrics]', or leave METRICS_PORT empty."
)


def metrics_available() -> bool:
    """Whether the optional prometheus-client package is installed."""
    return importlib.util.find_spec("prometheus_client") is not None


class _Lagging(Protocol):
    def lag(self) -> timedelta: ...


class _Sending(Protocol):
    sent: int


class _Refused(Protocol):
    @property
    def by_status(self) -> Mapping[int, int]: ...

    def invalid_recently(self) -> int: ...


class _Paced(Protocol):
    @property
    def throttled(self) -> Mapping[str, int]: ...

    @property
    def waits(self) -> int: ...

    @property
    def waited(self) -> float: ...


class Watched(Protocol):
    """What the endpoints read of the bot."""

    @property
    def service(self) -> GameService: ...

    @property
    def scheduler(self) -> _Lagging | None: ...

    @property
    def render_timings(self) -> dict[str, Timing]: ...

    @property
    def rejections(self) -> _Refused: ...

    @property
    def outbox_sender(self) -> _Sending | None: ...

    @property
    def pacing(self) -> _Paced: ...

    def is_ready(self) -> bool: ...

    def is_closed(self) -> bool: ...


@dataclass(frozen=True)
class Health:
    ready: bool  # connected to Discord (every shard of this process)
    database: bool  # the database answered
    database_seconds: float
    scheduler_lag: float  # seconds
    active_games: int | None

    @property
    def healthy(self) -> bool:
        return self.ready and self.database and self.scheduler_lag <= LAG_LIMIT.total_seconds()


async def health(bot: Watched) -> Health:
    """Look at the bot now: the database gets one query (the active games)."""
    started = time.perf_counter()
    active: int | None = None
    try:
        active = await asyncio.wait_for(_active_games(bot.service.store.db), DATABASE_TIMEOUT)
    except Exception:
        log.warning("the database did not answer the health check", exc_info=True)
    seconds = time.perf_counter() - started
    scheduler = bot.scheduler
    lag = scheduler.lag().total_seconds() if scheduler is not None else 0.0
    ready = bot.is_ready() and not bot.is_closed() and scheduler is not None
    return Health(ready, active is not None, seconds, lag, active)


async def _active_games(db: Database) -> int:
    async with db.query() as q:
        return await q.games.count_active()


class _Collector:
    """The Prometheus collector of one scrape: the health just taken and the counters."""

    def __init__(self, bot: Watched, now: Health, waiting: int | None) -> None:
        self._bot = bot
        self._now = now
        self._waiting = waiting

    def collect(self) -> Iterator[Metric]:
        from prometheus_client.core import (
            CounterMetricFamily,
            GaugeMetricFamily,
            HistogramMetricFamily,
        )

        now, stats = self._now, self._bot.service.store.stats
        yield GaugeMetricFamily("shogi_ready", "1 when connected to Discord", value=now.ready)
        yield GaugeMetricFamily(
            "shogi_database_up", "1 when the database answered", value=now.database
        )
        yield GaugeMetricFamily(
            "shogi_database_query_seconds",
            "how long the scrape's database query took",
            value=now.database_seconds,
        )
        yield GaugeMetricFamily(
            "shogi_scheduler_lag_seconds",
            "how far the deadline task is behind its next planned check",
            value=now.scheduler_lag,
        )
        if now.active_games is not None:
            yield GaugeMetricFamily(
                "shogi_active_games", "games being played", value=now.active_games
            )
        yield CounterMetricFamily("shogi_moves", "moves stored by this process", value=stats.moves)
        if self._waiting is not None:
            yield GaugeMetricFamily(
                "shogi_outbox_waiting",
                "the bot's own sends queued for this process and not yet claimed",
                value=self._waiting,
            )
        sender = self._bot.outbox_sender
        if sender is not None:
            yield CounterMetricFamily(
                "shogi_outbox_sends", "the outbox's rows this process sent", value=sender.sent
            )
        refused = CounterMetricFamily(
            "shogi_discord_rejections",
            "Discord's 4xx answers to this process's requests, by HTTP status",
            labels=["status"],
        )
        for status, count in sorted(self._bot.rejections.by_status.items()):
            refused.add_metric([str(status)], count)
        yield refused
        yield GaugeMetricFamily(
            "shogi_discord_invalid_requests_10m",
            "401, 403 and 429 answers of the last 10 minutes (Discord bans at 10,000)",
            value=self._bot.rejections.invalid_recently(),
        )
        pacing = self._bot.pacing
        throttled = CounterMetricFamily(
            "shogi_discord_rate_limited",
            "Discord's 429 answers to this process, by scope (global, user, shared)",
            labels=["scope"],
        )
        for scope in ("global", "user", "shared"):
            throttled.add_metric([scope], pacing.throttled.get(scope, 0))
        yield throttled
        yield CounterMetricFamily(
            "shogi_global_limit_waits",
            "requests that waited for a slot of Discord's global limit",
            value=pacing.waits,
        )
        yield CounterMetricFamily(
            "shogi_global_limit_waited_seconds",
            "seconds requests waited for a slot of Discord's global limit, in all",
            value=pacing.waited,
        )
        yield _histogram(
            HistogramMetricFamily(
                "shogi_move_transaction_seconds", "the transaction that stores a move"
            ),
            {(): stats.move_transactions},
        )
        yield _histogram(
            HistogramMetricFamily("shogi_render_seconds", "rendering an image", labels=["kind"]),
            {(kind,): timing for kind, timing in self._bot.render_timings.items()},
        )
        yield _histogram(
            HistogramMetricFamily(
                "shogi_deadline_lateness_seconds",
                "how long after its moment a time-out or reminder was claimed",
                labels=["kind"],
            ),
            {(kind,): timing for kind, timing in stats.lateness.items()},
        )


def _histogram(family: Any, timings: dict[tuple[str, ...], Timing]) -> Any:
    for labels, timing in timings.items():
        buckets = [(f"{bound:g}", n) for bound, n in timing.cumulative()]
        buckets.append(("+Inf", timing.count))
        family.add_metric(list(labels), buckets, sum_value=timing.total)
    return family


class Monitor:
    """The HTTP endpoint: `await Monitor(bot, port).start()`, `await stop()`."""

    def __init__(self, bot: Watched, port: int) -> None:
        self.bot = bot
        self.port = port
        self._runner: web.AppRunner | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        await web.TCPSite(self._runner, HOST, self.port).start()
        log.info("health and metrics on http://%s:%s/healthz and /metrics", HOST, self.port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _healthz(self, request: web.Request) -> web.Response:
        now = await health(self.bot)
        body = {
            "ready": now.ready,
            "database": now.database,
            "scheduler_lag_seconds": round(now.scheduler_lag, 3),
            "active_games": now.active_games,
        }
        return web.Response(
            text=json.dumps(body),
            status=200 if now.healthy else 503,
            content_type="application/json",
        )

    async def _metrics(self, request: web.Request) -> web.Response:
        from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, generate_latest

        registry = CollectorRegistry(auto_describe=False)
        now = await health(self.bot)
        waiting: int | None = None
        if now.database:
            try:
                waiting = await asyncio.wait_for(
                    self.bot.service.outbox.waiting(), DATABASE_TIMEOUT
                )
            except Exception:
                log.warning("the database did not say how many sends wait", exc_info=True)
        registry.register(_Collector(self.bot, now, waiting))
        body = generate_latest(registry)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
