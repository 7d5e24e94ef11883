"""Whole games through the service: how they end, who may do what, and what a move returns."""

from __future__ import annotations

import pytest

from bot.db import Database, GameRow
from bot.db.games import GameRepository
from bot.services import (
    GameOver,
    GameService,
    NotAPlayer,
    NotFound,
    NotYourTurn,
    PositionChanged,
    ServiceError,
)
from rules import Color, Game, Handicap, Termination

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, play_all, start_game

SHORT_MATE = ["P-76", "７二金", "8h3c+", "G4a-4b", "+Bx42", "5a6a", "G*52"]
SHORT_MATE_USI = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]
SENNICHITE = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3
PERPETUAL_SFEN = "g8/5+B3/6k2/9/9/9/9/9/4K4 w - 1"
PERPETUAL = ["3c2b", "4b3a", "2b3c", "3a4b"] * 3


async def stored_moves(db: Database, game_id: int) -> list[str]:
    async with db.read() as tx:
        return await tx.moves.usi_list(game_id)


async def test_a_short_mate_in_mixed_notations(service: GameService, db: Database) -> None:
    game = await start_game(service)
    assert (game.sente, game.gote, game.to_move) == (ALICE, BOB, ALICE)
    assert game.status == "active" and game.ply == 0 and game.deadline is not None
    result = await play_all(service, game.id, SHORT_MATE)
    assert result.move.usi == "G*5b"
    assert result.move.japanese == "５二金打" or result.move.japanese.startswith("５二金")
    assert result.check is True
    assert result.outcome is not None
    assert result.outcome.termination is Termination.CHECKMATE
    assert result.outcome.winner is Color.SENTE
    assert result.next_player is None and result.deadline is None
    view = await service.games.get(game.id)
    assert view.status == "finished" and view.outcome == result.outcome
    assert view.to_move is None and view.deadline is None and view.ply == 7
    assert [move.usi() for move in view.game.moves] == SHORT_MATE_USI
    assert await stored_moves(db, game.id) == SHORT_MATE_USI
    with pytest.raises(GameOver) as refused:
        await service.moves.play(game.id, BOB.user_id, "P-34")
    assert refused.value.outcome == result.outcome
    assert await service.games.active_for(ALICE.user_id) == []


async def test_move_result_echoes_both_notations_and_the_next_player(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service)
    clock.advance(hours=5)
    result = await service.moves.play(game.id, ALICE.user_id, "７六歩")
    assert (result.move.usi, result.move.japanese, result.move.western) == (
        "7g7f",
        "７六歩",
        "P-7f",
    )
    assert result.mover == ALICE and result.next_player == BOB
    assert result.check is False and result.outcome is None
    assert result.deadline == clock.now + game.time_control.period  # type: ignore[operator]
    assert result.game.ply == 1 and result.game.to_move == BOB
    assert result.game.last_move_text == result.move
    assert result.game.deadline == result.deadline
    again = await service.games.get(game.id)
    assert again.last_move_text == result.move and again.deadline == result.deadline


async def test_a_handicap_game_gote_gives_and_moves_first(service: GameService) -> None:
    game = await start_game(service, color="gote", handicap="two_piece")
    assert game.handicap is Handicap.TWO_PIECE
    assert (game.sente, game.gote) == (BOB, ALICE)  # Alice chose gote: she gives the handicap
    assert game.to_move == ALICE and game.game.position.turn is Color.GOTE
    assert game.game.start.sfen() == Handicap.TWO_PIECE.sfen
    with pytest.raises(NotYourTurn):
        await service.moves.play(game.id, BOB.user_id, "P-76")
    await play_all(service, game.id, ["5a4b", "P-76", "4b3b"])
    report = await service.impasse.report(game.id)
    assert report.required_27 == {Color.SENTE: 28, Color.GOTE: 17}
    view = await service.endings.resign(game.id, BOB.user_id)
    assert view.outcome is not None and view.outcome.winner is Color.GOTE


async def test_handicap_receiver_chooses_sente(service: GameService) -> None:
    game = await start_game(service, color="sente", handicap="lance")
    assert (game.sente, game.gote, game.to_move) == (ALICE, BOB, BOB)


async def test_sennichite_is_a_draw(service: GameService) -> None:
    game = await start_game(service)
    result = await play_all(service, game.id, SENNICHITE)
    assert result.outcome is not None
    assert result.outcome.termination is Termination.SENNICHITE
    assert result.outcome.winner is None
    assert (await service.games.get(game.id)).status == "finished"


async def test_perpetual_check_loses(service: GameService, db: Database) -> None:
    game = await start_game(service, start_sfen=PERPETUAL_SFEN)
    assert game.to_move == BOB  # gote to move in the set-up position
    result = await play_all(service, game.id, PERPETUAL)
    assert result.outcome is not None
    assert result.outcome.termination is Termination.PERPETUAL_CHECK
    assert result.outcome.winner is Color.GOTE  # sente gave every check
    view = await service.games.get(game.id)
    assert view.game.start.sfen() == PERPETUAL_SFEN
    assert view.outcome == result.outcome
    assert await stored_moves(db, game.id) == PERPETUAL


async def test_resignation_any_time_also_on_the_opponents_turn(service: GameService) -> None:
    game = await start_game(service)
    for mover, move in ((ALICE, "7g7f"), (BOB, "3c3d"), (ALICE, "2g2f")):
        await service.moves.play(game.id, mover.user_id, move)
    with pytest.raises(NotAPlayer):
        await service.endings.resign(game.id, CAROL.user_id)
    view = await service.endings.resign(game.id, ALICE.user_id)  # Bob is to move
    assert view.outcome is not None
    assert view.outcome.termination is Termination.RESIGNATION
    assert view.outcome.winner is Color.GOTE
    assert view.game.outcome == view.outcome and view.status == "finished"
    with pytest.raises(GameOver) as refused:
        await service.endings.resign(game.id, BOB.user_id)
    assert refused.value.outcome == view.outcome
    with pytest.raises(GameOver):
        await service.moves.play(game.id, BOB.user_id, "3c3d")


@pytest.mark.parametrize("moves", [[], ["7g7f"]])
async def test_abort_before_both_have_moved(service: GameService, moves: list[str]) -> None:
    game = await start_game(service)
    await play_all(service, game.id, moves) if moves else None
    view = await service.endings.abort(game.id, BOB.user_id)
    assert view.outcome is not None
    assert view.outcome.termination is Termination.ABORT and view.outcome.winner is None


async def test_no_abort_once_both_have_moved(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    with pytest.raises(ServiceError, match="before both players have moved"):
        await service.endings.abort(game.id, ALICE.user_id)
    assert (await service.games.get(game.id)).status == "active"


async def test_turn_membership_and_stale_plies(service: GameService, db: Database) -> None:
    game = await start_game(service)
    with pytest.raises(NotAPlayer):
        await service.moves.play(game.id, CAROL.user_id, "7g7f")
    with pytest.raises(NotYourTurn, match="Alice"):
        await service.moves.play(game.id, BOB.user_id, "3c3d")
    await service.moves.play(game.id, ALICE.user_id, "7g7f", expected_ply=0)
    with pytest.raises(PositionChanged):
        await service.moves.play(game.id, BOB.user_id, "3c3d", expected_ply=0)
    await service.moves.play(game.id, BOB.user_id, "3c3d", expected_ply=1)
    assert await stored_moves(db, game.id) == ["7g7f", "3c3d"]


def test_game_view_helpers() -> None:
    from bot.services.play.snapshots import turn_of

    assert turn_of(Handicap.EVEN.sfen) is Color.SENTE
    assert turn_of(Handicap.LANCE.sfen) is Color.GOTE
    assert Game(Handicap.LANCE.sfen).position.turn is Color.GOTE


async def test_a_threads_game_is_looked_up_once(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nearly every move is typed in its game's thread: after the first, finding the game
    asks the database nothing; moving the game to another thread forgets the old one."""
    game = await start_game(service)
    await service.games.set_thread(game.id, 777)
    lookups: list[int] = []
    original = GameRepository.by_thread

    async def counted(self: GameRepository, thread_id: int) -> GameRow | None:
        lookups.append(thread_id)
        return await original(self, thread_id)

    monkeypatch.setattr(GameRepository, "by_thread", counted)
    for _ in range(3):
        assert await service.games.resolve_id(ALICE.user_id, guild_id=GUILD, thread_id=777) == (
            game.id
        )
    assert lookups == [777]
    with pytest.raises(NotFound):  # the same thread seen from another server
        await service.games.resolve_id(ALICE.user_id, guild_id=GUILD + 1, thread_id=777)
    await service.games.set_thread(game.id, 888)
    assert await service.games.resolve_id(BOB.user_id, guild_id=GUILD, thread_id=888) == game.id
    other = await start_game(service, challenger=CAROL)
    await service.games.set_thread(other.id, 777)
    assert await service.games.resolve_id(CAROL.user_id, guild_id=GUILD, thread_id=777) == (
        other.id
    )


async def test_a_game_moves_from_a_lost_thread_to_one_new_thread(service: GameService) -> None:
    """Two processes that find a game's thread deleted each open a new one: the game moves
    to the first only; the second learns it lost; a finished game moves nowhere."""
    game = await start_game(service)
    await service.games.set_thread(game.id, 777)
    assert await service.games.move_thread(game.id, 777, 888)
    assert not await service.games.move_thread(game.id, 777, 999)  # already moved
    assert (await service.games.get(game.id)).thread_id == 888
    assert await service.games.resolve_id(ALICE.user_id, guild_id=GUILD, thread_id=888) == game.id
    assert await service.games.in_thread(777, guild_id=GUILD) is None
    await service.endings.resign(game.id, BOB.user_id)
    assert not await service.games.move_thread(game.id, 888, 1000)
    assert (await service.games.get(game.id)).thread_id == 888
