"""Setting up a tournament and its registration: who may create one (a member who may
manage the server, or holds the role the server chose), joining and leaving before the
start, and the server's tournament settings. Each action is one transaction; each
refusal one sentence."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime
from fractions import Fraction

from bot.db import Conflict, NewTournament, Session, Terms, TournamentRow
from rules import Handicap, Sentence

from ..clock.clocks import TimeControl
from ..errors import NotFound, ServiceError
from ..play.game import ImpasseRule, PlayerRef, TakebackPolicy
from ..play.store import GameStore
from ..ratings.glicko2 import DEFAULT
from .handicaps import HandicapTable
from .model import (
    MAX_GAME_CAP,
    MAX_GROUP,
    MAX_NAME,
    MAX_OPEN_TOURNAMENTS,
    Format,
    Runner,
    State,
    Tournament,
    TournamentChange,
    entrant_of,
    scoring_text,
)
from .pairings import MAX_PLAYERS
from .waves import fill

NO_SUCH_TOURNAMENT = Sentence("There is no such tournament in this server.")
NOT_AN_ORGANIZER = Sentence(
    "Only a member who may manage this server, or who has its tournament organizer role, "
    "can create or run a tournament."
)


class Registration:
    """A tournament's set-up and registration, and the server's tournament settings."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organizer: PlayerRef,
        may_manage: bool,
        role_ids: Collection[int] = (),
        name: str,
        format: Format | str,
        start_at: datetime,
        registration_closes_at: datetime | None = None,
        max_players: int = 32,
        group_size: int | None = None,
        match_games: int = 1,
        time_control: TimeControl | str = "3d",
        impasse_rule: ImpasseRule | str = "27",
        takebacks: TakebackPolicy | str = TakebackPolicy.NEVER,
        rated: bool = True,
        scoring: tuple[Fraction, Fraction, Fraction] = (Fraction(1), Fraction(1, 2), Fraction(0)),
        rating_band: tuple[int | None, int | None] = (None, None),
        handicap_table: str | None = None,
    ) -> Tournament:
        """Create a tournament open for registration. `may_manage` (the member may manage
        the server) and `role_ids` (their roles) are the caller's to give: either that or
        the server's organizer role lets them. `handicap_table` is a table's text
        (`HandicapTable.parse`; `HandicapTable.default().text()` for the club tradition),
        None for even games; a knockout is even (its games alternate colours).

        Example: `await registration.create(guild_id=1, channel_id=2, organizer=alice,
        may_manage=True, name="春季リーグ", format="round_robin", start_at=monday)`.
        """
        chosen = Format(format) if format in set(Format) else None
        if chosen is None:
            raise ServiceError(
                Sentence("A tournament is a round robin, a double round robin or a knockout.")
            )
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME:
            raise ServiceError(
                Sentence("A tournament's name is 1 to {count} characters.", count=MAX_NAME)
            )
        now = self._store.now()
        closes = start_at if registration_closes_at is None else registration_closes_at
        if start_at <= now:
            raise ServiceError(Sentence("A tournament's start must be in the future."))
        if not now < closes <= start_at:
            raise ServiceError(
                Sentence("Registration must close after now and no later than the start.")
            )
        if not 2 <= max_players <= MAX_PLAYERS:
            raise ServiceError(
                Sentence("A tournament takes 2 to {count} players.", count=MAX_PLAYERS)
            )
        if chosen is Format.KNOCKOUT:
            if match_games not in (1, 2):
                raise ServiceError(Sentence("A knockout pairing is one game or two."))
            if handicap_table is not None:
                raise ServiceError(
                    Sentence("A knockout is played without handicaps: its games swap colours.")
                )
        elif group_size is not None and not 2 <= group_size <= MAX_GROUP:
            raise ServiceError(Sentence("A group has 2 to {count} players.", count=MAX_GROUP))
        elif group_size is None and max_players > MAX_GROUP:
            raise ServiceError(
                Sentence(
                    "A round robin of more than {count} players is played in groups: "
                    "choose a group size.",
                    count=MAX_GROUP,
                )
            )
        low, high = rating_band
        if low is not None and high is not None and low > high:
            raise ServiceError(Sentence("The lowest rating must not be above the highest."))
        win, draw, loss = scoring
        if (
            not (0 <= loss <= draw <= win)
            or win == 0
            or max(x.denominator for x in scoring) > 4
            or win > 10
        ):
            raise ServiceError(
                Sentence(
                    "Points must be at most 10, in halves or quarters, with a win above 0 "
                    "and worth at least a draw, and a draw at least a loss."
                )
            )
        table = None if handicap_table is None else HandicapTable.parse(handicap_table).text()
        new = NewTournament(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            format=chosen.value,
            group_size=None if chosen is Format.KNOCKOUT else group_size,
            match_games=match_games if chosen is Format.KNOCKOUT else None,
            terms=even_terms(time_control, impasse_rule, takebacks, rated and table is None),
            scoring=(scoring_text(win), scoring_text(draw), scoring_text(loss)),
            start_at=start_at,
            registration_closes_at=closes,
            max_players=max_players,
            min_rating=low,
            max_rating=high,
            handicap_table=table,
            organizer_id=organizer.user_id,
            created_at=now,
        )

        async def store(tx: Session) -> int:
            await self.require_organizer(tx, guild_id, may_manage, role_ids)
            await tx.tournaments.lock_server(guild_id)  # two creations count in turn
            held = await tx.tournaments.in_guild(guild_id, [State.REGISTRATION, State.RUNNING])
            if len(held) >= MAX_OPEN_TOURNAMENTS:
                raise ServiceError(
                    Sentence(
                        "This server already has {count} tournaments open or under way, "
                        "the most it may have at once.",
                        count=MAX_OPEN_TOURNAMENTS,
                    )
                )
            await tx.players.upsert(organizer.to_row(), now)
            return await tx.tournaments.create(new)

        tournament_id = await self._store.db.run(store)
        self._store.deadline_set(start_at)  # the clock starts it then
        return await self.get(tournament_id, guild_id=guild_id)

    async def require_organizer(
        self, tx: Session, guild_id: int, may_manage: bool, role_ids: Collection[int]
    ) -> None:
        await require_organizer(tx, guild_id, may_manage, role_ids)

    async def get(self, tournament_id: int, *, guild_id: int | None = None) -> Tournament:
        """The tournament and its entrants; with `guild_id`, another server's does not
        exist."""

        async def read(tx: Session) -> Tournament:
            row = await tx.tournaments.get(tournament_id)
            if row is None or (guild_id is not None and row.setup.guild_id != guild_id):
                raise NotFound(NO_SUCH_TOURNAMENT)
            entrants = await tx.tournaments.entrants(tournament_id)
            return Tournament(row, tuple(entrant_of(e) for e in entrants))

        return await self._store.db.run(read, write=False)

    async def in_server(self, guild_id: int, states: Collection[State]) -> list[Tournament]:
        """The server's tournaments in these states, oldest first (without entrants)."""
        async with self._store.db.read() as tx:
            rows = await tx.tournaments.in_guild(guild_id, [state.value for state in states])
        return [Tournament(row, ()) for row in rows]

    async def join(self, tournament_id: int, player: PlayerRef, *, guild_id: int) -> Tournament:
        """Enter `player`: while registration is open, within the rating band, below the
        maximum, once."""
        if player.is_bot:
            raise ServiceError(Sentence("Bots cannot play shogi here; only a member can enter."))
        now = self._store.now()

        async def store(tx: Session) -> None:
            row = await self.held(tx, tournament_id, guild_id)
            setup = row.setup
            if row.state != State.REGISTRATION or now >= setup.registration_closes_at:
                raise ServiceError(Sentence("Registration for this tournament is closed."))
            rating = await tx.ratings.get(guild_id, player.user_id)
            value = DEFAULT.rating if rating is None else rating.rating
            low, high = setup.min_rating, setup.max_rating
            if (low is not None and value < low) or (high is not None and value > high):
                raise ServiceError(_band(low, high, value))
            if await tx.tournaments.count_entrants(tournament_id) >= setup.max_players:
                raise ServiceError(
                    Sentence("This tournament is full ({count} players).", count=setup.max_players)
                )
            await tx.players.upsert(player.to_row(), now)
            await tx.tournaments.join(tournament_id, player.user_id, now)

        try:
            await self._store.db.run(store)
        except Conflict:
            raise ServiceError(Sentence("You have already entered this tournament.")) from None
        return await self.get(tournament_id)

    async def leave(self, tournament_id: int, user_id: int, *, guild_id: int) -> Tournament:
        """Leave before the start (after it, `withdraw`)."""

        async def store(tx: Session) -> None:
            row = await self.held(tx, tournament_id, guild_id)
            if row.state == State.RUNNING:
                raise ServiceError(
                    Sentence(
                        "This tournament has started: withdraw instead (your remaining "
                        "games are then forfeited)."
                    )
                )
            if row.state != State.REGISTRATION:
                raise ServiceError(Sentence("This tournament is over."))
            if not await tx.tournaments.leave(tournament_id, user_id):
                raise ServiceError(Sentence("You have not entered this tournament."))

        await self._store.db.run(store)
        return await self.get(tournament_id)

    async def cancel(self, tournament_id: int, by: Runner, *, guild_id: int) -> Tournament:
        """The organizer (or a manager) cancels a tournament before it starts."""

        async def store(tx: Session) -> None:
            row = await self.run_by(tx, tournament_id, guild_id, by)
            if row.state != State.REGISTRATION:
                raise ServiceError(
                    Sentence("Only a tournament that has not started can be cancelled.")
                )
            await tx.tournaments.change_state(
                tournament_id, State.REGISTRATION, State.CANCELLED, self._store.now()
            )

        await self._store.db.run(store)
        return await self.get(tournament_id)

    async def run_by(
        self, tx: Session, tournament_id: int, guild_id: int, by: Runner
    ) -> TournamentRow:
        """The tournament held (`held`), if `by` may run it: its organizer, a member who
        may manage the server, or one with the server's organizer role."""
        row = await self.held(tx, tournament_id, guild_id)
        if row.setup.organizer_id != by.user_id:
            await self.require_organizer(tx, guild_id, by.may_manage, by.role_ids)
        return row

    async def held(self, tx: Session, tournament_id: int, guild_id: int) -> TournamentRow:
        """The server's tournament, held for this transaction (`hold`); refused if there
        is no such tournament in the server."""
        row = await tx.tournaments.hold(tournament_id)
        if row is None or row.setup.guild_id != guild_id:
            raise NotFound(NO_SUCH_TOURNAMENT)
        return row

    async def set_organizer_role(self, guild_id: int, role_id: int | None) -> None:
        """The role whose members may run tournaments besides the managers (None: only
        they). The caller checks that the member may manage the server."""
        async with self._store.db.transaction() as tx:
            await tx.tournaments.set_organizer_role(guild_id, role_id)

    async def set_game_cap(self, guild_id: int, cap: int | None) -> list[TournamentChange]:
        """How many tournament games may be under way at once in the server (None: the
        default); at most `MAX_GAME_CAP`. A larger cap starts waiting games at once: the
        changes say which (a smaller one lets the games under way finish)."""
        if cap is not None and not 1 <= cap <= MAX_GAME_CAP:
            raise ServiceError(
                Sentence(
                    "At most {count} tournament games can be under way at once in a server.",
                    count=MAX_GAME_CAP,
                )
            )

        async def store(tx: Session) -> tuple[dict[int, list[int]], datetime | None]:
            await tx.tournaments.set_game_cap(guild_id, cap)
            return await fill(tx, guild_id, self._store.now())

        created, due = await self._store.db.run(store)
        if due is not None:
            self._store.deadline_set(due)
        return [
            TournamentChange(tournament_id, games_created=tuple(games))
            for tournament_id, games in sorted(created.items())
        ]

    async def set_message(self, tournament_id: int, message_id: int | None) -> None:
        """Remember the tournament's announcement (the standings are edited into it)."""
        async with self._store.db.transaction() as tx:
            if not await tx.tournaments.set_message(tournament_id, message_id):
                raise NotFound(NO_SUCH_TOURNAMENT)


def _band(low: int | None, high: int | None, rating: float) -> Sentence:
    shown = round(rating)
    if low is None:
        return Sentence(
            "This tournament is for ratings up to {high}; yours is {rating}.",
            high=high,
            rating=shown,
        )
    if high is None:
        return Sentence(
            "This tournament is for ratings from {low}; yours is {rating}.",
            low=low,
            rating=shown,
        )
    return Sentence(
        "This tournament is for ratings from {low} to {high}; yours is {rating}.",
        low=low,
        high=high,
        rating=shown,
    )


async def require_organizer(
    tx: Session,
    guild_id: int,
    may_manage: bool,
    role_ids: Collection[int],
    refusal: Sentence = NOT_AN_ORGANIZER,
) -> None:
    """Inside `tx`: refuse (with `refusal`) a member who may not manage the server and
    lacks its organizer role (tournaments and team matches alike)."""
    if may_manage:
        return
    role, _ = await tx.tournaments.settings(guild_id)
    if role is None or role not in role_ids:
        raise ServiceError(refusal)


def even_terms(
    time_control: TimeControl | str,
    impasse_rule: ImpasseRule | str,
    takebacks: TakebackPolicy | str,
    rated: bool,
) -> Terms:
    """The terms of an event's even games, from its organizer's options (each parsed, a
    bad one refused with its sentence): a tournament's and a team match's alike."""
    control = TimeControl.parse(time_control)
    return Terms(
        bank=control.bank,
        period=control.period,
        handicap=Handicap.EVEN.id,
        impasse_rule=ImpasseRule.parse(impasse_rule).value,
        takebacks=TakebackPolicy.parse(takebacks).value,
        rated=rated,
    )
