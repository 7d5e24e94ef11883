"""Move numbers as players read them: a game set up after move 30 numbers its moves
from 31 in everything the service answers with (the played move, the listing, notes, the
replay, the record and its link), takes 31 back as its first move, and refuses a number
before its start with one sentence; a game from the usual start numbers its moves as its
plies. The stored plies never change."""

from __future__ import annotations

import pytest

from bot.db import Database
from bot.services import BadMoveNumber, GameService, ListedStatus, Numbering
from rules import Position

from .conftest import ALICE, GUILD, play_all, start_game

#: The usual start, but as if thirty moves had been played before it: sente to play move 31.
AT_31 = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 31"


def test_numbering_reads_the_sfen_move_number_and_turns_plies_both_ways() -> None:
    assert Numbering.of_sfen(AT_31) == Numbering(30)
    assert Numbering.of_sfen(None) == Numbering.of_sfen(Position.initial().sfen()) == Numbering()
    assert Numbering.of_sfen("4k4/9/4G4/9/9/9/9/9/9 b G") == Numbering()  # no move number
    assert [Numbering(30).number(ply) for ply in (0, 1, 2)] == [30, 31, 32]
    assert [Numbering(30).ply(number) for number in (30, 31, 45)] == [0, 1, 15]
    assert [Numbering().number(ply) for ply in (0, 1, 2)] == [0, 1, 2]
    with pytest.raises(BadMoveNumber) as refused:
        Numbering(30).ply(29)
    assert refused.value.message == "This game starts after move 30: its first move is move 31."


async def test_a_game_from_move_31_answers_with_its_move_numbers(service: GameService) -> None:
    game = await start_game(service, start_sfen=AT_31)
    assert (game.ply, game.move_number) == (0, 30)  # the start: thirty moves were played
    played = await play_all(service, game.id, ["7g7f"])
    assert (played.game.ply, played.game.move_number) == (1, 31)
    note = await service.notes.add(game.id, ALICE.user_id, "the first move here")
    assert (note.ply, note.move_number) == (1, 31)
    [listed] = await service.notes.of(game.id, ALICE.user_id)
    assert listed.move_number == 31
    [line] = (
        await service.games.listed(ALICE.user_id, guild_id=GUILD, status=ListedStatus.ALL)
    ).games
    assert (line.ply, line.move_number) == (1, 31)


async def test_replay_takes_the_number_players_see(service: GameService) -> None:
    game = await start_game(service, start_sfen=AT_31)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    after_31 = await service.games.at_move(game.id, 31, guild_id=GUILD)
    assert after_31.ply == 1 and [m.usi() for m in after_31.board.game.moves] == ["7g7f"]
    assert after_31.board.move_number == 31
    start = await service.games.at_move(game.id, 30, guild_id=GUILD)
    assert start.ply == 0 and start.board.game.moves == []
    end = await service.games.at_move(game.id, 10_000, guild_id=GUILD)
    assert end.ply == 3 and end.board.move_number == 33
    with pytest.raises(BadMoveNumber, match="its first move is move 31"):
        await service.games.at_move(game.id, 29, guild_id=GUILD)
    with pytest.raises(BadMoveNumber):
        await service.games.at_move(game.id, 0, guild_id=GUILD)


async def test_the_stored_plies_stay_plies(service: GameService, db: Database) -> None:
    game = await start_game(service, start_sfen=AT_31)
    await play_all(service, game.id, ["7g7f"])
    await service.notes.add(game.id, ALICE.user_id, "kept at ply 1")
    async with db.query() as q:
        row = await q.games.get(game.id)
        [note] = await q.notes.of(game.id, ALICE.user_id)
    assert row is not None and (row.ply, note.ply) == (1, 1)


async def test_the_record_and_its_link_agree_with_the_thread(service: GameService) -> None:
    game = await start_game(service, start_sfen=AT_31)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.endings.resign(game.id, ALICE.user_id)  # the link comes with the ending
    kif = await service.exports.file(game.id, "kif")
    assert "手数＝30\n" in kif.content
    assert "\n  31 ７六歩(77)" in kif.content and "\n  32 ３四歩(33)" in kif.content
    assert kif.analysis_url is not None
    assert "_b_-_31?moves=7g7f_3c3d" in kif.analysis_url  # lishogi reads the move number


async def test_a_game_from_the_usual_start_numbers_moves_as_plies(service: GameService) -> None:
    game = await start_game(service)
    assert game.numbering == Numbering() and game.move_number == 0
    played = await play_all(service, game.id, ["7g7f", "3c3d"])
    assert played.game.move_number == played.game.ply == 2
    replayed = await service.games.at_move(game.id, 1, guild_id=GUILD)
    assert replayed.ply == 1
    assert (await service.games.at_move(game.id, 0, guild_id=GUILD)).ply == 0
