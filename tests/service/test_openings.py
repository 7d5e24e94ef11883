"""Openings and castles named in the service: stored by the move that makes them clear
(announced once), shown in lists and records, tallied per member, and named later for
games that finished before naming began."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from pathlib import Path

import pytest

from bot.db import Database, NamedOpening, open_database
from bot.db.__main__ import main
from bot.db.naming import name_finished_games
from bot.services import GameService
from bot.services.records.openings import MoveNamer
from rules import Game
from rules.notation import read_record
from rules.openings import classify_game

from .conftest import ALICE, BOB, GUILD, FakeClock, RecordingEvents, play_all, start_game

RECORDS = Path(__file__).resolve().parents[1] / "data" / "openings"
#: Sente ranges to the fourth file at ply 3; gote's reply at ply 4 names nothing new.
FOURTH_FILE = ["7g7f", "3c3d", "2h6h", "8c8d"]


async def test_a_move_names_what_became_clear_with_it_once(service: GameService) -> None:
    game = await start_game(service)
    played = await play_all(service, game.id, FOURTH_FILE[:2])
    assert played.openings == ()
    played = await play_all(service, game.id, FOURTH_FILE[2:3])
    assert [(n.color.name, n.name.ja) for n in played.openings] == [("SENTE", "四間飛車")]
    played = await play_all(service, game.id, FOURTH_FILE[3:])
    assert played.openings == (), "a name is announced with the move that made it clear only"
    stored = (await service.openings.of_games([game.id]))[game.id]
    assert {(n.color.name, n.name.id, n.ply) for n in stored.namings} == {
        ("SENTE", "fourth_file_rook", 3),
        ("SENTE", "ranging_rook", 3),
    }


async def test_a_forecast_reply_names_its_own_opening(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.forecasts.add(game.id, BOB.user_id, "2h6h 8b4b")
    played = await service.moves.play(game.id, ALICE.user_id, "2h6h")
    assert [n.name.ja for n in played.openings] == ["四間飛車"]
    assert played.forecast is not None
    # The reply's post names gote's rook; the game's family (相振り飛車) is stored, not said.
    assert [(n.color.name, n.name.ja) for n in played.forecast.openings] == [("GOTE", "四間飛車")]
    stored = (await service.openings.of_games([game.id]))[game.id]
    assert {n.color.name for n in stored.namings if n.name.id == "double_ranging_rook"} == {
        "SENTE",
        "GOTE",
    }


async def test_storing_a_name_twice_lands_once(file_db: Database) -> None:
    service = GameService(file_db, clock=FakeClock(), events=RecordingEvents())
    game = await start_game(service)
    name = NamedOpening(0, "mino", 30)
    async with file_db.transaction() as tx:
        first = await tx.openings.add(game.id, [name])
    async with file_db.transaction() as tx:
        second = await tx.openings.add(game.id, [name])
    assert (first, second) == ([name], [])


async def test_handicap_games_are_not_named(service: GameService) -> None:
    game = await start_game(service, color="gote", handicap="bishop")
    played = await play_all(service, game.id, ["3a4b", "7g7f", "8b5b"])
    assert played.openings == ()
    assert (await service.openings.of_games([game.id]))[game.id].namings == ()


async def test_records_carry_the_openings(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, FOURTH_FILE)
    kif = (await service.exports.file(game.id, "kifu")).content
    assert "戦型：四間飛車" in kif and "先手の戦型：四間飛車" in kif
    assert dict(read_record(kif).headers)["先手の戦型"] == "四間飛車"
    csa = (await service.exports.file(game.id, "csa")).content
    assert "'*戦型：四間飛車" in csa
    ki2 = (await service.exports.file(game.id, "ki2u")).content
    assert "戦型：四間飛車" in ki2
    assert "戦型" not in (await service.exports.file(game.id, "usi")).content


def _forget_names(path: Path) -> None:
    """The database as a bot before naming left it: no names, no game named."""
    with sqlite3.connect(path) as raw:
        raw.execute("DELETE FROM game_openings")
        raw.execute("DELETE FROM named_games")


async def _finished_game(service: GameService, moves: list[str], loser: int) -> int:
    game = await start_game(service)
    await play_all(service, game.id, moves)
    await service.endings.resign(game.id, loser)
    return game.id


async def test_profile_tallies_openings_and_names_old_games_first(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    try:
        service = GameService(db, clock=FakeClock(), events=RecordingEvents())
        won = await _finished_game(service, FOURTH_FILE, BOB.user_id)
        lost = await _finished_game(service, ["7g7f", "3c3d", "2h7h"], ALICE.user_id)
        _forget_names(path)
        listed = await service.openings.of_games([won, lost])
        assert [n.name.ja for n in listed[lost].namings] == ["三間飛車", "振り飛車"]
        _forget_names(path)
        tallied = await service.openings.results(GUILD, ALICE.user_id)
        results = {r.name.ja: (r.won, r.lost, r.drawn) for r in tallied}
        assert results == {"振り飛車": (1, 1, 0), "四間飛車": (1, 0, 0), "三間飛車": (0, 1, 0)}
        assert tallied[0].name.ja == "振り飛車", "the most played first"
        assert await service.openings.results(GUILD, BOB.user_id) == []
    finally:
        await db.close()


async def test_the_operator_names_old_games_in_bounded_runs_once(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    try:
        service = GameService(db, clock=FakeClock(), events=RecordingEvents(), rng=random.Random(1))
        games = [await _finished_game(service, FOURTH_FILE, BOB.user_id) for _ in range(3)]
        _forget_names(path)
        assert await name_finished_games(db, limit=2) == 2
        # Two runs at once (an operator's and the bot's) store each name once.
        other = await open_database(path)
        try:
            counts = await asyncio.gather(
                name_finished_games(db, limit=5), name_finished_games(other, limit=5)
            )
        finally:
            await other.close()
        assert sum(counts) >= 1
        assert await name_finished_games(db, limit=5) == 0
        stored = await service.openings.of_games(games)
        for game_id in games:
            ids = [n.name.id for n in stored[game_id].namings]
            assert sorted(ids) == ["fourth_file_rook", "ranging_rook"]
    finally:
        await db.close()


def test_the_move_namer_steps_from_the_kept_game_and_starts_over_after_a_takeback() -> None:
    """Kept between moves, a game's namer takes one step per move and names what naming
    the whole game names; a game whose moves are not the kept ones plus one (a takeback,
    another process's move) is named from its start."""
    record = read_record((RECORDS / "銀冠.kif").read_text(encoding="utf-8"))
    moves = record.game.moves
    namer = MoveNamer()
    for ply in range(1, len(moves) + 1):
        game = Game(moves=moves[:ply])
        openings, new = namer.names(7, game)
        whole = classify_game(game)
        assert openings.namings == whole.namings
        assert new == [NamedOpening(int(n.color), n.name.id, n.ply) for n in whole.new_at(ply)]
    taken_back = Game(moves=moves[:7])
    openings, new = namer.names(7, taken_back)
    assert openings.namings == classify_game(taken_back).namings
    assert [n.name.ja for n in openings.namings] == ["四間飛車", "振り飛車"]


async def test_the_name_openings_command(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    try:
        service = GameService(db, clock=FakeClock(), events=RecordingEvents())
        for _ in range(2):
            await _finished_game(service, FOURTH_FILE, BOB.user_id)
    finally:
        await db.close()
    _forget_names(path)
    env = tmp_path / "none.env"
    args = ["--env-file", str(env), "--database", str(path), "name-openings"]
    assert await asyncio.to_thread(main, args) == 0
    assert "Named the openings of 2 finished games" in capsys.readouterr().out
    assert await asyncio.to_thread(main, args) == 0
    assert "of 0 finished games" in capsys.readouterr().out
    assert await asyncio.to_thread(main, [*args, "--limit", "0"]) == 1
    assert "--limit must be at least 1" in capsys.readouterr().err


async def test_a_takeback_drops_the_names_of_the_moves_it_took_back(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, FOURTH_FILE)
    ask = await service.takebacks.ask(game.id, ALICE.user_id)
    await service.takebacks.answer(
        game.id, ask.request.id, BOB.user_id, accept=True, expected_ply=4
    )
    assert (await service.openings.of_games([game.id]))[game.id].namings == ()
    again = await play_all(service, game.id, ["2h6h"])
    assert [n.name.ja for n in again.openings] == ["四間飛車"], "named again when played again"
