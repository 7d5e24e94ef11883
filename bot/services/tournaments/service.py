"""`Tournaments`: the tournament service the Discord layer calls, composed of its parts
(`Registration`: set-up, entering, leaving, settings; `Progress`: start, results,
withdrawal, end) over the one game store, with the views it posts (standings, bracket)."""

from __future__ import annotations

from bot.db import ScheduledGameRow, Session

from ..play.store import GameStore
from .model import Format, Tournament, entrant_of
from .progress import Progress
from .ranking import Standing
from .registration import Registration
from .schedule import Bracket, Field, bracket, field_of, group_standings


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
        applied); empty before the start and for a knockout (see `bracket`)."""

        async def read(tx: Session) -> dict[int, tuple[Standing, ...]]:
            tournament, field, rows = await _everything(tx, tournament_id)
            if tournament is None or tournament.format == Format.KNOCKOUT or not rows:
                return {}
            return group_standings(
                tournament.row, field.entrants, field.groups, rows, field.withdrawn
            )

        return await self._store.db.run(read, write=False)

    async def bracket(self, tournament_id: int) -> Bracket | None:
        """A knockout's matches round by round, their winners and champion; None before
        the start or for a round robin."""

        async def read(tx: Session) -> Bracket | None:
            tournament, field, rows = await _everything(tx, tournament_id)
            if tournament is None or tournament.format != Format.KNOCKOUT or not rows:
                return None
            return bracket(tournament.row, field.entrants, rows, field.withdrawn)

        return await self._store.db.run(read, write=False)


_Everything = tuple[Tournament | None, Field, list[ScheduledGameRow]]


async def _everything(tx: Session, tournament_id: int) -> _Everything:
    """The tournament, its field and its scheduled games."""
    row = await tx.tournaments.get(tournament_id)
    stored = [] if row is None else await tx.tournaments.entrants(tournament_id)
    tournament = None if row is None else Tournament(row, tuple(entrant_of(e) for e in stored))
    return tournament, field_of(stored), await tx.tournaments.scheduled(tournament_id)
