"""Forecasts (conditional moves): adding lines (checked along the line, limits, own turn),
the reply played in the opponent's move's transaction with its clocks, lines shortened
and dropped, a reply that is no longer legal, an ending on the opponent's move, takebacks,
restarts, and the races with the opponent's move and the forecaster's own move."""

from __future__ import annotations

import random
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import Database, open_database
from bot.services import (
    ForecastRefused,
    GameService,
    NotAPlayer,
    NotYourTurn,
    PositionChanged,
)
from bot.services.play.forecasts import MAX_LINES, MAX_PLIES, split_line

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    START,
    FakeClock,
    RecordingEvents,
    assert_consistent,
    before_next_write,
    play_all,
    start_game,
)

H = timedelta(hours=1)


async def stored_lines(db: Database, game_id: int) -> list[tuple[int, int, tuple[str, ...]]]:
    async with db.query() as q:
        rows = await q.forecasts.for_game(game_id)
    return [(row.player_id, row.ply, row.moves) for row in rows]


async def moves_of(db: Database, game_id: int) -> list[str]:
    async with db.query() as q:
        return await q.moves.usi_list(game_id)


# ------------------------------------------------------------------ adding lines


def test_a_line_splits_on_spaces_and_commas() -> None:
    assert split_line(" 3c3d, 2g2f、８四歩　P-2e ") == ["3c3d", "2g2f", "８四歩", "P-2e"]


async def test_a_line_is_stored_and_shown_in_every_notation(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    added = await service.forecasts.add(game.id, ALICE.user_id, "３四歩 P-2f, 8c8d 2f2e")
    assert [m.usi for m in added.lines[0].moves] == ["3c3d", "2g2f", "8c8d", "2f2e"]
    assert [m.japanese for m in added.lines[0].moves][:2] == ["３四歩", "２六歩"]
    assert added.lines[0].ply == 1 and added.replaced == 0
    listed = await service.forecasts.lines(game.id, ALICE.user_id)
    assert listed.lines == added.lines
    assert (await service.forecasts.lines(game.id, BOB.user_id)).lines == (), "private"


async def test_a_line_with_an_illegal_move_names_the_move_that_fails(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f 8c8d 2g2f")
    assert caught.value.message.startswith("Move 4 of the line (2g2f): ")
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d banana")
    assert caught.value.message.startswith("Move 2 of the line (banana): ")
    assert await stored_lines(db, game.id) == []


async def test_lines_are_refused_on_your_own_turn_and_by_others(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "7g7f 3c3d")
    assert "It is your move" in caught.value.message
    with pytest.raises(NotAPlayer):
        await service.forecasts.add(game.id, CAROL.user_id, "7g7f 3c3d")


async def test_limits_odd_lines_and_repeats_are_refused(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d")
    assert "needs your opponent's move and your reply" in caught.value.message
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f 8c8d")
    assert "even number of moves" in caught.value.message
    shuffle = ["5a4b", "5i4h", "4b5a", "4h5i"] * 6
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, " ".join(shuffle[: MAX_PLIES + 2]))
    assert f"at most {MAX_PLIES} moves" in caught.value.message
    first_moves = ["3c3d", "8c8d", "1c1d", "9c9d", "4c4d", "6c6d", "7c7d", "2c2d", "5c5d"]
    first_moves += ["3a3b", "7a7b"]
    for opening in first_moves[:MAX_LINES]:
        await service.forecasts.add(game.id, ALICE.user_id, f"{opening} 2g2f")
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, f"{first_moves[MAX_LINES]} 2g2f")
    assert f"{MAX_LINES} forecast lines" in caught.value.message
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    assert "Your forecast line 1 already covers this" in caught.value.message
    assert len(await stored_lines(db, game.id)) == MAX_LINES


async def test_a_different_answer_replaces_the_older_line(service: GameService) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    await service.forecasts.add(game.id, ALICE.user_id, "8c8d 2g2f")
    changed = await service.forecasts.add(game.id, ALICE.user_id, "3c3d 6g6f")
    assert changed.replaced == 1
    assert [[m.usi for m in line.moves] for line in changed.lines] == [
        ["8c8d", "2g2f"],
        ["3c3d", "6g6f"],
    ]
    longer = await service.forecasts.add(game.id, ALICE.user_id, "8c8d 2g2f 8d8e 8h7g")
    assert longer.replaced == 1 and len(longer.lines) == 2


async def test_clearing_drops_only_your_lines(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    await service.forecasts.add(game.id, ALICE.user_id, "8c8d 2g2f")
    assert await service.forecasts.clear(game.id, BOB.user_id) == 0
    assert await service.forecasts.clear(game.id, ALICE.user_id) == 2
    assert await stored_lines(db, game.id) == []


# ------------------------------------------------------------------ playing them


async def test_the_reply_is_played_with_the_clocks_and_lines_are_shortened(
    service: GameService, db: Database, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="3d")
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f 8c8d 2f2e")
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f 4c4d 4g4f")
    await service.forecasts.add(game.id, ALICE.user_id, "8c8d 2g2f")
    clock.advance(hours=5)
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    reply = played.forecast
    assert reply is not None
    assert played.game.ply == 2 and played.next_player == ALICE
    assert reply.move.usi == "2g2f" and reply.mover == ALICE
    assert reply.game.ply == 3 and reply.game.to_move == BOB and reply.next_player == BOB
    assert reply.deadline == START + H * 5 + timedelta(days=3)
    assert reply.game.deadline == reply.deadline and played.latest is reply.game
    assert await moves_of(db, game.id) == ["7g7f", "3c3d", "2g2f"]
    assert await stored_lines(db, game.id) == [
        (ALICE.user_id, 3, ("8c8d", "2f2e")),
        (ALICE.user_id, 3, ("4c4d", "4g4f")),
    ]
    again = await service.moves.play(game.id, BOB.user_id, "8c8d")
    assert again.forecast is not None and again.forecast.move.usi == "2f2e"
    assert await stored_lines(db, game.id) == [], "the line is used up, the other dropped"
    fresh = await GameService(db, clock=clock).games.get(game.id)
    assert fresh.row == again.latest.row
    assert await assert_consistent(db) == 5


async def test_a_move_off_every_line_drops_them_and_plays_nothing(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    played = await service.moves.play(game.id, BOB.user_id, "8c8d")
    assert played.forecast is None and played.game.to_move == ALICE
    assert await stored_lines(db, game.id) == []


async def test_a_reply_no_longer_legal_is_dropped_and_nothing_played(
    service: GameService, db: Database
) -> None:
    """A stored line whose reply does not fit the game (one stored by an older version,
    say): the service checks the reply again and plays nothing."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    async with db.transaction() as tx:
        await tx.forecasts.add(game.id, ALICE.user_id, 1, ("3c3d", "7f7d"), START)
        await tx.forecasts.add(game.id, ALICE.user_id, 1, ("3c3d", "8h3b"), START)
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    assert played.forecast is None and played.latest.to_move == ALICE
    assert await stored_lines(db, game.id) == []
    assert await moves_of(db, game.id) == ["7g7f", "3c3d"]


async def test_the_game_ending_on_the_opponents_move_plays_nothing(
    service: GameService, db: Database
) -> None:
    """Bob (gote, to move) can mate with G*5h; Alice's line answered another move."""
    game = await start_game(service, start_sfen="4k4/9/9/9/9/9/4g4/9/4K4 w g 1")
    assert game.to_move == BOB
    with pytest.raises(ForecastRefused) as caught:
        await service.forecasts.add(game.id, ALICE.user_id, "G*5h 5i4i")
    assert "over before move 2" in caught.value.message
    await service.forecasts.add(game.id, ALICE.user_id, "5g4g 5i6i")
    played = await service.moves.play(game.id, BOB.user_id, "G*5h")
    assert played.outcome is not None and played.forecast is None
    assert await stored_lines(db, game.id) == []
    assert await assert_consistent(db) == 1


async def test_a_reply_that_mates_ends_the_game(service: GameService, db: Database) -> None:
    game = await start_game(service, start_sfen="4k4/9/4G4/9/9/9/9/9/4K4 w G 1")
    await service.forecasts.add(game.id, ALICE.user_id, "5a4a G*4b")
    played = await service.moves.play(game.id, BOB.user_id, "5a4a")
    reply = played.forecast
    assert reply is not None and reply.outcome is not None
    assert reply.outcome.winner is not None and reply.next_player is None
    assert reply.game.status == "finished" and reply.game.deadline is None
    assert await stored_lines(db, game.id) == []
    async with db.query() as q:
        row = await q.games.get(game.id)
    assert row is not None and row.status == "finished" and row.deadline is None
    assert await assert_consistent(db) == 2


async def test_a_takeback_drops_the_lines(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    await service.takebacks.answer(
        game.id, asked.request.id, BOB.user_id, accept=True, expected_ply=asked.request.ply
    )
    assert await stored_lines(db, game.id) == []
    await play_all(service, game.id, ["7g7f"])
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    assert played.forecast is None


async def test_a_forecast_reply_can_be_taken_back_by_the_opponent(
    service: GameService, db: Database
) -> None:
    """Bob asks, on his turn, to take back his move and the reply the forecast played."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f 8c8d 2f2e")
    await service.moves.play(game.id, BOB.user_id, "3c3d")
    asked = await service.takebacks.ask(game.id, BOB.user_id)
    assert asked.request.usi == ("3c3d", "2g2f")
    done = await service.takebacks.answer(
        game.id, asked.request.id, ALICE.user_id, accept=True, expected_ply=asked.request.ply
    )
    assert done.game.ply == 1 and done.game.to_move == BOB
    assert await stored_lines(db, game.id) == []
    assert await assert_consistent(db) == 1


async def test_lines_outlive_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    clock = FakeClock()
    first_db = await open_database(path)
    first = GameService(first_db, clock=clock, events=RecordingEvents(), rng=random.Random(1))
    game = await start_game(first)
    await play_all(first, game.id, ["7g7f"])
    await first.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    await first.close()
    await first_db.close()
    second_db = await open_database(path)
    try:
        second = GameService(second_db, clock=clock)
        assert len((await second.forecasts.lines(game.id, ALICE.user_id)).lines) == 1
        played = await second.moves.play(game.id, BOB.user_id, "3c3d")
        assert played.forecast is not None and played.forecast.move.usi == "2g2f"
        assert await assert_consistent(second_db) == 3
    finally:
        await second_db.close()


# ------------------------------------------------------------------ races


async def test_a_line_added_before_the_opponents_write_is_played(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob's move checked, Alice's line lands before its write, Alice also types her
    reply by hand: the forecast plays it once, her own move is refused."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    before_next_write(
        db, monkeypatch, lambda: service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    )
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    assert played.forecast is not None
    with pytest.raises(NotYourTurn):
        await service.moves.play(game.id, ALICE.user_id, "2g2f")
    assert await moves_of(db, game.id) == ["7g7f", "3c3d", "2g2f"]
    assert await assert_consistent(db) == 3


async def test_the_opponents_move_before_the_lines_write_wins(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's line checked, Bob's move lands before its write: the line is refused (it
    was checked from a position that is gone) and Alice's own move lands once."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    before_next_write(db, monkeypatch, lambda: service.moves.play(game.id, BOB.user_id, "3c3d"))
    with pytest.raises(PositionChanged):
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    played = await service.moves.play(game.id, ALICE.user_id, "2g2f")
    assert played.forecast is None
    assert await moves_of(db, game.id) == ["7g7f", "3c3d", "2g2f"]
    assert await stored_lines(db, game.id) == []
    assert await assert_consistent(db) == 3


async def test_a_line_checked_before_a_takeback_and_a_new_move_is_refused(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's line is checked after her 7g7f; before it is stored, she takes 7g7f back
    and plays 5g5f: the game is at the same ply in another position, where her reply
    would still be legal, so the line must not be stored to answer it."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])

    async def back_and_again() -> None:
        asked = await service.takebacks.ask(game.id, ALICE.user_id)
        await service.takebacks.answer(
            game.id, asked.request.id, BOB.user_id, accept=True, expected_ply=asked.request.ply
        )
        await service.moves.play(game.id, ALICE.user_id, "5g5f")

    before_next_write(db, monkeypatch, back_and_again)
    with pytest.raises(PositionChanged):
        await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    assert await stored_lines(db, game.id) == []
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    assert played.forecast is None
    assert await moves_of(db, game.id) == ["5g5f", "3c3d"]


async def test_a_manual_move_between_the_opponents_checks_and_write(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice types her reply by hand while Bob's matching move is between its checks and
    its write: hers is refused (not her turn: the reply is never owed in a stored
    position), the forecast plays it once."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    await service.forecasts.add(game.id, ALICE.user_id, "3c3d 2g2f")
    refusals: list[Exception] = []

    async def by_hand() -> None:
        try:
            await service.moves.play(game.id, ALICE.user_id, "2g2f")
        except NotYourTurn as refusal:
            refusals.append(refusal)

    before_next_write(db, monkeypatch, by_hand)
    played = await service.moves.play(game.id, BOB.user_id, "3c3d")
    assert played.forecast is not None and len(refusals) == 1
    assert await moves_of(db, game.id) == ["7g7f", "3c3d", "2g2f"]
    assert await assert_consistent(db) == 3
