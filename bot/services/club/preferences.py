"""Per-player preferences: confirming moves, direct messages, digests, zone, quiet hours.

The Discord layer reads them at every `/move` (does this player confirm first?) and at
every new turn (do they want a message?). They are read from the database once, all of
them (one small row per player who ever chose), and then kept in memory, as the servers'
languages are; a player changes them only through this part. A query per `/move` would
cost a round trip to the database before the move is even loaded, and one for some
players but not others would change who wins when two moves of one game arrive together.
Several bot processes on one database cannot keep copies (a change made through one
would not be seen by the others): there (`read_through`) each use reads the player's
row, for every player alike.

A member whose direct messages Discord refused (their inbox is closed) is remembered in
the database, by every process and across restarts, and not written to again until they
change their preferences: every refused message counts against the bot with Discord, and
enough of them get its address banned. Any change they make clears it (even choosing again
what they had); only showing their settings does not. That rule is here; the sender asks.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import astuple, dataclass, replace
from datetime import datetime, tzinfo
from enum import StrEnum

from bot.db import PreferencesRow, Session

from ..play.store import GameStore
from .servers import POST_LANGUAGES
from .zones import zone_named


class Notifications(StrEnum):
    """Which direct messages a player gets about their turns: one at each turn, one digest
    a day listing the games where it is their move, or none. Endings and offers (a
    takeback asked, a rematch) are messaged to everyone but those who chose none."""

    EACH_TURN = "each"
    DIGEST = "digest"
    NONE = "none"


@dataclass(frozen=True, slots=True)
class QuietHours:
    """Local hours when direct messages arrive without a sound: from `start` up to `end`
    (exclusive), across midnight when `end` is earlier (22 to 7 is the night)."""

    start: int
    end: int

    def __contains__(self, hour: int) -> bool:
        if self.start <= self.end:
            return self.start <= hour < self.end
        return hour >= self.start or hour < self.end


@dataclass(frozen=True, slots=True)
class Preferences:
    """What a player chose for themselves: to confirm each move before it is stored, which
    direct messages they get, written in `language` (None: not known yet), the local hour
    of their digest, their time zone (None: not chosen; the server's is used) and their
    quiet hours."""

    confirm_moves: bool = False
    notifications: Notifications = Notifications.NONE
    language: str | None = None
    digest_hour: int = 8
    time_zone: str | None = None
    quiet_hours: QuietHours | None = None

    @property
    def turn_messages(self) -> bool:
        """Whether each turn that begins is messaged to them."""
        return self.notifications is Notifications.EACH_TURN

    @property
    def direct_messages(self) -> bool:
        """Whether they get direct messages at all (endings and offers, at least)."""
        return self.notifications is not Notifications.NONE

    def quiet_at(self, moment: datetime, zone: tzinfo) -> bool:
        """Whether `moment` falls in their quiet hours, read in `zone` (theirs, or the
        server's when they chose none)."""
        if self.quiet_hours is None:
            return False
        return moment.astimezone(zone).hour in self.quiet_hours


DEFAULTS = Preferences()  # a player who never chose: no confirmation, no messages


class PlayerPreferences:
    """Each player's choices; a player who never chose has `Preferences()` (all off)."""

    def __init__(self, store: GameStore, *, read_through: bool = False) -> None:
        self._store = store
        self._read_through = read_through
        self._known: dict[int, Preferences] | None = None  # every player who chose any
        self._loading = asyncio.Lock()
        self._listeners: list[Callable[[Preferences], None]] = []

    def add_change_listener(self, listener: Callable[[Preferences], None]) -> None:
        """`listener(preferences)` is called with a player's preferences after they changed
        them (the digests' task looks again: their hour may come sooner than it planned)."""
        self._listeners.append(listener)

    async def of(self, user_id: int) -> Preferences:
        """The player's preferences (the defaults if they never chose)."""
        if self._read_through:
            async with self._store.db.query() as q:
                return _preferences(await q.preferences.get(user_id))
        known = self._known if self._known is not None else await self._load()
        return known.get(user_id, DEFAULTS)

    async def inbox_closed(self, user_id: int) -> bool:
        """Whether the member's direct messages are not to be tried: Discord refused one
        since they last changed their preferences. Read from the database each time, so
        every process knows what another learned."""
        async with self._store.db.query() as q:
            return await q.preferences.inbox_closed(user_id)

    async def close_inbox(self, user_id: int) -> None:
        """Discord refused a direct message to the member (403, code 50007): none is tried
        again, by any process, until they change their preferences."""
        now = self._store.now()

        async def store(tx: Session) -> None:
            await tx.preferences.close_inbox(user_id, now)

        await self._store.db.run(store)

    async def _load(self) -> dict[int, Preferences]:
        async with self._loading:  # the first readers wait for one query, not one each
            if self._known is None:
                async with self._store.db.query() as q:
                    rows = await q.preferences.all()
                self._known = {row.user_id: _preferences(row) for row in rows}
            return self._known

    async def change(
        self,
        user_id: int,
        *,
        confirm_moves: bool | None = None,
        notifications: Notifications | None = None,
        language: str | None = None,
        digest_hour: int | None = None,
        time_zone: str | None = None,
        quiet_hours: QuietHours | None = None,
        loud: bool = False,
    ) -> Preferences:
        """Change the preferences given (None keeps one as it is) and return them all.
        `language` is the one to write the player's direct messages in (one of the
        languages the bot speaks); `time_zone` an IANA name (refused with a sentence if
        unknown, stored as the database spells it); hours are 0-23 (the command's options
        are bounded so); `loud` removes the quiet hours.
        Nothing is written if nothing changed. A change, or any choice given but the
        language (which comes with every use of the command), reopens a closed inbox."""
        if language is not None and language not in POST_LANGUAGES:
            raise ValueError(f"no catalogs for language {language!r}")
        for hour in (digest_hour, *(() if quiet_hours is None else astuple(quiet_hours))):
            if hour is not None and not 0 <= hour <= 23:
                raise ValueError(f"no hour {hour} in a day")
        zone = None if time_zone is None else zone_named(time_zone).key
        now = self._store.now()
        chose = loud or any(
            option is not None
            for option in (confirm_moves, notifications, digest_hour, time_zone, quiet_hours)
        )

        async def store(tx: Session) -> Preferences:
            # Read and write in one transaction: two changes at once (two devices) each
            # keep what the other changed.
            current = await tx.preferences.get(user_id)
            quiet = (
                (None, None)
                if loud
                else (current.quiet_from, current.quiet_until)
                if quiet_hours is None
                else (quiet_hours.start, quiet_hours.end)
            )
            wanted = replace(
                current,
                confirm_moves=current.confirm_moves if confirm_moves is None else confirm_moves,
                notifications=(
                    current.notifications if notifications is None else notifications.value
                ),
                language=current.language if language is None else language,
                digest_hour=current.digest_hour if digest_hour is None else digest_hour,
                time_zone=current.time_zone if zone is None else zone,
                quiet_from=quiet[0],
                quiet_until=quiet[1],
            )
            if wanted != current:
                await tx.preferences.set(wanted, now)
            if chose or wanted != current:
                await tx.preferences.reopen_inbox(user_id)
            return _preferences(wanted)

        chosen = await self._store.db.run(store)
        for listener in self._listeners:
            listener(chosen)
        if not self._read_through:
            known = self._known if self._known is not None else await self._load()
            known[user_id] = chosen
        return chosen


def _preferences(row: PreferencesRow) -> Preferences:
    quiet = None
    if row.quiet_from is not None and row.quiet_until is not None:
        quiet = QuietHours(row.quiet_from, row.quiet_until)
    return Preferences(
        confirm_moves=row.confirm_moves,
        notifications=Notifications(row.notifications),
        language=row.language,
        digest_hour=row.digest_hour,
        time_zone=row.time_zone,
        quiet_hours=quiet,
    )
