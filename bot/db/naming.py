"""Naming the openings of finished games in batches, beside a running bot: for a club whose
games finished before openings were named (`python -m bot.db name-openings`).

Each game is replayed from its stored moves, named by `rules.openings`, and stored in its
own transaction with `ON CONFLICT DO NOTHING`, so running it twice, or while the bot names
the same games on first use, stores each name once.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from rules import Game, IllegalMoveError
from rules.openings import classify_game

from .database import Database, Session
from .named_openings import NamedOpening

#: Games read at once.
BATCH = 50


async def name_finished_games(db: Database, *, limit: int) -> int:
    """Name at most `limit` finished games not named yet, the oldest first; how many. A
    game whose stored moves do not replay is marked named with nothing, and counted."""
    named = 0
    while named < limit:
        async with db.read() as tx:
            game_ids = await tx.openings.unnamed_finished(limit=min(BATCH, limit - named))
        if not game_ids:
            break
        for game_id in game_ids:
            await name_game(db, game_id)
            named += 1
            await asyncio.sleep(0)
    return named


async def name_game(db: Database, game_id: int) -> None:
    """Name one game from its stored moves and mark it named: read in one transaction,
    named outside any (the naming is the slow part), stored in another."""
    async with db.read() as tx:
        row = await tx.games.get(game_id)
        moves = await tx.moves.usi_list(game_id)
    if row is None:
        return
    try:
        game: Game | None = Game.replay(row.start_sfen, moves)
    except (IllegalMoveError, ValueError):
        game = None
    names = (
        []
        if game is None
        else [
            NamedOpening(int(naming.color), naming.name.id, naming.ply)
            for naming in classify_game(game).namings
        ]
    )

    async def store(tx: Session) -> None:
        await tx.openings.add(game_id, names)
        await tx.openings.mark_named(game_id, datetime.now(UTC))

    await db.run(store)
