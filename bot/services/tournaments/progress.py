"""A running tournament, moved on: started (seeded by rating, paired, its first games
created), its results acted on (standings, a knockout's next game or round, replays of
aborted or drawn games as the format says), withdrawals, and its end.

Every step runs in one transaction that first holds the tournament's row, so the steps of
one tournament take turns across processes; each is decided by a conditional write (the
start by `state = 'registration'`, each result by `settled = 0`), so a step retried after
a restart or raced by another process does nothing twice. Games are created by `fill`
in the same transaction, up to the server's cap.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime

from bot.db import (
    EntrantRow,
    NewScheduledGame,
    ScheduledGameRow,
    Session,
    ShardScope,
    TournamentRow,
)
from rules import Outcome, Sentence, Termination

from ..errors import ServiceError
from ..play.store import GameStore
from ..ratings.glicko2 import DEFAULT
from .model import Format, Runner, State, TournamentChange
from .pairings import Entrant
from .ranking import Standing
from .registration import Registration
from .schedule import (
    RESULTS,
    bracket,
    field_of,
    first_schedule,
    group_standings,
    pair_knockout_round,
    round_robin_done,
    round_robin_replays,
    seeding,
)
from .waves import fill

log = logging.getLogger(__name__)

#: Who hears of what the clock did (a tournament started at its time, a result acted on
#: by the deadline check): the Discord layer posts it.
ChangeListener = Callable[[TournamentChange], Awaitable[None]]


@dataclass
class _Step:
    """What one transaction did, gathered as it goes."""

    games: dict[int, list[int]] = field(default_factory=dict)
    round_started: dict[int, int] = field(default_factory=dict)
    standings: set[int] = field(default_factory=set)
    finished: dict[int, tuple[int, ...]] = field(default_factory=dict)
    cancelled: set[int] = field(default_factory=set)
    tables: dict[int, tuple[tuple[Standing, ...], ...]] = field(default_factory=dict)
    due: datetime | None = None

    def changes(self, first: int) -> list[TournamentChange]:
        ids = sorted(
            {first}
            | set(self.games)
            | set(self.round_started)
            | self.standings
            | set(self.finished)
            | self.cancelled
        )
        changes = [
            TournamentChange(
                tournament_id=tid,
                games_created=tuple(self.games.get(tid, ())),
                round_started=self.round_started.get(tid),
                standings_changed=tid in self.standings,
                finished=tid in self.finished,
                winners=self.finished.get(tid, ()),
                cancelled=tid in self.cancelled,
                tables=self.tables.get(tid, ()),
            )
            for tid in ids
        ]
        return sorted(changes, key=lambda change: change.tournament_id != first)


class Progress:
    """Starting, acting on results, withdrawing: everything that moves a tournament on."""

    def __init__(self, store: GameStore, registration: Registration) -> None:
        self._store = store
        self._registration = registration
        self._listeners: list[ChangeListener] = []

    def add_listener(self, listener: ChangeListener) -> None:
        """`listener(change)` hears what the clock did on its own (`run_due`)."""
        self._listeners.append(listener)

    # ----------------------------------------------------------------- the start

    async def start(self, tournament_id: int, by: Runner, *, guild_id: int) -> TournamentChange:
        """The organizer (or a manager) starts the tournament now, before its time."""

        async def store(tx: Session, step: _Step) -> None:
            row = await self._registration.run_by(tx, tournament_id, guild_id, by)
            if row.state != State.REGISTRATION:
                raise ServiceError(Sentence("This tournament has already started or ended."))
            await self._start(tx, row, step)

        return (await self._run(tournament_id, store))[0]

    async def run_due(self, scope: ShardScope | None = None) -> list[TournamentChange]:
        """What the clock does: start the tournaments whose time has come and act on
        results not acted on yet (a process stopped between a game's end and the
        tournament's step); each told to the listeners, and returned."""
        now = self._store.now()
        async with self._store.db.read() as tx:
            due = await tx.tournaments.due(now, scope)
            unsettled = await tx.tournaments.with_results_unsettled(scope)
        changes: list[TournamentChange] = []
        for tournament_id in due:  # one that fails is logged; the others go on
            try:
                changes += await self._run(tournament_id, self._due_start(tournament_id))
            except Exception:
                log.exception("could not start tournament %s", tournament_id)
        for tournament_id in unsettled:
            try:
                changes += await self.act_on_results(tournament_id)
            except Exception:
                log.exception("could not act on tournament %s's results", tournament_id)
        changes = [change for change in changes if change.anything]
        for change in changes:
            for listener in self._listeners:
                try:
                    await listener(change)
                except Exception:
                    log.exception("a listener failed on tournament %s", change.tournament_id)
        return changes

    async def next_start(self, scope: ShardScope | None = None) -> datetime | None:
        async with self._store.db.query() as q:
            return await q.tournaments.next_start(scope)

    async def _start(self, tx: Session, row: TournamentRow, step: _Step) -> None:
        now = self._store.now()
        stored = await tx.tournaments.entrants(row.id)
        if len(stored) < 2:
            await tx.tournaments.change_state(row.id, State.REGISTRATION, State.CANCELLED, now)
            step.cancelled.add(row.id)
            return
        entrants = []
        for entrant in stored:
            rating = await tx.ratings.get(row.setup.guild_id, entrant.user_id)
            seeded_by = DEFAULT.rating if rating is None else rating.rating
            entrants.append(Entrant(entrant.user_id, seeded_by))
        placed = seeding(row, entrants)
        await tx.tournaments.seed(
            row.id,
            [
                (e.player, e.rating, placed.seeds[e.player], placed.groups[e.player])
                for e in entrants
            ],
        )
        await tx.tournaments.schedule(first_schedule(row, entrants, placed, self._store.rng))
        if not await tx.tournaments.change_state(row.id, State.REGISTRATION, State.RUNNING, now):
            raise RuntimeError("the held tournament changed state")
        step.round_started[row.id] = 1
        log.info("tournament %s started with %s players", row.id, len(entrants))

    # ----------------------------------------------------------------- results

    async def game_ended(self, game_id: int) -> list[TournamentChange]:
        """After any game's end (the Discord layer calls it once it posted the ending):
        if the game is a tournament's, act on its result; what changed (nothing for
        another game)."""
        async with self._store.db.query() as q:
            scheduled = await q.tournaments.of_game(game_id)
        if scheduled is None or scheduled.result is None:
            return []
        return await self.act_on_results(scheduled.game.tournament_id)

    async def act_on_results(
        self, tournament_id: int, *, withdrawal: bool = False
    ) -> list[TournamentChange]:
        """Act on every result of the tournament not acted on yet, once: standings, the
        games the format calls for next, the end. The changes, this tournament's first
        (another tournament of the server may get games from the slots freed). After a
        `withdrawal` the standings change even without a new result."""

        async def store(tx: Session, step: _Step) -> None:
            row = await tx.tournaments.hold(tournament_id)
            if row is None or row.state != State.RUNNING:
                return
            if withdrawal:
                step.standings.add(row.id)
            await self._act(tx, row, step)

        return [change for change in await self._run(tournament_id, store) if change.anything]

    async def _act(self, tx: Session, row: TournamentRow, step: _Step) -> None:
        rows = await tx.tournaments.scheduled(row.id)
        stored = await tx.tournaments.entrants(row.id)
        fresh = [r for r in rows if r.result is not None and not r.settled]
        for scheduled in fresh:
            await tx.tournaments.settle(scheduled.id)
            # A knockout's drawn game is replayed: its bracket stays as it was.
            drawn_out = scheduled.result == "draw" and row.setup.format == Format.KNOCKOUT
            if scheduled.result in RESULTS and not drawn_out:
                step.standings.add(row.id)
        await self._advance(tx, row, rows, stored, step)

    async def _advance(
        self,
        tx: Session,
        row: TournamentRow,
        rows: list[ScheduledGameRow],
        stored: list[EntrantRow],
        step: _Step,
    ) -> None:
        """Schedule what the results call for, or finish the tournament."""
        field = field_of(stored)
        entrants, withdrawn = list(field.entrants), set(field.withdrawn)
        now = self._store.now()
        if row.setup.format == Format.KNOCKOUT:
            await self._advance_knockout(tx, row, rows, entrants, withdrawn, step)
            return
        replays = round_robin_replays(rows, withdrawn)
        await _schedule(tx, replays)
        tables = group_standings(row, entrants, field.groups, rows, withdrawn)
        if row.id in step.standings:
            step.tables[row.id] = tuple(tables[group] for group in sorted(tables))
        if not replays and round_robin_done(rows, withdrawn):
            winners = tuple(
                line.player for table in tables.values() for line in table if line.rank == 1
            )
            await self._finish(tx, row, winners, now, step)

    async def _advance_knockout(
        self,
        tx: Session,
        row: TournamentRow,
        rows: list[ScheduledGameRow],
        entrants: list[Entrant],
        withdrawn: set[int],
        step: _Step,
    ) -> None:
        """Schedule the knockout's next games until it needs none: a match's next game,
        the next round once one is decided (a match with a withdrawn player is decided
        without its game, which is never created, so the round after may follow at once),
        or name its champion."""
        while True:
            state = bracket(row, entrants, rows, withdrawn)
            if state.champion is not None:
                await self._finish(tx, row, (state.champion,), self._store.now(), step)
                return
            needed = [view.needs for r in state.rounds for view in r if view.needs is not None]
            if state.next_round:
                number = len(state.rounds) + 1
                needed += pair_knockout_round(row, state.next_round, number, self._store.rng)
                step.round_started[row.id] = number
            if not needed:
                return
            await tx.tournaments.schedule(needed)
            rows = await tx.tournaments.scheduled(row.id)

    async def _finish(
        self, tx: Session, row: TournamentRow, winners: tuple[int, ...], now: datetime, step: _Step
    ) -> None:
        if await tx.tournaments.change_state(row.id, State.RUNNING, State.FINISHED, now):
            step.finished[row.id] = winners
            log.info("tournament %s finished: %s", row.id, winners)

    # ----------------------------------------------------------------- withdrawal

    async def withdraw(
        self, tournament_id: int, user_id: int, *, guild_id: int
    ) -> list[TournamentChange]:
        """A player leaves a running tournament: their games not yet created are never
        created, those under way end without a result (their opponents are told as of
        any ending), and the standings follow the withdrawal rule (`ranking`): annulled
        before half their games were finished, else their unfinished games forfeited. In
        a knockout they lose their match."""

        async def store(tx: Session) -> list[int]:
            row = await self._registration.held(tx, tournament_id, guild_id)
            if row.state == State.REGISTRATION:
                raise ServiceError(Sentence("This tournament has not started: leave it instead."))
            if row.state != State.RUNNING:
                raise ServiceError(Sentence("This tournament is over."))
            if not await tx.tournaments.withdraw(tournament_id, user_id, self._store.now()):
                raise ServiceError(Sentence("You are not playing in this tournament."))
            rows = await tx.tournaments.scheduled(tournament_id)
            return [
                r.game_id
                for r in rows
                if r.game_id is not None
                and r.result is None
                and user_id in (r.game.sente_id, r.game.gote_id)
            ]

        under_way = await self._store.db.run(store)
        aborted = Outcome(Termination.ABORT, None)
        for game_id in under_way:
            game = await self._store.load(game_id)
            await self._store.finish(
                game, aborted, expected_ply=None, at=self._store.now(), queued=True
            )
        if under_way:
            self._store.doorbell.ring()  # the endings wait in the outbox
        return await self.act_on_results(tournament_id, withdrawal=True)

    # ----------------------------------------------------------------- the transaction

    async def _run(
        self, tournament_id: int, work: Callable[[Session, _Step], Awaitable[None]]
    ) -> list[TournamentChange]:
        """`work` and the games it makes room for, in one transaction; what changed."""

        async def run(tx: Session) -> _Step:
            done = _Step()  # afresh on every attempt of the transaction
            await work(tx, done)
            row = await tx.tournaments.get(tournament_id)
            if row is not None:  # slots a finished tournament freed go to the others
                created, due = await fill(tx, row.setup.guild_id, self._store.now())
                done.games = dict(created)
                done.due = due
            return done

        step = await self._store.db.run(run)
        if step.due is not None:
            self._store.deadline_set(step.due)
        return step.changes(tournament_id)

    def _due_start(self, tournament_id: int) -> Callable[[Session, _Step], Awaitable[None]]:
        async def start(tx: Session, step: _Step) -> None:
            row = await tx.tournaments.hold(tournament_id)
            now = self._store.now()
            if row is None or row.state != State.REGISTRATION or row.setup.start_at > now:
                return  # started by another process, or by its organizer, meanwhile
            await self._start(tx, row, step)

        return start


async def _schedule(tx: Session, games: list[NewScheduledGame]) -> None:
    if games:
        await tx.tournaments.schedule(games)
