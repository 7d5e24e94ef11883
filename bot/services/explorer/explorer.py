"""`/explorer`: the moves played from a position in a server's finished games, with how
often and how those games ended, and the latest games that passed there.

Only finished games are counted: a game's moves are indexed in the transaction that ends
it (`ending.index_ending`, called by every ending), so a game in progress never shows its moves
to anyone. Games that ended before the index existed are indexed on the server's first
use, a bounded number at a time (`backfill`). Every game is indexed once, whoever gets
there first (`ExplorerRepository.claim`).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass

from bot.db import ExplorerMoveRow, GameRow, PassingGame, Session
from rules import Move, Position, Sentence

from ..errors import ServiceError
from ..play.game import MoveText
from ..play.snapshots import move_text
from ..play.store import GameStore
from .index import indexed_moves, position_hash

#: The most moves one answer lists (a select menu holds 25).
MAX_MOVES = 25
#: The most games linked under an answer.
MAX_GAMES = 5
#: The most older games one use indexes before answering (the rest at the next uses).
BACKFILL_BATCH = 200
#: How many of them are read, replayed and written together.
INDEX_BATCH = 50
_USI_MOVE = re.compile(r"[1-9][a-i][1-9][a-i]\+?|[PLNSGBR]\*[1-9][a-i]")

NOT_PLAYED_HERE = Sentence(
    "That move was not played from this position in this server's games: use /explorer again."
)


@dataclass(frozen=True, slots=True)
class ExploredMove:
    """A move played from the explored position: how it is written, in how many games,
    and how they ended for the side that played it."""

    move: Move
    text: MoveText
    games: int
    wins: int
    draws: int
    losses: int

    def percent(self, count: int) -> int:
        """`count` of this move's games as a whole percentage."""
        return round(100 * count / self.games)


@dataclass(frozen=True, slots=True)
class Exploration:
    """A position and what the server's finished games played from it, most played first
    (`moves`, at most `MAX_MOVES`), with the latest games that passed there (`games`).
    `key` is the position's hash, which a select carries to follow one of the moves;
    `pending` counts older games not indexed yet."""

    position: Position
    key: int
    moves: tuple[ExploredMove, ...]
    games: tuple[PassingGame, ...]
    pending: int = 0

    @property
    def total(self) -> int:
        """How many times a move was played from here (a game counts once per visit)."""
        return sum(move.games for move in self.moves)


class Explorer:
    """The explorer's index and its lookups, over the game store."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._filled: set[int] = set()  # servers whose older games this process indexed
        self._filling: set[int] = set()  # servers whose older games are being indexed

    async def explore(self, guild_id: int, position: Position) -> Exploration:
        """What the server's finished games played from `position`.

        Example: `(await explorer.explore(g, Position.initial())).moves[0].games` is how
        many games opened with the most played first move.
        """
        pending = await self.backfill(guild_id)
        key = position_hash(position)

        async def read(tx: Session) -> Exploration:
            tallies = await tx.explorer.tally(guild_id, key, limit=MAX_MOVES)
            games = await tx.explorer.games_at(guild_id, key, limit=MAX_GAMES)
            moves = []
            for tally in tallies:
                move = Move.from_usi(tally.move)
                text = move_text(position, move, None)
                moves.append(
                    ExploredMove(move, text, tally.games, tally.wins, tally.draws, tally.losses)
                )
            return Exploration(position.copy(), key, tuple(moves), tuple(games), pending)

        return await self._store.db.run(read, write=False)

    async def at_game(self, game_id: int, number: int | None, *, guild_id: int) -> Exploration:
        """From game `game_id` of this server after its move numbered `number` (None: its
        last, or current, position), as `/replay` shows it (an active game only up to its
        last move: every position it shows was posted in its thread already)."""
        game = await self._store.current(game_id, guild_id=guild_id)
        ply = game.ply if number is None else max(0, min(game.numbering.ply(number), game.ply))
        return await self.explore(guild_id, game.game.position_at(ply))

    async def follow(self, guild_id: int, key: int, usi: str) -> Exploration:
        """From the position reached by playing `usi` from the position whose hash is
        `key`, as a select offers it. The position is rebuilt from a game of the server
        that played that move there; a move no game played there (a forged or stale
        choice) is refused with one sentence."""
        if not _USI_MOVE.fullmatch(usi):
            raise ServiceError(NOT_PLAYED_HERE)
        async with self._store.db.query() as q:
            passed = await q.explorer.passed(guild_id, key, usi)
        if passed is None:
            raise ServiceError(NOT_PLAYED_HERE)
        game_id, ply = passed
        game = await self._store.load(game_id)
        before = game.game.position_at(min(ply, game.ply))
        move = Move.from_usi(usi)
        if position_hash(before) != key or not before.is_legal(move):
            raise ServiceError(NOT_PLAYED_HERE)
        before.push(move)
        return await self.explore(guild_id, before)

    # ----------------------------------------------------------------- the index

    async def backfill(self, guild_id: int, limit: int = BACKFILL_BATCH) -> int:
        """Index up to `limit` finished games of the server that ended before the index
        existed (or whose ending a crash cut short); how many are still left after them.
        Games are read and written `INDEX_BATCH` at a time, replayed off the event loop,
        each written with its claim, so two processes doing this at once index each game
        once; in one process, a use while another indexes the same server does not start
        a second round (its answer counts what is indexed so far)."""
        if guild_id in self._filled:
            return 0
        async with self._store.db.query() as q:
            waiting = await q.explorer.unindexed(guild_id, limit=limit + 1)
        if guild_id in self._filling:  # another member's use is at it: no second round
            return len(waiting)
        self._filling.add(guild_id)
        try:
            todo = waiting[:limit]
            for start in range(0, len(todo), INDEX_BATCH):
                await self._index_batch(todo[start : start + INDEX_BATCH])
        finally:
            self._filling.discard(guild_id)
        if len(waiting) <= limit:
            self._filled.add(guild_id)
            return 0
        async with self._store.db.query() as q:
            return len(await q.explorer.unindexed(guild_id, limit=10 * limit))

    async def _index_batch(self, game_ids: list[int]) -> None:
        async def read(tx: Session) -> list[tuple[GameRow, list[str]]]:
            found = []
            for game_id in game_ids:
                row = await tx.games.get(game_id)
                if row is not None and row.status == "finished" and row.finished_at is not None:
                    found.append((row, await tx.moves.usi_list(game_id)))
            return found

        games = await self._store.db.run(read, write=False)
        indexed = await asyncio.to_thread(_rows_of, games)

        async def write(tx: Session) -> None:
            # The games claimed, then all their moves counted at once: `add` writes the
            # counts in one order over the batch, as an ending writes its game's, so the two
            # never wait for each other's rows in opposite orders on PostgreSQL.
            claimed: dict[int, list[ExplorerMoveRow]] = {}
            for row, rows in indexed:
                assert row.finished_at is not None
                if await tx.explorer.claim(row.id, row.guild_id, row.finished_at):
                    claimed.setdefault(row.guild_id, []).extend(rows)
            for guild_id, rows in sorted(claimed.items()):
                await tx.explorer.add(guild_id, rows)

        await self._store.db.run(write)


def _rows_of(
    games: list[tuple[GameRow, list[str]]],
) -> list[tuple[GameRow, list[ExplorerMoveRow]]]:
    return [
        (
            row,
            indexed_moves(
                row.id, row.start_sfen, moves, winner=row.winner, termination=row.termination
            ),
        )
        for row, moves in games
    ]
