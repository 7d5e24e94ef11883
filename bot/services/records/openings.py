"""Openings and castles of the server's games: named by the move that makes them clear,
listed with games, tallied per member for `/profile`, and named once for games that
finished before naming began.

The names come from `rules.openings` (the table in `data/openings.toml`). A game's names
at a ply depend on its moves up to that ply only, so the move's transaction stores what
became clear with it and nothing stored earlier changes.
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass

from bot.db import NamedOpening
from bot.db.naming import name_game
from rules import Color, Game
from rules.openings import (
    GAME_FAMILIES,
    Name,
    Namer,
    Naming,
    Openings,
    default_table,
    is_named,
    namer_of,
)

from ..play.store import GameStore

#: Games named at once by one backfill step (each costs a replay and a naming).
BACKFILL_BATCH = 20
#: Openings a profile lists, the most played first.
PROFILE_OPENINGS = 8
#: Seconds a command spends naming old games before it answers (the rest wait for the
#: next command, or `python -m bot.db name-openings`): an answer is due within 3 s.
NAMING_BUDGET = 0.25
#: Games whose naming a process keeps between their moves.
NAMERS_KEPT = 512


@dataclass(frozen=True, slots=True)
class OpeningResult:
    """A member's games with `name` on their side: won, lost, drawn."""

    name: Name
    won: int
    lost: int
    drawn: int

    @property
    def played(self) -> int:
        return self.won + self.lost + self.drawn


class MoveNamer:
    """Names each stored move's game, keeping the last few games' `Namer` so that a move
    costs one step, not a naming of the whole game: a game's names at a ply depend on its
    moves only, so a kept namer whose moves are the game's but the last is stepped once."""

    def __init__(self, kept: int = NAMERS_KEPT) -> None:
        self._kept = kept
        self._namers: OrderedDict[int, tuple[tuple[int, ...], Namer]] = OrderedDict()

    def names(self, game_id: int, game: Game) -> tuple[Openings, list[NamedOpening]]:
        """The names of `game` (game `game_id`), and those that became clear with its last
        move (to store with that move)."""
        if not is_named(game.start):
            return Openings(()), []
        codes = tuple(move.code for move in game.moves)
        kept = self._namers.get(game_id)
        if kept is not None and codes and kept[0] == codes[:-1]:
            namer = kept[1].copy()
            namer.step(game.position.board)
        else:
            namer = namer_of(game.start, game.moves)
        self._namers[game_id] = (codes, namer)
        self._namers.move_to_end(game_id)
        while len(self._namers) > self._kept:
            self._namers.popitem(last=False)
        openings = namer.openings()
        return openings, [_stored(naming) for naming in openings.new_at(game.ply)]


def announced(openings: Openings, names: Sequence[NamedOpening], ply: int) -> list[Naming]:
    """Of the `names` a move stored (at `ply`), those worth a line in the thread: the most
    specific ones as of that ply (石田流, not also 三間飛車 and 振り飛車), the game's
    families (相居飛車, 対抗形) left out."""
    stored = {(name.color, name.name_id) for name in names if name.ply == ply}
    shown = []
    for naming in openings.new_at(ply):
        color = naming.color
        if (int(color), naming.name.id) not in stored:
            continue
        if naming.name in openings.shown(color, naming.name.kind, up_to=ply):
            shown.append(naming)
    return shown


def _stored(naming: Naming) -> NamedOpening:
    return NamedOpening(int(naming.color), naming.name.id, naming.ply)


def openings_of(names: Sequence[NamedOpening]) -> Openings:
    """The stored names of a game as `rules.openings` reads them, in the order the
    classifier gives them (by ply, then sente first, then the table's order); names the
    table no longer has are skipped."""
    table = default_table().names
    order = {name_id: index for index, name_id in enumerate(table)}
    known = [name for name in names if name.name_id in table]
    known.sort(key=lambda name: (name.ply, name.color, order[name.name_id]))
    return Openings(
        tuple(Naming(table[name.name_id], Color(name.color), name.ply) for name in known)
    )


class GameOpenings:
    """Naming the server's games: backfilling, listing, tallying."""

    def __init__(self, store: GameStore) -> None:
        self._store = store
        self._naming: set[int] = set()  # games a call of this process is naming now

    async def of_games(self, game_ids: Sequence[int]) -> dict[int, Openings]:
        """The names of each game, as stored; the finished ones among them not yet named to
        their end (finished before naming began) are named first, within `NAMING_BUDGET`."""
        async with self._store.db.read() as tx:
            unnamed = await tx.openings.unnamed_among(game_ids)
        await self._name(unnamed)
        async with self._store.db.read() as tx:
            stored = await tx.openings.of_games(game_ids)
        return {game_id: openings_of(names) for game_id, names in stored.items()}

    async def name_finished(
        self,
        *,
        limit: int = BACKFILL_BATCH,
        guild_id: int | None = None,
        user_id: int | None = None,
        budget: float | None = None,
    ) -> int:
        """Name up to `limit` finished games not yet named to their end (those that
        finished before naming began), of one server and player when given, within
        `budget` seconds when given; how many were named. A game another call of this
        process is naming is left to it, so members asking at once share the work."""
        async with self._store.db.read() as tx:
            game_ids = await tx.openings.unnamed_finished(
                limit=limit, guild_id=guild_id, user_id=user_id
            )
        return await self._name(game_ids, budget=budget)

    async def _name(self, game_ids: Sequence[int], *, budget: float | None = NAMING_BUDGET) -> int:
        """Name these games one by one (each read, named and stored on its own, the loop
        free between two), until `budget` seconds have passed; how many were named."""
        started = time.monotonic()
        named = 0
        for game_id in game_ids:
            if budget is not None and time.monotonic() - started > budget:
                break
            if game_id in self._naming:
                continue
            self._naming.add(game_id)
            try:
                await name_game(self._store.db, game_id)
            finally:
                self._naming.discard(game_id)
            named += 1
            await asyncio.sleep(0)
        return named

    async def results(self, guild_id: int, user_id: int) -> list[OpeningResult]:
        """A member's openings in a server's finished games with their results, the most
        played first (the games of theirs not yet named are named first, a batch at a time)."""
        await self.name_finished(guild_id=guild_id, user_id=user_id, budget=NAMING_BUDGET)
        async with self._store.db.read() as tx:
            tallies = await tx.openings.tallies(guild_id, user_id)
        names = default_table().names
        results = [
            OpeningResult(names[tally.name_id], tally.won, tally.lost, tally.drawn)
            for tally in tallies
            if tally.name_id in names
            and names[tally.name_id].kind == "opening"
            and tally.name_id not in GAME_FAMILIES
        ]
        results.sort(key=lambda result: (-result.played, -result.won, result.name.id))
        return results[:PROFILE_OPENINGS]
