"""Playing: finding the game, making a move, resigning, aborting, giving time."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import replace
from datetime import datetime

from bot.db import Conflict, DeadlineRecord, GameAdvance, MoveRecord
from rules import Color, Game, IllegalMoveError, InvalidMoveError, Move, Outcome, Termination
from rules.notation import AmbiguousMoveError, parse_move

from .base import ServiceBase
from .clocks import bank_after, due_at, reminder_at
from .errors import (
    AmbiguousMove,
    ChooseGame,
    MoveRejected,
    NotFound,
    NotYourTurn,
    PositionChanged,
    ServiceError,
)
from .loading import Loaded, color_name, copy_game, move_text, player_ref, summary, to_view
from .views import GameSummary, GameView, MoveResult, MoveText

log = logging.getLogger(__name__)

_CHANGED = "The position changed: a move was just played in this game. Look at the board again."


def _sorted_summaries(games: list[GameSummary]) -> list[GameSummary]:
    """Yours-to-move first, then the nearest deadline, games without one last."""

    def key(game: GameSummary) -> tuple[bool, bool, float, int]:
        deadline = game.deadline.timestamp() if game.deadline is not None else 0.0
        return (not game.your_turn, game.deadline is None, deadline, game.id)

    return sorted(games, key=key)


class PlayService(ServiceBase):
    async def get_game(self, game_id: int) -> GameView:
        """The game now (ended on time first if its deadline passed)."""
        return to_view(await self._current(game_id))

    async def warm_up(self, limit: int | None = None) -> int:
        """Replay the most recently moved active games into the cache, so that the first
        move in each after a start-up does not pay for replaying its whole record (a
        long game takes a dozen milliseconds). Yields to other tasks between games;
        returns how many were loaded. Run it as a task after opening the database."""
        async with self.db.read() as tx:
            ids = await tx.games.recently_active(limit or self._games.size)
        for game_id in ids:
            try:
                await self._load(game_id)
            except ServiceError:
                log.warning("game %s could not be loaded at start-up", game_id)
            await asyncio.sleep(0)
        return len(ids)

    async def set_game_thread(self, game_id: int, thread_id: int | None) -> None:
        async with self.db.transaction() as tx:
            if not await tx.games.set_thread(game_id, thread_id):
                raise NotFound(f"There is no game number {game_id}.")

    async def set_game_message(self, game_id: int, message_id: int | None) -> None:
        async with self.db.transaction() as tx:
            if not await tx.games.set_message(game_id, message_id):
                raise NotFound(f"There is no game number {game_id}.")

    async def resolve_game(
        self,
        user_id: int,
        *,
        guild_id: int | None,
        game_id: int | None = None,
        thread_id: int | None = None,
    ) -> GameView:
        """Which game a command means: the `game` option, else the game of the thread,
        else the user's only game where it is their turn (or only active game)."""
        if game_id is not None:
            view = await self.get_game(game_id)
            if guild_id is not None and view.guild_id != guild_id:
                raise NotFound(f"There is no game number {game_id} in this server.")
            return view
        if thread_id is not None:
            async with self.db.query() as q:
                record = await q.games.by_thread(thread_id)
            if record is not None:
                return await self.get_game(record.id)
        games = await self.list_games(user_id, guild_id=guild_id)
        if not games:
            raise NotFound("You have no active games here; start one with /challenge.")
        mine = [game for game in games if game.your_turn]
        if len(mine) == 1:
            return await self.get_game(mine[0].id)
        if len(games) == 1:
            return await self.get_game(games[0].id)
        raise ChooseGame("You have several games; say which one.", games)

    async def resolve_game_id(
        self, user_id: int, *, guild_id: int | None, thread_id: int | None = None
    ) -> int:
        """As `resolve_game`, but only the id. In a game's thread, where nearly every move
        is typed, that is one query, and the command then loads the game once, not twice."""
        if thread_id is not None:
            async with self.db.query() as q:
                record = await q.games.by_thread(thread_id)
            if record is not None:
                return record.id
        return (await self.resolve_game(user_id, guild_id=guild_id)).id

    async def list_games(self, user_id: int, *, guild_id: int | None = None) -> list[GameSummary]:
        """The user's active games, theirs to move first, then by deadline."""
        async with self.db.query() as q:
            records = await q.games.active_for(user_id, guild_id)
        return _sorted_summaries([summary(record, user_id) for record in records])

    async def legal_moves(self, game_id: int) -> list[MoveText]:
        """Every legal move of the current position, for autocomplete (cached by position)."""
        loaded = await self._load(game_id)
        if loaded.record.status != "active":
            return []
        return self._legal.get(loaded.game.position, loaded.last_move)

    # ----------------------------------------------------------------- a move

    def _read_move(self, loaded: Loaded, text: str) -> Move:
        position, last = loaded.game.position, loaded.last_move
        try:
            return parse_move(position, text, last_move=last)
        except AmbiguousMoveError as error:
            candidates = [move_text(position, move, last) for move in error.candidates]
            choice = None
            moves = error.candidates
            if len(moves) == 2 and moves[0].usi().rstrip("+") == moves[1].usi().rstrip("+"):
                promote = 0 if moves[0].promotion else 1
                choice = (candidates[promote], candidates[1 - promote])
            raise AmbiguousMove(str(error), candidates, choice) from None
        except IllegalMoveError as error:
            raise MoveRejected(str(error), error.reason.value) from None
        except InvalidMoveError as error:
            raise MoveRejected(str(error)) from None

    async def play(
        self,
        game_id: int,
        user_id: int,
        text: str,
        *,
        expected_ply: int | None = None,
        guild_id: int | None = None,
        name: str | None = None,
    ) -> MoveResult:
        """Play the move `text` (any notation) for `user_id`. `expected_ply` is the ply the
        user saw (a button's); if the game moved on since, `PositionChanged`. With
        `guild_id`, a game of another server is `NotFound`. `name` is the player's display
        name now: stored with the move if it changed, so boards show names as they are.
        A rejected move stores nothing.

        Example: `(await service.play(game.id, alice.user_id, "P-76")).move.japanese`
        is `"７六歩"`.
        """
        now = self.now()  # one moment for the deadline check and the clock arithmetic
        loaded = await self._current(game_id, now)
        record = loaded.record
        if guild_id is not None and record.guild_id != guild_id:
            raise NotFound(f"There is no game {game_id} in this server.")
        color = self._player_color(loaded, user_id)
        self._require_active(loaded)
        if expected_ply is not None and expected_ply != record.ply:
            raise PositionChanged(_CHANGED)
        if loaded.game.position.turn is not color:
            raise NotYourTurn(f"It is {player_ref(record, color.opponent).name}'s move.")
        move = self._read_move(loaded, text)
        text_out = move_text(loaded.game.position, move, loaded.last_move)
        game = copy_game(loaded.game)
        game.push(move)
        return await self._store_move(loaded, game, color, move, text_out, user_id, now, name)

    async def _store_move(
        self,
        loaded: Loaded,
        game: Game,
        color: Color,
        move: Move,
        text_out: MoveText,
        user_id: int,
        now: datetime,
        name: str | None = None,
    ) -> MoveResult:
        record = loaded.record
        mover = record.sente if color is Color.SENTE else record.gote
        renamed = None
        if name and name != mover.name:
            renamed = replace(mover, name=name)
        banks = {Color.SENTE: record.sente_bank, Color.GOTE: record.gote_bank}
        banks[color] = bank_after(banks[color], now - record.turn_started_at)
        outcome: Outcome | None = game.outcome
        advance = GameAdvance(
            game_id=record.id,
            expected_ply=record.ply,
            sfen=game.position.sfen(),
            sente_bank=banks[Color.SENTE],
            gote_bank=banks[Color.GOTE],
            turn_started_at=now,
            termination=None if outcome is None else outcome.termination.value,
            winner=None if outcome is None else color_name(outcome.winner),
        )
        following = player_ref(record, color.opponent)
        due = None if outcome is not None else due_at(now, banks[color.opponent], record.period)
        deadline = None
        if due is not None:
            deadline = DeadlineRecord(record.id, following.user_id, due, reminder_at(now, due))
        try:
            async with self.db.transaction() as tx:
                if not await tx.games.advance(advance):
                    raise PositionChanged(_CHANGED)
                await tx.moves.insert(
                    MoveRecord(record.id, record.ply + 1, move.usi(), user_id, now)
                )
                if deadline is not None:
                    await tx.deadlines.set(deadline)
                else:
                    await tx.deadlines.clear(record.id)
                if renamed is not None:
                    await tx.players.upsert(renamed, now)
        except (Conflict, PositionChanged):
            # Another coroutine or process stored a move (or ended the game) first.
            self._games.drop(record.id)
            self._require_active(await self._load(record.id))
            raise PositionChanged(_CHANGED) from None
        if renamed is not None and color is Color.SENTE:
            record = replace(record, sente=renamed)
        elif renamed is not None:
            record = replace(record, gote=renamed)
        stored = replace(
            record,
            ply=record.ply + 1,
            sfen=advance.sfen,
            sente_bank=advance.sente_bank,
            gote_bank=advance.gote_bank,
            turn_started_at=now,
            count_proposed_by=None,
            status="active" if outcome is None else "finished",
            termination=advance.termination,
            winner=advance.winner,
            finished_at=None if outcome is None else now,
            deadline=deadline,
        )
        after = Loaded(stored, game, text_out)
        self._games.put(after)
        if due is not None:
            self._deadline_set(due)
        view = to_view(after)
        return MoveResult(
            game=view,
            move=text_out,
            mover=player_ref(record, color),
            check=game.position.is_check(),
            outcome=outcome,
            next_player=None if outcome is not None else following,
            deadline=due,
        )

    # ----------------------------------------------------------------- ending and time

    async def resign(self, game_id: int, user_id: int) -> GameView:
        """Resign; allowed at any moment, also on the opponent's turn."""
        loaded = await self._current(game_id)
        color = self._player_color(loaded, user_id)
        self._require_active(loaded)
        outcome = Outcome(Termination.RESIGNATION, color.opponent)
        return await self._finish_or_explain(loaded, outcome, expected_ply=None)

    async def abort(self, game_id: int, user_id: int) -> GameView:
        """End the game without a result; only before both players have moved."""
        loaded = await self._current(game_id)
        self._player_color(loaded, user_id)
        self._require_active(loaded)
        if loaded.record.ply >= 2:
            raise ServiceError(
                "A game can only be aborted before both players have moved; resign instead."
            )
        outcome = Outcome(Termination.ABORT, None)
        return await self._finish_or_explain(loaded, outcome, expected_ply=loaded.record.ply)

    async def give_time(self, game_id: int, user_id: int) -> GameView:
        """Give the opponent (who is to move) a full period again, counted from now."""
        loaded = await self._current(game_id)
        record = loaded.record
        color = self._player_color(loaded, user_id)
        self._require_active(loaded)
        if record.period is None:
            raise ServiceError("This game has no time limit, so there is no time to give.")
        if loaded.game.position.turn is color:
            raise ServiceError("It is your move; your opponent's clock is not running.")
        now = self.now()
        opponent = color.opponent
        banks = {Color.SENTE: record.sente_bank, Color.GOTE: record.gote_bank}
        banks[opponent] = bank_after(banks[opponent], now - record.turn_started_at)
        due = due_at(now, banks[opponent], record.period)
        assert due is not None
        waiting = player_ref(record, opponent).user_id
        deadline = DeadlineRecord(record.id, waiting, due, reminder_at(now, due))
        async with self.db.transaction() as tx:
            done = await tx.games.restart_clock(
                record.id,
                record.ply,
                sente_bank=banks[Color.SENTE],
                gote_bank=banks[Color.GOTE],
                turn_started_at=now,
            )
            if done:
                await tx.deadlines.set(deadline)
        if not done:
            fresh = await self._load(game_id)
            self._require_active(fresh)
            raise PositionChanged(_CHANGED)
        self._deadline_set(due)
        return to_view(await self._load(game_id))
