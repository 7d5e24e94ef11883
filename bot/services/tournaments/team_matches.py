"""Team matches in a server, stored and played: created by a member who may run
tournaments, the two teams lined up by rating at once (`teams.lineup`), every board's two
games created as normal games (`open_game`, as a tournament's), each result mirrored in
the ending's transaction (`mirror`) and acted on once here, the score recomputed from the
stored results, and the match finished when its last game ends.

A match's games count under the server's cap of event games under way (`waves.fill`): a
match is not refused at the cap (it is bounded by `MAX_RUNNING_MATCHES` and `MAX_TEAM`),
but a tournament's next wave leaves its games room, and each of its endings gives a
tournament's waiting game its place, in the transaction that acts on it.

A match decided early (`MatchScore.decided`) plays on: its remaining games are normal
games and still count on their boards; the Discord layer says it is decided.

An aborted game (nobody moved before the first deadline, or aborted by agreement) is not
replayed, as a tournament's is: its board's pair would meet a third time. It counts as
lost by both (`Game.forfeit` with no result), a rule the module states here once.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.db import NewGame, NewTeamMatch, Session, TeamGameRow, TeamMatchRow, TeamPlayerRow
from rules import Handicap, Sentence

from ..clock.clocks import TimeControl
from ..errors import NotFound, ServiceError
from ..play.game import ImpasseRule, PlayerRef, TakebackPolicy
from ..play.new_games import open_game
from ..play.store import GameStore
from ..ratings.glicko2 import DEFAULT
from .model import MAX_NAME
from .pairings import Entrant
from .ranking import Game
from .registration import even_terms, require_organizer
from .schedule import RESULTS
from .teams import MAX_TEAM, Board, BoardScore, Lineup, MatchScore, Side, lineup, score
from .waves import fill

#: How many team matches a server may have under way at once: each is up to
#: 2 × `MAX_TEAM` games with their threads.
MAX_RUNNING_MATCHES = 5
#: How many of a server's newest matches in each state a member's profile looks through,
#: and how many of those it lists.
PROFILE_LOOKBACK = 20
PROFILE_MATCHES = 5

NO_SUCH_MATCH = Sentence("There is no such team match in this server.")
NOT_A_TEAM_ORGANIZER = Sentence(
    "Only a member who may manage this server, or who has its tournament organizer role, "
    "can set up a team match."
)


@dataclass(frozen=True, slots=True)
class TeamMatch:
    """A match as it stands: its row, players (team, rating, board), games, the lineup
    rebuilt from the stored boards, its score, and every player's name."""

    row: TeamMatchRow
    players: tuple[TeamPlayerRow, ...]
    games: tuple[TeamGameRow, ...]
    lineup: Lineup
    score: MatchScore
    names: dict[int, str]

    @property
    def id(self) -> int:
        return self.row.id

    @property
    def teams(self) -> tuple[str, str]:
        return self.row.setup.first_team, self.row.setup.second_team

    def game_ids(self) -> list[int]:
        """The match's games, the first game of every board then the second."""
        return [game.game_id for game in self.games if game.game_id is not None]

    def place_of(self, game_id: int) -> TeamGameRow | None:
        """The board and game number of one of the match's games."""
        return next((game for game in self.games if game.game_id == game_id), None)


@dataclass(frozen=True, slots=True)
class Played:
    """A member's match as their profile lists it: the match, their team, and their board
    with its score (None: they sat out)."""

    match: TeamMatch
    side: Side
    board: BoardScore | None


@dataclass(frozen=True, slots=True)
class TeamMatchChange:
    """What acting on a result changed: the match after it, whether this result decided
    it, whether it finished it (its last game ended), and the server's tournament games
    created in the room the ended games left under its cap (their threads to open)."""

    match: TeamMatch
    decided_now: bool
    finished_now: bool
    games_created: tuple[int, ...] = ()


def _check_once(first: Sequence[PlayerRef], second: Sequence[PlayerRef]) -> None:
    """Refuse teams where a member plays twice, naming them: a member in both teams (as
    when they have both roles) is the organizer's to place, not the bot's to guess."""
    seen: set[int] = set()
    for team in (first, second):
        for member in team:
            if member.user_id in seen:
                raise ServiceError(
                    Sentence(
                        "{name} is in both teams (or twice in one): a member plays for "
                        "one team, once.",
                        name=member.name,
                    )
                )
            seen.add(member.user_id)


class TeamMatches:
    """Team matches: create one, act on its games' results, read it."""

    def __init__(self, store: GameStore) -> None:
        self._store = store

    async def require_organizer(
        self, guild_id: int, may_manage: bool, role_ids: Collection[int] = ()
    ) -> None:
        """Refuse a member who may not set up a team match, or a server with as many
        matches under way as it may have, before the caller works for them (reading a
        role's members costs requests to Discord); `create` checks again in its own
        transaction."""
        async with self._store.db.read() as tx:
            await require_organizer(tx, guild_id, may_manage, role_ids, NOT_A_TEAM_ORGANIZER)
            await _require_room(tx, guild_id)

    async def create(
        self,
        *,
        first_team: str,
        second_team: str,
        guild_id: int,
        channel_id: int,
        first: Sequence[PlayerRef],
        second: Sequence[PlayerRef],
        organizer: PlayerRef,
        may_manage: bool,
        role_ids: Collection[int] = (),
        time_control: TimeControl | str = "3d",
        impasse_rule: ImpasseRule | str = "27",
        takebacks: TakebackPolicy | str = TakebackPolicy.NEVER,
        rated: bool = True,
    ) -> TeamMatch:
        """Create a match between two teams (members as the caller found them: a role's
        members or a list) and all its games at once, the teams lined up by their ratings
        in this server now. `may_manage` and `role_ids` are the caller's to give, as for a
        tournament.

        Example: `await matches.create(guild_id=1, channel_id=2, organizer=alice,
        may_manage=True, first_team="東", second_team="西", first=[...], second=[...])`.
        """
        names = tuple(" ".join(name.split()) for name in (first_team, second_team))
        if any(not name or len(name) > MAX_NAME for name in names):
            raise ServiceError(
                Sentence("A team's name is 1 to {count} characters.", count=MAX_NAME)
            )
        if names[0] == names[1]:
            raise ServiceError(Sentence("The two teams need different names."))
        for team in (first, second):
            if not 1 <= len(team) <= MAX_TEAM:
                raise ServiceError(Sentence("A team has 1 to {count} players.", count=MAX_TEAM))
            if any(member.is_bot for member in team):
                raise ServiceError(Sentence("A team plays with members, not bots."))
        _check_once(first, second)
        terms = even_terms(time_control, impasse_rule, takebacks, rated)
        now = self._store.now()
        new = NewTeamMatch(
            guild_id=guild_id,
            channel_id=channel_id,
            first_team=names[0],
            second_team=names[1],
            terms=terms,
            organizer_id=organizer.user_id,
            created_at=now,
        )

        async def store(tx: Session) -> tuple[int, datetime | None]:
            await require_organizer(tx, guild_id, may_manage, role_ids, NOT_A_TEAM_ORGANIZER)
            await tx.tournaments.lock_server(guild_id)  # two creations count in turn
            await _require_room(tx, guild_id)
            await tx.players.upsert(organizer.to_row(), now)
            teams: list[list[Entrant]] = [[], []]
            for index, team in enumerate((first, second)):
                for member in team:
                    await tx.players.upsert(member.to_row(), now)
                    rating = await tx.ratings.get(guild_id, member.user_id)
                    teams[index].append(
                        Entrant(member.user_id, DEFAULT.rating if rating is None else rating.rating)
                    )
            match = lineup(teams[0], teams[1])
            boards = {p: b.number for b in match.boards for p in (b.first, b.second)}
            players = [
                TeamPlayerRow(e.player, side.value, e.rating, boards.get(e.player))
                for side, team in zip(Side, teams, strict=True)
                for e in team
            ]
            match_id = await tx.team_matches.create(new, players)
            earliest: datetime | None = None
            for pairing in match.games():
                game = NewGame(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    sente_id=pairing.sente,
                    gote_id=pairing.gote,
                    terms=new.terms,
                    start_sfen=Handicap.EVEN.sfen,
                    started_at=now,
                    clock_waits=True,  # until its first post (`Games.set_thread`)
                )
                game_id, due = await open_game(tx, game)
                await tx.team_matches.add_game(
                    match_id, pairing.board, pairing.round, pairing.sente, pairing.gote, game_id
                )
                if due is not None and (earliest is None or due < earliest):
                    earliest = due
            return match_id, earliest

        match_id, due = await self._store.db.run(store)
        if due is not None:
            self._store.deadline_set(due)
        return await self.get(match_id, guild_id=guild_id)

    async def get(self, match_id: int, *, guild_id: int | None = None) -> TeamMatch:
        """The match as it stands; with `guild_id`, another server's does not exist."""

        async with self._store.db.query() as q:
            found = await _read(q, match_id)
        if found is None or (guild_id is not None and found.row.setup.guild_id != guild_id):
            raise NotFound(NO_SUCH_MATCH)
        return found

    async def set_message(self, match_id: int, message_id: int | None) -> None:
        """Remember the announcement (the scoreboard is edited into it)."""
        async with self._store.db.transaction() as tx:
            await tx.team_matches.set_message(match_id, message_id)

    async def of_game(self, game_id: int) -> TeamMatch | None:
        """The match a game belongs to, if any (for its thread's heading)."""
        async with self._store.db.query() as q:
            place = await q.team_matches.of_game(game_id)
            return None if place is None else await _read(q, place.match_id)

    async def of_member(self, guild_id: int, user_id: int) -> list[Played]:
        """The matches `user_id` played in among the server's newest (`PROFILE_LOOKBACK`
        of each state), newest first, at most `PROFILE_MATCHES`: a profile's list, read
        in bounded time however many matches the server has had.

        Example: `[(p.match.teams, p.side) for p in await matches.of_member(g, alice)]`
        is `[(("東", "西"), Side.FIRST)]` for Alice, who played for 東 once."""

        async def read(tx: Session) -> list[Played]:
            newest = []
            for state in ("running", "finished"):
                newest += await tx.team_matches.latest_in_guild(guild_id, state, PROFILE_LOOKBACK)
            newest.sort(key=lambda row: row.id, reverse=True)
            found = []
            for row in newest:
                place = await tx.team_matches.player(row.id, user_id)
                if place is None:
                    continue
                match = await _read(tx, row.id, named=False)
                if match is None:
                    continue
                board = next(
                    (b for b in match.score.boards if user_id in (b.board.first, b.board.second)),
                    None,
                )
                found.append(Played(match, Side(place.side), board))
                if len(found) == PROFILE_MATCHES:
                    break
            return found

        return await self._store.db.run(read, write=False)

    async def game_ended(self, game_id: int) -> TeamMatchChange | None:
        """After any game's end (the Discord layer calls it once it posted the ending): if
        the game is a team match's and its result not yet acted on, act on every such
        result of the match once; what changed (None when nothing did)."""
        async with self._store.db.query() as q:
            place = await q.team_matches.of_game(game_id)
        if place is None or place.result is None or place.settled:
            return None
        return await self.act_on_results(place.match_id)

    async def act_on_results(self, match_id: int) -> TeamMatchChange | None:
        """Act on the match's results not acted on yet, in one transaction holding the
        match: the score before and after them, the end once every game is over. None
        when another process (or an earlier call) acted on them already."""

        async def store(tx: Session) -> tuple[TeamMatchChange, datetime | None] | None:
            row = await tx.team_matches.hold(match_id)
            if row is None:
                return None
            before = await _read(tx, match_id)
            assert before is not None
            fresh = [game for game in before.games if game.result is not None and not game.settled]
            settled = [game for game in fresh if await tx.team_matches.settle(game.id)]
            if not settled:
                return None
            finished = False  # `before` counts the fresh results: its games are all over
            if before.score.remaining == 0 and row.state == "running":
                finished = await tx.team_matches.finish(match_id, self._store.now())
            after = await _read(tx, match_id)
            assert after is not None
            decided_now = after.score.decided and not _decided_without(before, settled)
            # The ended games counted under the server's cap: its tournaments' waiting
            # games take their places, as when a tournament game ends.
            created, due = await fill(tx, row.setup.guild_id, self._store.now())
            games = tuple(game for ids in created.values() for game in ids)
            return TeamMatchChange(after, decided_now, finished, games), due

        done = await self._store.db.run(store)
        if done is None:
            return None
        change, due = done
        if due is not None:
            self._store.deadline_set(due)
        return change


def _decided_without(match: TeamMatch, fresh: Sequence[TeamGameRow]) -> bool:
    """Whether the match was decided before the results `fresh` were acted on."""
    left_out = {game.id for game in fresh}
    return score(match.lineup, _played(g for g in match.games if g.id not in left_out)).decided


def _played(games: Iterable[TeamGameRow]) -> list[Game]:
    """The games with a result as `teams.score` reads them: a void (aborted) game lost by
    both."""
    played = []
    for game in games:
        if game.result is None:
            continue
        result = RESULTS.get(game.result)
        played.append(Game(game.sente_id, game.gote_id, result, forfeit=result is None))
    return played


async def _read(tx: Session, match_id: int, *, named: bool = True) -> TeamMatch | None:
    """The match as stored, scored; without `named`, its players' names are not read
    (a profile names none of them)."""
    row = await tx.team_matches.get(match_id)
    if row is None:
        return None
    players = tuple(await tx.team_matches.players(match_id))
    games = tuple(await tx.team_matches.games(match_id))
    by_board: dict[int, dict[str, int]] = {}
    for player in players:
        if player.board is not None:
            by_board.setdefault(player.board, {})[player.side] = player.user_id
    boards = tuple(
        Board(number, pair["first"], pair["second"], number % 2 == 1)
        for number, pair in sorted(by_board.items())
    )
    sitting = [p for p in players if p.board is None]
    sitting.sort(key=lambda p: -p.rating)
    lineup = Lineup(
        boards,
        tuple(p.user_id for p in sitting),
        None if not sitting else Side(sitting[0].side),
    )
    names = {}
    for player in players if named else ():
        stored = await tx.players.get(player.user_id)
        names[player.user_id] = str(player.user_id) if stored is None else stored.name
    return TeamMatch(row, players, games, lineup, score(lineup, _played(games)), names)


async def _require_room(tx: Session, guild_id: int) -> None:
    """Refuse a match in a server that has `MAX_RUNNING_MATCHES` under way."""
    if await tx.team_matches.count_running(guild_id) >= MAX_RUNNING_MATCHES:
        raise ServiceError(
            Sentence(
                "This server already has {count} team matches under way, "
                "the most it may have at once.",
                count=MAX_RUNNING_MATCHES,
            )
        )
