"""Private notes: written at the game's ply, listed and deleted by their author only,
limited in length and number, kept across a restart, and carried by the author's own
record (never by anyone else's)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from bot.db import open_database
from bot.services import MAX_NOTE_LENGTH, MAX_NOTES, GameService, NoteRefused, NotFound
from rules.notation import read_record

from .conftest import ALICE, BOB, CAROL, FakeClock, play_all, start_game


async def test_a_note_is_stored_at_the_games_ply(service: GameService) -> None:
    game = await start_game(service)
    first = await service.notes.add(game.id, ALICE.user_id, "  Plan: Ranging Rook.  ")
    assert (first.ply, first.text, first.game_id) == (0, "Plan: Ranging Rook.", game.id)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    second = await service.notes.add(game.id, ALICE.user_id, "He opened the bishop.")
    assert second.ply == 2
    notes = await service.notes.of(game.id, ALICE.user_id)
    assert [(n.id, n.ply, n.text) for n in notes] == [
        (first.id, 0, "Plan: Ranging Rook."),
        (second.id, 2, "He opened the bishop."),
    ]


async def test_nobody_sees_or_deletes_anothers_notes(service: GameService) -> None:
    game = await start_game(service)
    mine = await service.notes.add(game.id, ALICE.user_id, "alice's secret")
    await service.notes.add(game.id, CAROL.user_id, "a spectator's study")  # not a player
    assert [n.text for n in await service.notes.of(game.id, BOB.user_id)] == []
    assert [n.text for n in await service.notes.of(game.id, CAROL.user_id)] == [
        "a spectator's study"
    ]
    with pytest.raises(NoteRefused, match=f"no note number {mine.id}"):
        await service.notes.delete(game.id, BOB.user_id, mine.id)
    assert await service.notes.delete(game.id, BOB.user_id, None) == 0  # "all" of Bob's: none
    assert [n.text for n in await service.notes.of(game.id, ALICE.user_id)] == ["alice's secret"]
    record = await service.exports.file(game.id, "kif", notes_of=BOB.user_id)
    assert "secret" not in record.content and "study" not in record.content


async def test_deleting_one_and_all(service: GameService) -> None:
    game = await start_game(service)
    notes = [await service.notes.add(game.id, ALICE.user_id, f"note {i}") for i in range(3)]
    assert await service.notes.delete(game.id, ALICE.user_id, notes[1].id) == 1
    assert [n.text for n in await service.notes.of(game.id, ALICE.user_id)] == ["note 0", "note 2"]
    with pytest.raises(NoteRefused):
        await service.notes.delete(game.id, ALICE.user_id, notes[1].id)  # already gone
    assert await service.notes.delete(game.id, ALICE.user_id, None) == 2
    assert await service.notes.of(game.id, ALICE.user_id) == []


async def test_limits_are_clear_refusals_and_store_nothing(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(NoteRefused, match="needs some text"):
        await service.notes.add(game.id, ALICE.user_id, "   \n ")
    with pytest.raises(NoteRefused, match=f"at most {MAX_NOTE_LENGTH} characters"):
        await service.notes.add(game.id, ALICE.user_id, "x" * (MAX_NOTE_LENGTH + 1))
    await service.notes.add(game.id, ALICE.user_id, "x" * MAX_NOTE_LENGTH)  # exactly the limit
    for i in range(MAX_NOTES - 1):
        await service.notes.add(game.id, ALICE.user_id, f"n{i}")
    with pytest.raises(NoteRefused, match=f"already keep {MAX_NOTES} notes"):
        await service.notes.add(game.id, ALICE.user_id, "one too many")
    assert len(await service.notes.of(game.id, ALICE.user_id)) == MAX_NOTES
    await service.notes.add(game.id, BOB.user_id, "Bob's count is his own")


async def test_other_servers_games_do_not_exist(service: GameService) -> None:
    game = await start_game(service)
    await service.notes.add(game.id, ALICE.user_id, "here")
    for call in (
        service.notes.add(game.id, ALICE.user_id, "there", guild_id=7),
        service.notes.of(game.id, ALICE.user_id, guild_id=7),
        service.notes.delete(game.id, ALICE.user_id, None, guild_id=7),
    ):
        with pytest.raises(NotFound):
            await call
    with pytest.raises(NotFound):
        await service.notes.add(9999, ALICE.user_id, "no such game")


async def test_notes_on_a_finished_game(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.endings.resign(game.id, BOB.user_id)
    note = await service.notes.add(game.id, BOB.user_id, "Resigned too early.")
    assert note.ply == 1


@pytest.mark.parametrize("fmt", ["kif", "ki2", "csa"])
async def test_the_authors_record_carries_the_notes(service: GameService, fmt: str) -> None:
    game = await start_game(service)
    await service.notes.add(game.id, CAROL.user_id, "Carol before the first move")
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.notes.add(game.id, CAROL.user_id, "Carol at move two")
    await service.notes.add(game.id, ALICE.user_id, "Alice at move two")
    own = await service.exports.file(game.id, fmt, notes_of=CAROL.user_id)
    assert "Carol before the first move" in own.content and "Carol at move two" in own.content
    assert "Alice at move two" not in own.content
    plain = await service.exports.file(game.id, fmt)
    assert "Carol" not in plain.content
    back = read_record(own.content)
    assert [m.usi() for m in back.game.moves] == ["7g7f", "3c3d"]
    if fmt == "kif":
        lines = own.content.splitlines()
        assert lines[lines.index("   2 ３四歩(33)") + 1] == "*Carol at move two"


async def test_notes_survive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    clock = FakeClock()
    db = await open_database(path)
    service = GameService(db, clock=clock, rng=random.Random(1))
    game = await start_game(service)
    await service.notes.add(game.id, ALICE.user_id, "kept")
    await service.close()
    await db.close()
    db = await open_database(path)
    try:
        again = GameService(db, clock=clock)
        assert [n.text for n in await again.notes.of(game.id, ALICE.user_id)] == ["kept"]
    finally:
        await db.close()
