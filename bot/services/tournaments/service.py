"""`Tournaments`: the tournament service the Discord layer calls, composed of its parts
(`Registration`: set-up, entering, leaving, settings; `Progress`: start, results,
withdrawal, end) over the one game store, with the views it posts (standings, bracket)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection

from bot.db import ScheduledGameRow, Session, ShardScope, TournamentRow
from render import bracket as drawing
from render.crosstable import Crosstable

from ..play.store import GameStore
from .model import Format, State, Tournament, entrant_of
from .progress import Progress
from .ranking import Game, Standing
from .registration import Registration
from .schedule import (
    RESULTS,
    Bracket,
    Field,
    bracket,
    field_of,
    group_standings,
    latest_attempts,
)
from .tables import crosstable, drawn_bracket

#: How many of a server's latest tournaments a member's profile looks through.
PROFILE_LOOKBACK = 20


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

    async def bracket_drawing(self, tournament_id: int) -> drawing.Bracket | None:
        """A knockout's bracket as it is drawn, each player named as the bot last saw
        them; None before the start, for a round robin, or past the players one image
        draws (the bracket is then shown as text)."""

        async def read(tx: Session) -> drawing.Bracket | None:
            tournament, field, rows = await _everything(tx, tournament_id)
            if tournament is None or tournament.format != Format.KNOCKOUT or not rows:
                return None
            state = bracket(tournament.row, field.entrants, rows, field.withdrawn)
            if len(state.rounds[0]) > drawing.MAX_PLAYERS // 2:
                return None
            names = await _names(tx, [e.player for e in field.entrants])
            return drawn_bracket(state, field.entrants, names, withdrawn=field.withdrawn)

        return await self._store.db.run(read, write=False)

    async def crosstables(self, tournament_id: int) -> list[Crosstable]:
        """A round robin's crosstables, one a group (titled by its number when there are
        several), each player named as the bot last saw them; empty before the start and
        for a knockout."""

        async def read(tx: Session) -> list[Crosstable]:
            tournament, field, rows = await _everything(tx, tournament_id)
            if tournament is None or tournament.format == Format.KNOCKOUT or not rows:
                return []
            tables = group_standings(
                tournament.row, field.entrants, field.groups, rows, field.withdrawn
            )
            names = await _names(tx, [e.player for e in field.entrants])
            games: dict[int, list[Game]] = defaultdict(list)
            for row in latest_attempts(rows):
                result = None if row.result is None else RESULTS.get(row.result)
                games[row.game.group_number].append(
                    Game(row.game.sente_id, row.game.gote_id, result)
                )
            per_pair = 2 if tournament.format == Format.DOUBLE_ROUND_ROBIN else 1
            drawn = []
            for group in sorted(tables):
                if len(tables[group]) < 2:
                    continue
                title = str(group) if len(tables) > 1 else None
                drawn.append(
                    crosstable(
                        tables[group],
                        games[group],
                        names,
                        withdrawn=field.withdrawn,
                        games_per_pair=per_pair,
                        title=title,
                    )
                )
            return drawn

        return await self._store.db.run(read, write=False)

    async def names(self, user_ids: Collection[int]) -> dict[int, str]:
        """The players' names as the bot last saw them (their id for one never seen)."""
        return await self._store.db.run(lambda tx: _names(tx, user_ids), write=False)

    async def placement(self, game_id: int) -> tuple[Tournament, ScheduledGameRow] | None:
        """The tournament a game belongs to and its place there (round, board), or None
        for a game of no tournament."""
        async with self._store.db.read() as tx:
            scheduled = await tx.tournaments.of_game(game_id)
            if scheduled is None:
                return None
            row = await tx.tournaments.get(scheduled.game.tournament_id)
        if row is None:
            return None
        return Tournament(row, ()), scheduled

    async def awaiting_first_post(
        self, limit: int, scope: ShardScope | None = None, *, skip_guilds: Collection[int] = ()
    ) -> list[tuple[int, int]]:
        """Up to `limit` event games waiting for their thread and first post, as (game id,
        server id), the servers taking turns (each one's oldest, then each one's next): the
        games of running tournaments and of team matches under way, created and waiting for
        the Discord layer's opener (or whose process stopped first), leaving out the servers
        `skip_guilds` (at Discord's cap on active threads)."""
        async with self._store.db.read() as tx:
            return await tx.tournaments.awaiting_first_post(limit, scope, skip_guilds=skip_guilds)

    async def schedule_of(self, tournament_id: int) -> list[ScheduledGameRow]:
        """Every scheduled game of the tournament, as stored."""
        async with self._store.db.read() as tx:
            return await tx.tournaments.scheduled(tournament_id)

    async def latest(
        self, guild_id: int, states: Collection[State], *, limit: int, number: int | None = None
    ) -> list[Tournament]:
        """The server's newest `limit` tournaments in these states, newest first (without
        entrants), the one numbered `number` first when it is one of them: what a
        command's `tournament` option suggests. Each state is read newest first and
        stopped at `limit`, so a server with thousands of finished tournaments costs no
        more than one with a few.

        Example: `await tournaments.latest(guild, [State.REGISTRATION], limit=25)` lists
        the tournaments `/tournament_start` may start, the newest first."""
        wanted = [state.value for state in states]

        async def read(tx: Session) -> tuple[TournamentRow | None, list[TournamentRow]]:
            named = None if number is None else await tx.tournaments.get(number)
            if named is not None and (
                named.setup.guild_id != guild_id or named.state not in wanted
            ):
                named = None
            newest = []
            for state in wanted:
                newest += await tx.tournaments.latest_in_guild(guild_id, state, limit)
            return named, newest

        named, newest = await self._store.db.run(read, write=False)
        newest.sort(key=lambda row: row.id, reverse=True)
        chosen = [] if named is None else [named]
        chosen += [row for row in newest if named is None or row.id != named.id]
        return [Tournament(row, ()) for row in chosen[:limit]]

    async def of_member(self, guild_id: int, user_id: int) -> list[tuple[Tournament, int | None]]:
        """The server's tournaments `user_id` entered, newest first, each with the rank
        they hold in its table (a round robin under way or finished; None otherwise)."""
        latest = await self.latest(guild_id, list(State), limit=PROFILE_LOOKBACK)
        found: list[tuple[Tournament, int | None]] = []
        for row in latest:
            tournament = await self.get(row.id)
            if all(e.user_id != user_id for e in tournament.entrants):
                continue
            rank = None
            if tournament.format != Format.KNOCKOUT:
                for table in (await self.standings(row.id)).values():
                    rank = next((s.rank for s in table if s.player == user_id), rank)
            found.append((tournament, rank))
        return found


async def _names(tx: Session, user_ids: Collection[int]) -> dict[int, str]:
    names = {}
    for user_id in user_ids:
        player = await tx.players.get(user_id)
        names[user_id] = str(user_id) if player is None else player.name
    return names


_Everything = tuple[Tournament | None, Field, list[ScheduledGameRow]]


async def _everything(tx: Session, tournament_id: int) -> _Everything:
    """The tournament, its field and its scheduled games."""
    row = await tx.tournaments.get(tournament_id)
    stored = [] if row is None else await tx.tournaments.entrants(tournament_id)
    tournament = None if row is None else Tournament(row, tuple(entrant_of(e) for e in stored))
    return tournament, field_of(stored), await tx.tournaments.scheduled(tournament_id)
