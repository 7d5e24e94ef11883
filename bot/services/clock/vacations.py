"""Vacations: a player's clocks stand still, within a yearly allowance.

While a player is on vacation, every game of theirs where they are to move is paused:
no reminder, no time-out (the deadline task skips their deadlines, and `deadline_of`
puts their deadline past the vacation's latest end, so even a lazy check after a
restart finds nothing due). When the vacation ends, by their `/vacation end` or by
itself when the allowance runs out, each of those games' turn start moves later by the
time the clock stood still, which moves the deadline later by as much, and the time is
counted against the allowance.

The unit is the hour: each vacation costs its length rounded up to a whole hour. Hours,
not days, so that a player away for an evening does not lose a day of the year's
fourteen; rounded up, so that starting and ending vacations over and over cannot pause
a clock for free. A vacation counts against the calendar year (UTC) it began in.

A vacation over New Year is not split between the two years, on purpose. Its length is
bounded when it starts (`ends_by`: what is left of that year's allowance), so the
player knows at once how long it can last, and one vacation is one charge, rounded
once. Splitting would give nothing against abuse: under either rule a player can be away
for the end of one year's allowance and the start of the next's, back to back (at most
twice the allowance around New Year). It would only let a December vacation run past
what is left of the old year into the new one's days, which ending it and starting a new
one on 1 January gives as well.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta

from bot.db import Conflict, DeadlineRow, GameRow, Session, VacationRow
from rules import Color, Sentence

from ..budgets import Budgets
from ..errors import ServiceError
from ..play.game import GameSnapshot
from ..play.snapshots import color_of, turn_of
from ..play.store import GameStore
from .clocks import HOUR, due_at, reminder_at
from .sends import Send, queue_for_player
from .vacation import VacationChange, VacationStatus

log = logging.getLogger(__name__)

#: Vacation per player per calendar year. Correspondence chess gives players a yearly
#: leave of this order (ICCF's rules allow 45 days a year in tournament play; casual
#: correspondence sites give a few weeks); two weeks covers a holiday without letting a
#: player stall a casual game for months. One constant, so a server could change it.
ALLOWANCE = timedelta(days=14)
#: What a vacation is counted in (see the module's docstring).
UNIT = HOUR


class VacationRefused(ServiceError):
    """A vacation that cannot start or end now; the message says why."""


def charged(vacation: VacationRow) -> timedelta:
    """What a vacation costs: its length so far (or in all), rounded up to the hour."""
    end = vacation.ended_at or vacation.ends_by
    units = -((vacation.started_at - end) // UNIT)  # ceiling division
    return UNIT * max(units, 0)


def _year_bounds(moment: datetime) -> tuple[datetime, datetime]:
    year = moment.astimezone(UTC).year
    return datetime(year, 1, 1, tzinfo=UTC), datetime(year + 1, 1, 1, tzinfo=UTC)


def resumed(game: GameRow, user_id: int, vacation: VacationRow, at: datetime) -> GameRow | None:
    """`game`'s clock once `user_id`'s vacation ends `at`: if they are to move, their turn
    began later by the time the clock stood still; None if their clock was not running
    (nor had started: a game waiting for its first post starts its clock then)."""
    color = color_of(game, user_id)
    if game.status != "active" or color is None or turn_of(game.sfen) is not color:
        return None
    if game.clock_waits:
        return None
    paused_from = max(vacation.started_at, game.turn_started_at)
    bank = game.sente_bank if color is Color.SENTE else game.gote_bank
    due = due_at(game.turn_started_at, bank, game.terms.period)
    if at <= paused_from or (due is not None and due <= vacation.started_at):
        return None  # nothing stood still (or it had run out before the vacation)
    turn_started = game.turn_started_at + (at - paused_from)
    return replace(game, turn_started_at=turn_started)


class Vacations:
    """Starting, ending and counting players' vacations."""

    def __init__(self, store: GameStore, budgets: Budgets | None = None) -> None:
        self._store = store
        self.budgets = Budgets() if budgets is None else budgets

    async def status(self, user_id: int) -> VacationStatus:
        """The player's allowance this year, what they used, and their vacation now."""
        now = self._store.now()

        async def read(tx: Session) -> VacationStatus:
            return await self._status(tx, user_id, now)

        return await self._store.db.run(read, write=False)

    async def _status(self, tx: Session, user_id: int, now: datetime) -> VacationStatus:
        since, until = _year_bounds(now)
        past = await tx.vacations.started_between(user_id, since, until)
        used = sum((charged(v) for v in past if v.ended_at is not None), timedelta())
        current = await tx.vacations.current(user_id)
        return VacationStatus(since.year, ALLOWANCE, used, current)

    async def start(self, user_id: int) -> VacationChange:
        """Begin a vacation now, to last at most what is left of this year's allowance,
        and at most `Budgets.vacation_starts` times in `Budgets.vacation_period` (each
        start and end is posted in every thread of the player's games). Games already
        out of time are settled first: a vacation does not save them."""
        now = self._store.now()
        async with self._store.db.query() as q:
            rows = await q.games.active_for(user_id)
        for row in rows:
            await self._store.current(row.id, now=now)  # ends a game whose time ran out

        async def store(tx: Session) -> VacationStatus:
            await tx.vacations.lock(user_id)  # no vacation of theirs ends meanwhile
            status = await self._status(tx, user_id, now)
            if status.current is not None:
                raise VacationRefused(
                    Sentence("You are already on vacation; end it with `/vacation action:End`.")
                )
            if status.left < UNIT:
                raise VacationRefused(
                    Sentence(
                        "You have used all of this year's vacation ({days} days); "
                        "it is given again on 1 January.",
                        days=ALLOWANCE.days,
                    )
                )
            await self._check_starts(tx, user_id, now)
            await tx.vacations.start(user_id, now, now + status.left)
            return await self._status(tx, user_id, now)

        try:
            status = await self._store.db.run(store)
        except Conflict:  # a second /vacation start at the same moment
            raise VacationRefused(
                Sentence("You are already on vacation; end it with `/vacation action:End`.")
            ) from None
        assert status.current is not None
        log.info("player %s: on vacation until %s", user_id, status.current.ends_by)
        return VacationChange(status.current, await self._games(user_id), status)

    async def _check_starts(self, tx: Session, user_id: int, now: datetime) -> None:
        """Refuse a start past the budget of starts in the period, saying when the oldest
        one counted leaves it."""
        limit, period = self.budgets.vacation_starts, self.budgets.vacation_period
        # Starts in (now - period, now]: the oldest stops counting when its period is over.
        since, until = now - period + timedelta.resolution, now + timedelta.resolution
        recent = await tx.vacations.started_between(user_id, since, until)
        if len(recent) < limit:
            return
        freed = recent[len(recent) - limit].started_at + period
        raise VacationRefused(
            Sentence(
                "You have started as many vacations in the last {period} as one member may "
                "({count}); you can start another {when}.",
                count=limit,
                period=period,
                when=freed,
            )
        )

    async def end(self, user_id: int) -> VacationChange:
        """End the player's vacation now: their clocks run again, their deadlines later
        by the time they stood still."""
        now = self._store.now()
        async with self._store.db.query() as q:
            current = await q.vacations.current(user_id)
        if current is None:
            raise VacationRefused(Sentence("You are not on vacation."))
        change = await self._close(current, min(now, current.ends_by))
        if change is None:
            raise VacationRefused(Sentence("You are not on vacation."))
        return change

    async def run_out(self) -> list[VacationChange]:
        """End every vacation whose allowance has run out, at the moment it ran out (also
        those that ran out while the bot was down); each once, whoever else tries."""
        now = self._store.now()
        async with self._store.db.query() as q:
            due = await q.vacations.run_out(now)
        changes = []
        for vacation in due:
            change = await self._close(vacation, vacation.ends_by, queued=True)
            if change is not None:
                changes.append(change)
        return changes

    async def next_end(self) -> datetime | None:
        """When the next vacation under way runs out (the deadline task wakes then)."""
        async with self._store.db.query() as q:
            return await q.vacations.next_end()

    async def ended(self, user_id: int) -> VacationChange | None:
        """The player's vacation that ended last, with their active games as they are now
        (what the outbox posts of a vacation that ran out); None if none ended."""
        async with self._store.db.query() as q:
            vacation = await q.vacations.last_ended(user_id)
        if vacation is None:
            return None
        return VacationChange(vacation, await self._games(user_id), await self.status(user_id))

    async def _close(
        self, vacation: VacationRow, at: datetime, *, queued: bool = False
    ) -> VacationChange | None:
        """End `vacation` at `at` and move the paused games' clocks, in one transaction;
        None if it had already ended. `queued`: its post goes through the outbox (a
        vacation that ran out by itself), queued in that transaction."""
        user_id = vacation.user_id
        now = self._store.now()

        async def store(tx: Session) -> tuple[VacationStatus, list[datetime]] | None:
            await tx.vacations.lock(user_id)  # no start reads the allowance half-changed
            if not await tx.vacations.end(vacation.id, at):
                return None
            wake = []
            for game in await tx.games.active_for(user_id):
                moved = resumed(game, user_id, vacation, at)
                if moved is None:
                    continue
                await tx.games.restart_clock(
                    game.id,
                    game.ply,
                    sente_bank=game.sente_bank,
                    gote_bank=game.gote_bank,
                    turn_started_at=moved.turn_started_at,
                )
                bank = moved.sente_bank if moved.sente.user_id == user_id else moved.gote_bank
                due = due_at(moved.turn_started_at, bank, moved.terms.period)
                if due is not None:
                    remind = max(reminder_at(moved.turn_started_at, due), min(at, due))
                    await tx.deadlines.set(DeadlineRow(game.id, user_id, due, remind))
                    wake.append(due)
            if queued:
                await queue_for_player(tx, Send.VACATION, user_id, now)
            return await self._status(tx, user_id, now), wake

        done = await self._store.db.run(store)
        if done is None:
            return None
        if queued:
            self._store.doorbell.ring()
        status, wake = done
        for due in wake:
            self._store.deadline_set(due)
        ended = VacationRow(vacation.id, user_id, vacation.started_at, vacation.ends_by, at)
        log.info("player %s: vacation ended (%s used)", user_id, charged(ended))
        return VacationChange(ended, await self._games(user_id), status)

    async def _games(self, user_id: int) -> list[GameSnapshot]:
        async with self._store.db.query() as q:
            rows = await q.games.active_for(user_id)
        return [await self._store.load(row.id) for row in rows]
