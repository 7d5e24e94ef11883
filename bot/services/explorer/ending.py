"""A game's moves indexed for the explorer in the transaction that ends it: the ending and
its index are committed together or not at all, so each finished game is counted once and
no game in progress is counted."""

from __future__ import annotations

from bot.db import Session

from .index import indexed_moves


async def index_ending(tx: Session, game_id: int) -> None:
    """In the transaction that ends game `game_id` (its row already finished, its moves
    stored): index its moves, unless they are already (`ExplorerRepository.claim`).

    Example: `await index_ending(tx, row.id)` beside `claim_ending` in every ending.
    """
    row = await tx.games.get(game_id)
    if row is None or row.status != "finished" or row.finished_at is None:
        return
    moves = await tx.moves.usi_list(game_id)
    rows = indexed_moves(
        game_id, row.start_sfen, moves, winner=row.winner, termination=row.termination
    )
    if await tx.explorer.claim(game_id, row.guild_id, row.finished_at):
        await tx.explorer.add(row.guild_id, rows)
