"""Daily digests: one direct message a day, at the hour a player chose in their zone,
listing every game where it is their move (`Games.to_move`); none on a day without one.

A digest is due at the player's last local digest hour that came after both the last
digest claimed for them and their last change of preferences (so turning digests on at
15:00 with an hour of 8 sends the first one tomorrow at 8, not at once). Their hour is
read in their own zone, else in the zone of the server of their oldest game in progress
(for a member of one club, that club's), else in their language's (`default_zone`).

Exactly once, across restarts and processes: each digest is claimed in a transaction of
its own with a conditional write (the last one sent for the player earlier than this
one) before it is sent, as the reminders of deadlines are. A crash between the claim and
the message loses that day's digest rather than sending it twice; a bot that was down at
the hour sends it when it starts, once, however many days it missed.

`DigestScheduler` wakes for the next digest due, beside the deadline task; a player's
change of preferences wakes it too (their new hour may come before it planned to look).
"""

from __future__ import annotations

import asyncio
import logging
import zoneinfo
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from bot.db import DigestSubscriber

from ..club.preferences import Notifications, Preferences
from ..club.zones import default_zone
from ..play.finding import Games
from ..play.store import GameStore
from ..play.summaries import GameList

log = logging.getLogger(__name__)
#: Subscribers looked at between two turns of the event loop.
_BATCH = 100

#: The zone of a server (by id), as the Discord layer knows it (`GameBot.server_zone`).
ServerZone = Callable[[int], Awaitable[tzinfo]]


@dataclass(frozen=True, slots=True)
class Digest:
    """One player's digest: the games where it is their move (never empty), the language
    to write it in (None: not known), and the local hour it is for, as a moment."""

    user_id: int
    language: str | None
    games: GameList
    due_at: datetime


#: Sends a digest; the Discord layer's direct message.
DigestSender = Callable[[Digest], Awaitable[None]]


def _at(day: date, hour: int, zone: tzinfo) -> datetime:
    """`hour` o'clock on `day` in `zone`, in UTC. An hour the clocks skip (the spring
    change) falls an hour later; an hour they repeat (the autumn change), the first time."""
    return datetime(day.year, day.month, day.day, hour, tzinfo=zone).astimezone(UTC)


def hours_around(now: datetime, hour: int, zone: tzinfo) -> tuple[datetime, datetime]:
    """The last moment at or before `now` that it was `hour` o'clock in `zone`, and the
    next one after `now`, both in UTC.

    >>> tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    >>> [m.isoformat() for m in hours_around(datetime(2026, 1, 1, tzinfo=UTC), 8, tokyo)]
    ['2025-12-31T23:00:00+00:00', '2026-01-01T23:00:00+00:00']
    """
    today = now.astimezone(zone).date()
    candidates = [_at(today + timedelta(days=shift), hour, zone) for shift in (-1, 0, 1)]
    last = max(moment for moment in candidates if moment <= now)
    following = min(moment for moment in candidates if moment > now)
    return last, following


def hour_due(
    now: datetime, hour: int, zone: tzinfo, chosen_at: datetime, done_for: datetime | None
) -> tuple[datetime | None, datetime]:
    """For a daily send at `hour` in `zone`, chosen at `chosen_at` and last done for the
    moment `done_for`: the moment to do it for now (None: that hour came before the choice
    or was done already), and the next one.

    >>> tokyo = zoneinfo.ZoneInfo("Asia/Tokyo")
    >>> now = datetime(2026, 1, 1, tzinfo=UTC)
    >>> hour_due(now, 8, tokyo, now - timedelta(days=2), None)[0].isoformat()
    '2025-12-31T23:00:00+00:00'
    >>> hour_due(now, 8, tokyo, now - timedelta(hours=1), None)[0] is None
    True
    """
    last, following = hours_around(now, hour, zone)
    floor = chosen_at if done_for is None else max(chosen_at, done_for)
    return (last if last > floor else None), following


class Digests:
    """Sends the digests that are due and says when the next one is."""

    def __init__(self, store: GameStore, games: Games) -> None:
        self._store = store
        self._games = games
        self._sender: DigestSender | None = None
        self._server_zone: ServerZone | None = None
        self._listeners: list[Callable[[datetime | None], None]] = []

    def deliver_with(self, sender: DigestSender | None, server_zone: ServerZone | None) -> None:
        """Who sends the digests (the Discord layer; None: nobody, so none is claimed) and
        how a server's zone is found (None: its language's default)."""
        self._sender = sender
        self._server_zone = server_zone

    def now(self) -> datetime:
        return self._store.now()

    def add_deadline_listener(self, listener: Callable[[datetime | None], None]) -> None:
        """`listener(when)` is called when a player who chose a digest changes their
        preferences: their next digest is at `when` (None: not known without looking), and
        the scheduler looks again if that is sooner than it planned."""
        self._listeners.append(listener)

    def preferences_changed(self, preferences: Preferences) -> None:
        """A player changed their preferences (perhaps their digest's hour or zone). With a
        zone of their own, the moment of their next digest is known at once, so changing
        them again and again does not make the task look again and again."""
        if preferences.notifications is not Notifications.DIGEST:
            return  # a digest given up needs no look: the planned one finds nothing due
        when = None
        if preferences.time_zone is not None:
            zone = zoneinfo.ZoneInfo(preferences.time_zone)
            when = hours_around(self.now(), preferences.digest_hour, zone)[1]
        for listener in self._listeners:
            listener(when)

    async def check(self) -> datetime | None:
        """Send every digest due now; returns when the next one is (None: nobody asked)."""
        if self._sender is None:
            return None
        now = self.now()
        async with self._store.db.read() as tx:
            subscribers = await tx.digests.subscribers()
        upcoming: list[datetime] = []
        for index, subscriber in enumerate(subscribers):
            if index % _BATCH == _BATCH - 1:
                await asyncio.sleep(0)  # let members' commands run between batches
            try:
                due, following = hour_due(
                    now,
                    subscriber.hour,
                    await self._zone(subscriber),
                    subscriber.chosen_at,
                    subscriber.last_sent_for,
                )
                if due is not None:
                    await self._send(subscriber, due)
                upcoming.append(following)
            except Exception:
                log.exception("could not send the digest of %s", subscriber.user_id)
        return min(upcoming, default=None)

    async def _zone(self, subscriber: DigestSubscriber) -> tzinfo:
        if subscriber.time_zone is not None:
            return zoneinfo.ZoneInfo(subscriber.time_zone)
        if subscriber.guild_id is not None and self._server_zone is not None:
            return await self._server_zone(subscriber.guild_id)
        return default_zone(subscriber.language or "")

    async def _send(self, subscriber: DigestSubscriber, due: datetime) -> None:
        async with self._store.db.transaction() as tx:
            claimed = await tx.digests.claim(subscriber.user_id, due)
        if not claimed or self._sender is None:
            return  # another process (or an earlier check) sent it
        listed = await self._games.to_move(subscriber.user_id)
        late = (self.now() - due).total_seconds()
        self._store.stats.lateness["digest"].observe(late)
        if not listed.games:
            log.info("no digest for %s: no game waits for their move", subscriber.user_id)
            return
        await self._sender(Digest(subscriber.user_id, subscriber.language, listed, due))
