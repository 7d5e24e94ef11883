"""Analysis of finished games: the engine's evaluation of every position, the moves that
lost the most, and the move it preferred there.

Only a finished game is analysed, never one in progress: correspondence gives days to
think, and an engine's opinion in the middle of a game would be help from outside. Each
position's evaluation is stored as soon as it is found, so a second analysis of the game
is instant and one cut short (a restart) goes on where it stopped.

How a move is marked: every score is taken from the view of the side to move and capped
at ±`CAP` centipawns, a mate counting as the cap (so a mate in 3 and a mate in 7 are
worth the same, and losing a mate to a crushing position costs nothing). A move's drop is
the mover's score before it minus their score after it (the opponent's score, negated).
A drop of `MISTAKE` centipawns or more marks a mistake, of `BLUNDER` or more a blunder;
a move the engine itself would have played is never marked.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from enum import StrEnum

from bot.db import EvaluationRow
from bot.engine import EnginePool, Score, SearchKind
from rules import Color, Game, Move, Position, Sentence

from ..budgets import Budgets
from ..errors import ServiceError
from ..play.game import GameSnapshot, MoveText
from ..play.snapshots import move_text
from ..play.store import GameStore
from .opponent import ATTEMPTS, NO_ENGINE, Level, search_at

#: Scores are capped here, in centipawns from the side to move's view; a mate is the cap.
CAP = 3000
#: A move that loses this many centipawns (or more) is a mistake...
MISTAKE = 300
#: ... and this many, a blunder.
BLUNDER = 800
#: The engine's time for each position, and its skill (the highest): its best opinion.
ANALYSIS_MS = 300
ANALYSIS_SKILL = 20

IN_PROGRESS = Sentence(
    "Only finished games are analysed: an engine's opinion during a game would be outside help."
)
ENGINE_FAILED = Sentence(
    "The engine failed during the analysis; what it found is kept, so asking again goes on "
    "from there."
)

#: How long an analysis's claim on its member's and server's budgets lasts unless renewed
#: (at each position evaluated): long enough to wait for the engine behind other searches,
#: short enough that a process that died frees its members' places soon.
CLAIM_LEASE = timedelta(minutes=10)

#: Told how many positions are evaluated out of how many.
Progress = Callable[[int, int], Awaitable[None]]


class Mark(StrEnum):
    MISTAKE = "mistake"
    BLUNDER = "blunder"


@dataclass(frozen=True, slots=True)
class MarkedMove:
    """A move that lost `drop` centipawns, the move the engine preferred, and how bad."""

    ply: int
    mover: Color
    played: MoveText
    best: MoveText | None
    drop: int
    mark: Mark


@dataclass(frozen=True, slots=True)
class Analysis:
    """A finished game's analysis: each position's score from sente's view (capped; the
    start first), the marked moves, and whether it was all stored already."""

    game: GameSnapshot
    scores: tuple[int, ...]
    marks: tuple[MarkedMove, ...]
    stored: bool

    def count(self, mover: Color, mark: Mark) -> int:
        return sum(1 for m in self.marks if m.mover is mover and m.mark is mark)


def _score(row: EvaluationRow) -> Score:
    return Score(cp=row.score_cp, mate=row.mate)


def mark_moves(game: Game, rows: list[EvaluationRow]) -> tuple[MarkedMove, ...]:
    """The mistakes and blunders of `game`, given the evaluation of each of its positions."""
    marks = []
    for ply in range(1, game.ply + 1):
        before, after = rows[ply - 1], rows[ply]
        played = game.moves[ply - 1]
        if before.best_usi == played.usi():
            continue
        drop = _score(before).capped(CAP) + _score(after).capped(CAP)
        if drop < MISTAKE:
            continue
        position = game.position_at(ply - 1)
        last = game.moves[ply - 2] if ply >= 2 else None
        best = None
        if before.best_usi is not None:
            try:
                best = move_text(position, Move.from_usi(before.best_usi), last)
            except ValueError:
                best = None
        marks.append(
            MarkedMove(
                ply=ply,
                mover=position.turn,
                played=move_text(position, played, last),
                best=best,
                drop=drop,
                mark=Mark.BLUNDER if drop >= BLUNDER else Mark.MISTAKE,
            )
        )
    return tuple(marks)


def sente_scores(game: Game, rows: list[EvaluationRow]) -> tuple[int, ...]:
    """Each position's capped score from sente's view, the start first."""
    scores = []
    for ply, row in enumerate(rows):
        score = _score(row).capped(CAP)
        turn = game.start.turn if ply % 2 == 0 else game.start.turn.opponent
        scores.append(score if turn is Color.SENTE else -score)
    return tuple(scores)


class Analyses:
    """`/analyse`: evaluate a finished game's positions, store them, mark the moves."""

    def __init__(
        self,
        store: GameStore,
        engine: EnginePool | None,
        *,
        movetime_ms: int = ANALYSIS_MS,
        budgets: Budgets | None = None,
    ) -> None:
        self._store = store
        self.engine = engine
        self.movetime_ms = movetime_ms
        self.budgets = Budgets() if budgets is None else budgets
        self._locks: dict[int, asyncio.Lock] = {}

    async def analyse(
        self,
        game_id: int,
        *,
        guild_id: int | None = None,
        progress: Progress | None = None,
        user_id: int | None = None,
    ) -> Analysis:
        """The analysis of a finished game, evaluating the positions not stored yet (told
        to `progress` as it goes). Refused for a game in progress and without an engine.
        Two analyses of one game at once: the second waits and finds it stored. The
        member who asks (`user_id`, which the Discord layer always gives) has a budget of
        analyses running or waiting, and so has the server (`Budgets`): one that needs
        the engine is refused past either. Its searches wait behind computer moves, and
        take turns with other members' (the engine pool's `Turns`).

        Example: `analysis = await analyses.analyse(game.id)`; `analysis.marks[0].best`.
        """
        game = await self._finished(game_id, guild_id)
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        try:
            async with lock:
                rows, stored = await self._evaluations(game, progress, user_id)
        finally:  # a refusal or a failed engine leaves no lock behind either
            if not lock.locked():
                self._locks.pop(game_id, None)
        return Analysis(
            game=game,
            scores=sente_scores(game.game, rows),
            marks=mark_moves(game.game, rows),
            stored=stored,
        )

    async def prepare(
        self, game_id: int, *, guild_id: int | None = None, user_id: int | None = None
    ) -> tuple[GameSnapshot, int]:
        """The game to analyse and how many of its positions are still to evaluate (0: the
        analysis is stored, and instant); refused for a game in progress, for one to
        evaluate without an engine, and for one to evaluate while the member (`user_id`)
        or the server has no room left for another analysis (so the refusal comes before
        the answer is deferred; `analyse` claims the place)."""
        game = await self._finished(game_id, guild_id)
        async with self._store.db.read() as tx:
            stored = len(await tx.analyses.of(game.id))
            full = None
            if user_id is not None and stored < game.ply + 1:
                full = await tx.analyses.full(
                    game.guild_id,
                    user_id,
                    self._store.now(),
                    per_member=self.budgets.analyses_per_member,
                    per_server=self.budgets.analyses_per_server,
                )
        missing = game.ply + 1 - stored
        if missing and self.engine is None:
            raise ServiceError(NO_ENGINE)
        if full is not None:
            raise ServiceError(self._no_room(full))
        return game, missing

    async def _finished(self, game_id: int, guild_id: int | None) -> GameSnapshot:
        """The game, refused while it is in progress."""
        game = await self._store.current(game_id, guild_id=guild_id)
        if game.is_active:
            raise ServiceError(IN_PROGRESS)
        return game

    async def _evaluations(
        self, game: GameSnapshot, progress: Progress | None, user_id: int | None
    ) -> tuple[list[EvaluationRow], bool]:
        async with self._store.db.read() as tx:
            found = {row.ply: row for row in await tx.analyses.of(game.id)}
        total = game.ply + 1
        missing = [ply for ply in range(total) if ply not in found]
        if not missing:
            return [found[ply] for ply in range(total)], True
        if self.engine is None:
            raise ServiceError(NO_ENGINE)
        claim = None if user_id is None else await self._claim(game, user_id)
        try:
            done = total - len(missing)
            for ply in missing:
                row = await self._evaluate(self.engine, game, ply, user_id)
                async with self._store.db.transaction() as tx:
                    await tx.analyses.add([row])
                    if claim is not None:
                        await tx.analyses.renew(claim, self._store.now() + CLAIM_LEASE)
                found[ply] = row
                done += 1
                if progress is not None:
                    await progress(done, total)
        finally:
            if claim is not None:
                async with self._store.db.transaction() as tx:
                    await tx.analyses.release(claim)
        return [found[ply] for ply in range(total)], False

    async def _claim(self, game: GameSnapshot, user_id: int) -> int:
        """A place for the member's analysis within their and their server's budgets."""
        now = self._store.now()
        per_member, per_server = self.budgets.analyses_per_member, self.budgets.analyses_per_server
        async with self._store.db.transaction() as tx:
            claim = await tx.analyses.claim(
                game.guild_id,
                user_id,
                game.id,
                now=now,
                until=now + CLAIM_LEASE,
                per_member=per_member,
                per_server=per_server,
            )
        if isinstance(claim, str):
            raise ServiceError(self._no_room(claim))
        return claim

    def _no_room(self, full: str) -> Sentence:
        """Why an analysis cannot start: the member's budget (`"member"`) or the server's."""
        if full == "member":
            return Sentence(
                "You already have an analysis running or waiting for the engine (one "
                "member may have {count} at a time); ask again when it is done.",
                count=self.budgets.analyses_per_member,
            )
        return Sentence(
            "This server already has as many analyses running or waiting for the engine "
            "as it may ({count}); ask again in a few minutes.",
            count=self.budgets.analyses_per_server,
        )

    async def _evaluate(
        self, engine: EnginePool, game: GameSnapshot, ply: int, asker: int | None
    ) -> EvaluationRow:
        position = game.game.position_at(ply)
        if not position.legal_moves():  # mated (or no move): the engine has nothing to add
            return EvaluationRow(game.id, ply, None, 0, None)
        level = Level(ANALYSIS_SKILL, self.movetime_ms)
        for attempt in range(1, ATTEMPTS + 1):
            search = await search_at(
                engine, game, ply, level, kind=SearchKind.ANALYSIS, asker=asker, attempt=attempt
            )
            if search is None:
                continue
            score = search.score or Score(cp=0)
            best = search.best if _legal(position, search.best) else None
            return EvaluationRow(game.id, ply, score.cp, score.mate, best)
        raise ServiceError(ENGINE_FAILED)


def _legal(position: Position, usi: str) -> bool:
    """Whether the engine's move is a legal move of `position` (else it is not shown)."""
    try:
        return position.is_legal(Move.from_usi(usi))
    except ValueError:
        return False
