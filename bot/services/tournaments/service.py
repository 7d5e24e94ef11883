"""`Tournaments`: the tournament service the Discord layer calls, composed of its parts
(`Registration`: set-up, entering, leaving, settings; `Progress`: start, results,
withdrawal, end) over the one game store, with the views it posts (standings, bracket)."""

from __future__ import annotations

from bot.db import ScheduledGameRow, Session

from ..play.store import GameStore
from .model import Tournament, entrant_of
from .pairings import Entrant
from .progress import Progress
from .ranking import Standing
from .registration import Registration
from .schedule import Bracket, bracket, group_standings


class Tournaments(Registration, Progress):
    """Every tournament action (see `Registration` and `Progress`) and its views.

    Example::

        t = await service.tournaments.create(guild_id=1, channel_id=2, organizer=alice,
                                             may_manage=True, name="春季リーグ",
                                             format="round_robin", start_at=monday)
        await service.tournaments.join(t.id, bob, guild_id=1)
        change = await service.tournaments.start(t.id, alice.user_id, guild_id=1,
                                                 may_manage=True)
        change.games_created  # normal games: open a thread for each
    """

    def __init__(self, store: GameStore) -> None:
        Registration.__init__(self, store)
        Progress.__init__(self, store, self)

    async def standings(self, tournament_id: int) -> dict[int, tuple[Standing, ...]]:
        """A round robin's table by group (`ranking.standings`, the withdrawal rule
        applied); empty before the start."""

        async def read(tx: Session) -> dict[int, tuple[Standing, ...]]:
            tournament, entrants, rows, withdrawn = await _everything(tx, tournament_id)
            if (
                tournament is None
                or tournament.entrants == ()
                or any(e.group is None for e in tournament.entrants)
            ):
                return {}
            groups = {e.user_id: e.group or 1 for e in tournament.entrants}
            return group_standings(tournament.row, entrants, groups, rows, withdrawn)

        return await self._store.db.run(read, write=False)

    async def bracket(self, tournament_id: int) -> Bracket | None:
        """A knockout's matches round by round, their winners and champion; None before
        the start or for a round robin."""

        async def read(tx: Session) -> Bracket | None:
            tournament, entrants, rows, withdrawn = await _everything(tx, tournament_id)
            if tournament is None or tournament.format != "knockout" or not rows:
                return None
            return bracket(tournament.row, entrants, rows, withdrawn)

        return await self._store.db.run(read, write=False)


_Everything = tuple[Tournament | None, list[Entrant], list[ScheduledGameRow], set[int]]


async def _everything(tx: Session, tournament_id: int) -> _Everything:
    """The tournament, its entrants as seeded, its scheduled games and who withdrew."""
    row = await tx.tournaments.get(tournament_id)
    if row is None:
        return None, [], [], set()
    stored = await tx.tournaments.entrants(tournament_id)
    tournament = Tournament(row, tuple(entrant_of(e) for e in stored))
    entrants = [Entrant(e.user_id, e.rating or 0.0) for e in stored]
    withdrawn = {e.user_id for e in stored if e.withdrawn_at is not None}
    return tournament, entrants, await tx.tournaments.scheduled(tournament_id), withdrawn
