"""Games against the computer: the bot takes a seat, and its engine plays it.

The computer is a player like a member: its game starts from a challenge it accepts at
once, its moves go through `Moves.play` (clock, record, forecasts, endings, all the same),
and the move its engine answers is read as strict USI and checked by the rules like any
input. An engine that crashes, hangs or answers nonsense is thrown away and asked again
on a fresh process, once; if that fails too the player is told (`ComputerFailed`) and the
game waits, still playable: asking again (the Retry button, or a restart) tries anew.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

from bot.db import ChallengeRow, ComputerRow, Conflict, Session
from bot.engine import EngineError, EnginePool, Search, SearchKind
from rules import Handicap, InvalidMoveError, Move, Sentence

from ..clock.clocks import TimeControl
from ..club.challenges import Challenges
from ..errors import GameOver, MoveRejected, NotAPlayer, NotFound, PositionChanged, ServiceError
from ..play.endings import Endings
from ..play.game import GameSnapshot, PlayedMove, PlayerRef, TakebackPolicy
from ..play.moves import Moves
from ..play.store import GameStore

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Level:
    """How strong the computer plays: the engine's `Skill Level` and its time per move."""

    skill: int
    movetime_ms: int


#: Level 1 (a beginner can win) to 8 (the engine at full strength): more skill and more
#: time at each step, every move within about two seconds.
LEVELS = {
    1: Level(-20, 100),
    2: Level(-12, 150),
    3: Level(-5, 200),
    4: Level(0, 300),
    5: Level(5, 500),
    6: Level(10, 800),
    7: Level(15, 1200),
    8: Level(20, 2000),
}
#: The level of a computer game whose level row is missing (its start was cut short).
DEFAULT_LEVEL = 3
#: Searches per move (and per analysed position): the first, and one retry on a fresh
#: process.
ATTEMPTS = 2
NO_ENGINE = Sentence("No computer engine is set up on this bot, so it cannot play or analyse.")
BAD_LEVEL = Sentence("The computer's level is a number from 1 to 8.")
NOT_A_COMPUTER_GAME = Sentence("This game is not played against the computer.")
PLAYED_AGAIN = Sentence("This game has already been played again.")


async def search_at(
    engine: EnginePool,
    game: GameSnapshot,
    ply: int,
    level: Level,
    *,
    kind: SearchKind,
    asker: int | None,
    attempt: int,
) -> Search | None:
    """The engine's search of `game`'s position after `ply` moves at `level`, for a
    search of `kind` a member (`asker`) waits for; None (logged) when the engine failed
    this `attempt`, which the caller makes again up to `ATTEMPTS` times.

    Example: `await search_at(engine, game, game.ply, LEVELS[3], kind=SearchKind.MOVE,
    asker=member, attempt=1)`.
    """
    moves = [move.usi() for move in game.game.moves[:ply]]
    try:
        return await engine.search(
            game.game.start.sfen(),
            moves,
            movetime_ms=level.movetime_ms,
            skill=level.skill,
            kind=kind,
            asker=asker,
        )
    except EngineError as error:
        log.warning("game %s ply %s: engine failed (attempt %s): %s", game.id, ply, attempt, error)
        return None


class ComputerFailed(ServiceError):
    """The engine failed twice in a row to give a legal move; the game waits for a retry."""


@dataclass(frozen=True, slots=True)
class ComputerMove:
    """What the computer did on its turn: a move played, or a resignation."""

    played: PlayedMove | None = None
    resigned: GameSnapshot | None = None


class Computer:
    """The computer's seat: starting a game against it, and playing its turns."""

    def __init__(
        self,
        store: GameStore,
        challenges: Challenges,
        moves: Moves,
        endings: Endings,
        engine: EnginePool | None,
    ) -> None:
        self._store = store
        self._challenges = challenges
        self._moves = moves
        self._endings = endings
        self.engine = engine
        self._thinking: set[int] = set()

    def require_engine(self) -> EnginePool:
        if self.engine is None:
            raise ServiceError(NO_ENGINE)
        return self.engine

    async def start(
        self,
        *,
        guild_id: int,
        channel_id: int,
        member: PlayerRef,
        computer: PlayerRef,
        level: int,
        color: str | None = None,
        time_control: TimeControl | str = "unlimited",
        handicap: str = "even",
        again_of: int | None = None,
    ) -> GameSnapshot:
        """A game between `member` and the bot (`computer`) at `level`, started at once:
        unrated, without takebacks (nobody would answer them). The challenge, its
        acceptance, the game and the computer's seat are stored in one transaction, so a
        failure leaves nothing behind and asking again starts afresh. `again_of`: the
        finished game this plays again, which it claims (one per game, see `again`).

        Example: `game = await computer.start(guild_id=1, channel_id=2, member=alice,
        computer=bot, level=3)`; `game.to_move` is the bot when it got sente.
        """
        self.require_engine()
        if level not in LEVELS:
            raise ServiceError(BAD_LEVEL)

        async def seat(tx: Session, record: ChallengeRow) -> None:
            game_id = await self._challenges.accept_in(tx, record, computer)
            await tx.computer.add(game_id, computer.user_id, level)

        challenge = await self._challenges.offer(
            guild_id=guild_id,
            channel_id=channel_id,
            challenger=member,
            opponent=computer,
            color=color,
            time_control=time_control,
            handicap=handicap,
            takebacks=TakebackPolicy.NEVER,
            rated=False,
            computer=True,
            rematch_of=again_of,
            then=seat,
        )
        assert challenge.game_id is not None
        game = await self._challenges.started(challenge.game_id)
        log.info("game %s: %s plays the computer at level %s", game.id, member.user_id, level)
        return game

    async def again(self, game_id: int, user_id: int, *, guild_id: int) -> GameSnapshot:
        """The member of a finished game against the computer plays it again: same level,
        time and handicap, colours swapped in an even game. Once only: the next game
        claims the finished one (the unique index on a challenge's `rematch_of`, as a
        rematch does), so a second press, or two at once, start one game, and the others
        are told it started (`AlreadyStarted`).

        Example: `rematch = await computer.again(game.id, alice.user_id, guild_id=1)`.
        """
        seat = await self.seat_in(game_id, guild_id=guild_id)
        game = await self._store.load(game_id)
        color = game.color_of(user_id)
        if color is None or user_id == seat.user_id:
            member = game.opponent_of(seat.user_id)
            raise NotAPlayer(Sentence("Only {name} can play this game again.", name=member.name))
        if game.is_active:
            raise ServiceError(Sentence("This game is still going on; finish it first."))
        await self._not_played_again(game_id)
        even = game.handicap is Handicap.EVEN
        try:
            return await self.start(
                guild_id=game.guild_id,
                channel_id=game.channel_id,
                member=game.player(color),
                computer=game.player(color.opponent),
                level=seat.level,
                color=(color.opponent if even else color).name.lower(),
                time_control=game.time_control,
                handicap=game.handicap.id,
                again_of=game_id,
            )
        except Conflict:  # another press claimed it between the look and the write
            log.info("game %s: played again meanwhile", game_id)
        except ServiceError:
            # Refused: the member's budget of computer games may be full with the very game
            # another press just started; that press is what to tell of, not the budget.
            await self._not_played_again(game_id)
            raise
        await self._not_played_again(game_id)
        raise ServiceError(PLAYED_AGAIN)  # its claim was withdrawn: not expected

    async def _not_played_again(self, game_id: int) -> None:
        """Refuse if the game was played again already, naming the game that did."""
        async with self._store.db.read() as tx:
            claim = await tx.challenges.rematch_of(game_id)
        if claim is not None and claim.game_id is not None:
            raise await self._store.already_started(PLAYED_AGAIN, claim.game_id)

    async def seat(self, game_id: int) -> ComputerRow | None:
        """The computer's seat in the game, None in a game between members."""
        async with self._store.db.read() as tx:
            return await tx.computer.get(game_id)

    async def seat_in(self, game_id: int, *, guild_id: int) -> ComputerRow:
        """The computer's seat in a game of this server; refused for a game between
        members (or of another server)."""
        await self._store.current(game_id, guild_id=guild_id)
        seat = await self.seat(game_id)
        if seat is None:
            raise NotFound(NOT_A_COMPUTER_GAME)
        return seat

    async def waiting(self) -> list[int]:
        """Active games against the computer (after a restart, some may await its move)."""
        async with self._store.db.read() as tx:
            return await tx.computer.waiting()

    async def play_turn(self, game_id: int) -> ComputerMove | None:
        """If it is the computer's turn in the game, its move (or resignation); None when
        there is nothing to do: a game between members, not its turn, over, or a search
        for this game already under way. `ComputerFailed` after two failed searches."""
        seat = await self.seat(game_id)
        if seat is None:
            return None
        game = await self._store.current(game_id)
        if game.outcome is not None or game.to_move is None:
            return None
        if game.to_move.user_id != seat.user_id or game_id in self._thinking:
            return None
        engine = self.require_engine()
        self._thinking.add(game_id)
        try:
            return await self._think(engine, game, seat)
        finally:
            self._thinking.discard(game_id)

    async def _think(
        self, engine: EnginePool, game: GameSnapshot, seat: ComputerRow
    ) -> ComputerMove | None:
        level = LEVELS.get(seat.level, LEVELS[DEFAULT_LEVEL])
        member = game.opponent_of(seat.user_id).user_id  # who waits for this move
        for attempt in range(1, ATTEMPTS + 1):
            search = await search_at(
                engine, game, game.ply, level, kind=SearchKind.MOVE, asker=member, attempt=attempt
            )
            if search is None:
                continue
            if search.best == "resign":
                resigned = await self._endings.resign(game.id, seat.user_id)
                return ComputerMove(resigned=resigned)
            try:
                move = Move.from_usi(search.best)  # strict USI: an engine writes nothing else
                played = await self._moves.play(
                    game.id, seat.user_id, move.usi(), expected_ply=game.ply
                )
            except (InvalidMoveError, MoveRejected) as error:
                log.warning(
                    "game %s: engine answered %r (attempt %s): %s",
                    game.id,
                    search.best,
                    attempt,
                    error,
                )
                await engine.restart()
                continue
            except (PositionChanged, GameOver):
                return None  # the member resigned, or time ran out, while it thought
            return ComputerMove(played=played)
        raise ComputerFailed(
            Sentence(
                "The computer could not find a move (its engine failed twice); "
                "press Retry to ask it again."
            )
        )
