"""Player preferences (confirming moves, a message on one's turn) and the preview of a move
that a player confirms: stored and read back, and a preview checks everything a move
does while storing nothing."""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import Database, PreferencesRow, open_database
from bot.db.preferences import PreferenceRepository
from bot.services import (
    GameService,
    NotAPlayer,
    Notifications,
    NotYourTurn,
    PositionChanged,
    Preferences,
)
from rules import Termination

from .conftest import ALICE, BOB, CAROL, START, FakeClock, play_all, start_game
from .test_moves import state

EACH, NONE = Notifications.EACH_TURN, Notifications.NONE


async def test_preferences_are_stored_and_survive_a_new_service(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    service = GameService(db)
    assert await service.preferences.of(1) == Preferences()  # never chose: all off
    chosen = await service.preferences.change(1, confirm_moves=True, language="ja")
    assert chosen == Preferences(confirm_moves=True, language="ja")
    await service.preferences.change(2, notifications=EACH, language="en")
    # A change of one preference keeps the others.
    again = await service.preferences.change(1, notifications=EACH)
    assert again == Preferences(confirm_moves=True, notifications=EACH, language="ja")
    await db.close()

    db = await open_database(path)
    fresh = GameService(db)
    assert await fresh.preferences.of(1) == Preferences(True, EACH, "ja")
    assert await fresh.preferences.of(2) == Preferences(False, EACH, "en")
    assert await fresh.preferences.of(3) == Preferences()
    off = await fresh.preferences.change(1, confirm_moves=False, notifications=NONE)
    assert off == Preferences(False, NONE, "ja")
    assert await fresh.preferences.of(1) == off
    await db.close()


async def test_only_languages_with_catalogs_are_stored(file_db: Database) -> None:
    with pytest.raises(ValueError, match="fr"):
        await GameService(file_db).preferences.change(1, language="fr")
    assert await GameService(file_db).preferences.of(1) == Preferences()


async def test_nothing_is_written_when_nothing_changes(file_db: Database) -> None:
    def written() -> list[tuple[int, int]]:
        with closing(sqlite3.connect(file_db.location)) as connection:
            rows = connection.execute("SELECT user_id, updated_at FROM player_preferences")
            return rows.fetchall()

    service = GameService(file_db, clock=FakeClock())
    await service.preferences.change(1, confirm_moves=True, language="en")
    before = written()
    service = GameService(file_db, clock=FakeClock(START + timedelta(days=1)))
    await service.preferences.change(1, confirm_moves=True, language="en")
    assert written() == before
    await service.preferences.change(1, confirm_moves=False)
    assert written() != before


async def test_a_preview_stores_nothing_and_shows_the_game_after_the_move(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    preview = await service.moves.preview(game.id, ALICE.user_id, "P-76")
    assert (preview.ply, preview.move.japanese, preview.move.usi) == (0, "７六歩", "7g7f")
    assert preview.game.ply == 1 and preview.game.last_move_text == preview.move
    assert preview.game.to_move == BOB and not preview.check
    assert await state(db, game.id) == (0, [])
    assert (await service.games.get(game.id)).ply == 0  # the cached game is untouched too

    # Confirming is playing the previewed move at the previewed ply.
    played = await service.moves.play(
        game.id, ALICE.user_id, preview.move.usi, expected_ply=preview.ply
    )
    assert played.game.game.position.sfen() == preview.game.game.position.sfen()
    assert await state(db, game.id) == (1, ["7g7f"])


async def test_a_preview_is_checked_as_a_move_is(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(NotYourTurn):
        await service.moves.preview(game.id, BOB.user_id, "3c3d")
    with pytest.raises(NotAPlayer):
        await service.moves.preview(game.id, CAROL.user_id, "7g7f")
    with pytest.raises(PositionChanged):
        await service.moves.preview(game.id, ALICE.user_id, "7g7f", expected_ply=3)


async def test_a_stale_confirmation_is_refused(service: GameService, db: Database) -> None:
    game = await start_game(service)
    first = await service.moves.preview(game.id, ALICE.user_id, "7g7f")
    second = await service.moves.preview(game.id, ALICE.user_id, "2g2f")
    await service.moves.play(game.id, ALICE.user_id, second.move.usi, expected_ply=second.ply)
    with pytest.raises(PositionChanged) as refused:
        await service.moves.play(game.id, ALICE.user_id, first.move.usi, expected_ply=first.ply)
    assert "position changed" in refused.value.message
    assert await state(db, game.id) == (1, ["2g2f"])


async def test_a_preview_of_mate_shows_the_ending_and_ends_nothing(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "8h2b+", "4a5b", "B*4b", "5a4a"])
    preview = await service.moves.preview(game.id, ALICE.user_id, "2b3a")
    outcome = preview.game.outcome
    assert outcome is not None and outcome.termination is Termination.CHECKMATE
    assert preview.check and preview.game.to_move is None
    stored = await service.games.get(game.id)
    assert stored.is_active and stored.ply == 6
    assert (await state(db, game.id))[0] == 6


async def test_preferences_are_read_from_the_database_once(
    file_db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A `/move` asks for its player's preferences; after the first read that must cost no
    query, or moves would wait for the database twice (and the order in which two players'
    moves reach the game would depend on whose preferences were already known)."""
    await GameService(file_db).preferences.change(1, confirm_moves=True)
    reads = 0
    original = PreferenceRepository.all

    async def counted(repository: PreferenceRepository) -> list[PreferencesRow]:
        nonlocal reads
        reads += 1
        return await original(repository)

    monkeypatch.setattr(PreferenceRepository, "all", counted)
    service = GameService(file_db)
    first = await asyncio.gather(*(service.preferences.of(user) for user in (1, 2, 1, 3)))
    assert [p.confirm_moves for p in first] == [True, False, True, False]
    await service.preferences.change(2, notifications=EACH)
    assert (await service.preferences.of(2)).turn_messages
    assert reads == 1


async def test_a_closed_inbox_is_known_to_every_process_until_a_change(
    shared_location: str | Path,
) -> None:
    """Discord refused a member's direct message through one process: another process, and
    a process started afterwards, know not to try; showing the settings keeps it closed;
    any change (even choosing what they had) opens it for every process."""
    first, second = [await open_database(shared_location) for _ in range(2)]
    try:
        one = GameService(first, shared_database=True).preferences
        other = GameService(second, shared_database=True).preferences
        await one.change(1, notifications=EACH, language="en")
        assert not await other.inbox_closed(1)
        await one.close_inbox(1)
        await one.close_inbox(1)  # two refusals at once keep one mark
        assert await other.inbox_closed(1) and not await other.inbox_closed(2)
        await other.change(1, language="en")  # what every /preferences sends: no change
        assert await one.inbox_closed(1)
        await other.change(1, notifications=EACH)  # chosen again: tried again
        assert not await one.inbox_closed(1)

        await one.close_inbox(1)
        await first.close()
        first = await open_database(shared_location)
        restarted = GameService(first).preferences
        assert await restarted.inbox_closed(1)
        await restarted.change(1, language="ja")  # a change of language reopens it too
        assert not await other.inbox_closed(1)
    finally:
        await first.close()
        await second.close()
