"""Two moves racing for one game: exactly one lands, the other is told the position
changed (or that it is no longer their turn), and the database stays consistent.
Races inside one service (one connection, or a pool's on PostgreSQL) and between two
databases opened on one file or one PostgreSQL schema, which is what two bot processes
would do."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from bot.db import Database, open_database
from bot.services import GameOver, GameService, NotYourTurn, PlayedMove, PositionChanged

from .conftest import ALICE, BOB, FakeClock, assert_consistent, start_game

ROUNDS = 200


async def race(
    first: GameService, second: GameService, rounds: int, rng: random.Random
) -> dict[str, int]:
    tally = {"landed": 0, "PositionChanged": 0, "NotYourTurn": 0, "GameOver": 0}
    game = await start_game(first, time_control="unlimited")
    for _ in range(rounds):
        view = await first.games.get(game.id)
        if view.status != "active":
            game = await start_game(first, time_control="unlimited")
            view = await first.games.get(game.id)
        assert view.to_move is not None
        moves = [move.usi() for move in view.game.position.legal_moves()]
        a, b = rng.sample(moves, 2) if len(moves) > 1 else (moves[0], moves[0])
        user = view.to_move.user_id
        results = await asyncio.gather(
            first.moves.play(view.id, user, a, expected_ply=view.ply),
            second.moves.play(view.id, user, b, expected_ply=view.ply),
            return_exceptions=True,
        )
        landed = [r for r in results if isinstance(r, PlayedMove)]
        lost = [r for r in results if not isinstance(r, PlayedMove)]
        assert len(landed) == 1, results
        # A move that ended the game may leave the loser finding it over: on PostgreSQL the
        # two run at once on two connections, and the loser may load the game only after
        # the winner's move was committed.
        told = (
            PositionChanged | NotYourTurn | GameOver
            if not landed[0].game.is_active
            else (PositionChanged | NotYourTurn)
        )
        assert len(lost) == 1 and isinstance(lost[0], told), results
        tally["landed"] += 1
        tally[type(lost[0]).__name__] += 1
        after = await first.games.get(view.id)
        assert after.ply == view.ply + 1
        assert after.game.moves[-1].usi() == landed[0].move.usi
    return tally


async def test_racing_moves_in_one_service(db: Database) -> None:
    service = GameService(db, clock=FakeClock())
    tally = await race(service, service, ROUNDS, random.Random(1))
    assert tally["landed"] == ROUNDS
    assert tally["PositionChanged"] > 0  # the race really happened, and was caught
    assert await assert_consistent(db) == ROUNDS


async def test_racing_moves_from_two_connections(shared_location: str | Path) -> None:
    one = await open_database(shared_location)
    two = await open_database(shared_location)
    try:
        clock = FakeClock()
        first, second = GameService(one, clock=clock), GameService(two, clock=clock)
        tally = await race(first, second, ROUNDS // 2, random.Random(2))
        assert tally["landed"] == ROUNDS // 2
        assert await assert_consistent(one) == ROUNDS // 2
    finally:
        await one.close()
        await two.close()


async def test_resign_racing_a_move_ends_the_game_once(db: Database) -> None:
    service = GameService(db, clock=FakeClock())
    for _ in range(20):
        game = await start_game(service)
        await service.moves.play(game.id, ALICE.user_id, "7g7f")
        await service.moves.play(game.id, BOB.user_id, "3c3d")  # both moved: a resignation
        results = await asyncio.gather(
            service.moves.play(game.id, ALICE.user_id, "2g2f"),
            service.endings.resign(game.id, BOB.user_id),
            return_exceptions=True,
        )
        assert not any(isinstance(r, BaseException) and not hasattr(r, "message") for r in results)
        view = await service.games.get(game.id)
        assert view.status == "finished" and view.outcome is not None
        assert view.outcome.winner is not None and view.outcome.winner.name == "SENTE"
    await assert_consistent(db)
