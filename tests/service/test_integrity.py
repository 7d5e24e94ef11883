"""The move list is the truth: a cached position or ply that disagrees with it is
repaired (with a warning), a game the moves ended is recorded as ended, and a move
list that does not replay is reported instead of being played on."""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

import pytest

from bot.db import open_database
from bot.services import GameService, ServiceError
from rules import Termination

from .conftest import ALICE, FakeClock, play_all, start_game
from .test_games import SHORT_MATE_USI


def corrupt(path: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute(sql, params)


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "shogi.db"


async def test_wrong_cached_position_is_repaired(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await open_database(path)
    game = await start_game(GameService(db, clock=FakeClock()))
    await play_all(GameService(db, clock=FakeClock()), game.id, ["7g7f", "3c3d"])
    await db.close()
    corrupt(
        path, "UPDATE games SET sfen = ?, ply = 5 WHERE id = ?", "9/9/9/9/9/9/9/9/9 b - 1", game.id
    )
    db = await open_database(path)
    try:
        service = GameService(db, clock=FakeClock())
        with caplog.at_level(logging.WARNING):
            view = await service.games.get(game.id)
        assert "repairing" in caplog.text
        assert view.ply == 2 and [m.usi() for m in view.game.moves] == ["7g7f", "3c3d"]
        async with db.read() as tx:
            record = await tx.games.get(game.id)
        assert record is not None and record.ply == 2
        assert record.sfen == view.game.position.sfen()
        await service.moves.play(game.id, ALICE.user_id, "2g2f", expected_ply=2)  # and play goes on
    finally:
        await db.close()


async def test_a_game_the_moves_ended_is_recorded_as_ended(path: Path) -> None:
    db = await open_database(path)
    service = GameService(db, clock=FakeClock())
    game = await start_game(service)
    await play_all(service, game.id, SHORT_MATE_USI)
    await db.close()
    corrupt(
        path,
        "UPDATE games SET status = 'active', termination = NULL, winner = NULL WHERE id = ?",
        game.id,
    )
    db = await open_database(path)
    try:
        view = await GameService(db, clock=FakeClock()).games.get(game.id)
        assert view.status == "finished"
        assert view.outcome is not None and view.outcome.termination is Termination.CHECKMATE
    finally:
        await db.close()


async def test_a_move_list_that_does_not_replay_is_reported(
    path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    db = await open_database(path)
    service = GameService(db, clock=FakeClock())
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await db.close()
    corrupt(path, "UPDATE moves SET usi = '7g7f' WHERE game_id = ? AND ply = 2", game.id)
    db = await open_database(path)
    try:
        with pytest.raises(ServiceError, match="damaged"):
            await GameService(db, clock=FakeClock()).moves.play(game.id, ALICE.user_id, "2g2f")
        assert "does not replay" in caplog.text
    finally:
        await db.close()
