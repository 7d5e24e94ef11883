"""Takebacks by consent: asking on either turn, accepting, declining, every refusal
(which stores nothing), the clocks after a takeback, the record without the taken-back
moves, the history that keeps them, and a request that outlives a restart."""

from __future__ import annotations

import random
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import Database, open_database
from bot.services import (
    BadTakebackPolicy,
    GameOver,
    GameService,
    NotAPlayer,
    NotFound,
    PlayerRef,
    PositionChanged,
    ServiceError,
    Takeback,
    TakebackPolicy,
    TakebackRefused,
    TakebackRequest,
)
from rules import Color, Position

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

D = timedelta(days=1)
H = timedelta(hours=1)


async def stored(db: Database, game_id: int) -> tuple[int, list[str], list[TakebackRequest]]:
    """The game's ply and moves as stored, and its takeback history."""
    async with db.read() as tx:
        record = await tx.games.get(game_id)
        moves = await tx.moves.usi_list(game_id)
        history = await tx.takebacks.for_game(game_id)
    assert record is not None
    return record.ply, moves, [
        TakebackRequest(
            t.id, t.game_id, t.asked_by, t.ply, t.plies, t.moves, t.status, t.requested_at,
            t.answered_at,
        )
        for t in history
    ]  # fmt: skip


async def accept(service: GameService, asked: Takeback) -> Takeback:
    """The opponent accepts with the ply the request's buttons carry."""
    request = asked.request
    return await service.takebacks.answer(
        request.game_id, request.id, asked.answerer.user_id, accept=True, expected_ply=request.ply
    )


async def test_taking_back_your_move_on_the_opponents_turn(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    assert asked.request.status == "pending" and asked.request.plies == 1
    assert asked.request.ply == 1 and asked.request.usi == ("7g7f",)
    assert [m.japanese for m in asked.moves] == ["７六歩"]
    assert (asked.asker, asked.asker_color, asked.answerer) == (ALICE, Color.SENTE, BOB)
    assert (await service.games.get(game.id)).ply == 1, "asking changes nothing yet"

    done = await accept(service, asked)
    after = done.game
    assert after.ply == 0 and after.game.moves == [] and after.to_move == ALICE
    assert after.game.position.sfen() == Position.initial().sfen()
    assert after.last_move is None and after.last_move_text is None
    assert done.request.status == "accepted" and done.request.answered_at == START
    assert [m.western for m in done.moves] == ["P-7f"]
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves) == (0, [])
    assert [(h.status, h.usi, h.asked_by) for h in history] == [
        ("accepted", ("7g7f",), ALICE.user_id)
    ]
    assert await assert_consistent(db) == 0


async def test_taking_back_your_move_and_the_reply_on_your_own_turn(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f", "8c8d"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)  # Alice is to move
    assert asked.request.plies == 2 and asked.request.usi == ("2g2f", "8c8d")
    assert [m.japanese for m in asked.moves] == ["２六歩", "８四歩"]
    done = await accept(service, asked)
    assert done.game.ply == 2 and done.game.to_move == ALICE
    assert done.game.last_move_text is not None and done.game.last_move_text.usi == "3c3d"
    played = await service.moves.play(game.id, ALICE.user_id, "6g6f")
    assert played.game.ply == 3
    assert await assert_consistent(db) == 3


async def test_the_record_leaves_out_the_taken_back_moves_and_the_history_keeps_them(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    await accept(service, await service.takebacks.ask(game.id, ALICE.user_id))
    await play_all(service, game.id, ["6g6f", "8c8d"])
    usi = await service.exports.file(game.id, "usi")
    assert usi.content.split("moves ")[1].split() == ["7g7f", "3c3d", "6g6f", "8c8d"]
    kif = await service.exports.file(game.id, "kif")
    assert "２六歩" not in kif.content and "６六歩" in kif.content
    history = await service.takebacks.history(game.id)
    assert [(h.ply, h.plies, h.usi, h.status) for h in history] == [(3, 1, ("2g2f",), "accepted")]
    assert (await stored(db, game.id))[:2] == (4, ["7g7f", "3c3d", "6g6f", "8c8d"])


async def test_declining_keeps_the_game_and_allows_another_request(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    declined = await service.takebacks.answer(
        game.id, asked.request.id, BOB.user_id, accept=False, expected_ply=1
    )
    assert declined.request.status == "declined" and declined.game.ply == 1
    with pytest.raises(TakebackRefused, match="already declined"):
        await accept(service, asked)
    again = await service.takebacks.ask(game.id, ALICE.user_id)
    assert again.request.id != asked.request.id
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves) == (1, ["7g7f"])
    assert [h.status for h in history] == ["declined", "pending"]


# ------------------------------------------------------------------ clocks


async def test_the_clocks_go_back_to_the_start_of_the_taken_back_turn(
    service: GameService, db: Database, clock: FakeClock
) -> None:
    """7 days + 1 day per move. The asker gets the bank they had when their taken-back
    turn began and a deadline counted from now; the opponent is not charged for the turn
    they were thinking on, nor for the hours the request waited."""
    game = await start_game(service, time_control="7d+1d")
    clock.advance(days=2)
    await service.moves.play(game.id, ALICE.user_id, "7g7f")  # Alice's bank: 5 days
    clock.advance(days=1)
    await service.moves.play(game.id, BOB.user_id, "3c3d")  # Bob's: 6 days
    clock.advance(days=3)
    await service.moves.play(game.id, ALICE.user_id, "2g2f")  # Alice's: 2 days
    clock.advance(hours=5)  # Bob thinks for 5 hours, then Alice asks
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    answered_at = clock.advance(hours=3)
    after = (await accept(service, asked)).game
    row = after.row
    assert (row.sente_bank, row.gote_bank) == (5 * D, 6 * D)
    assert row.turn_started_at == answered_at
    assert after.deadline == answered_at + 5 * D + D
    assert row.deadline is not None and row.deadline.player_id == ALICE.user_id
    assert row.deadline.due_at == after.deadline

    # Alice moves after 1 day: her bank is counted from the restart.
    clock.advance(days=1)
    played = await service.moves.play(game.id, ALICE.user_id, "2g2f")
    assert played.game.row.sente_bank == 4 * D and played.game.row.gote_bank == 6 * D


async def test_two_plies_back_refunds_both_and_the_first_turn_gets_full_banks(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="7d+1d")
    clock.advance(days=2)
    await service.moves.play(game.id, ALICE.user_id, "7g7f")
    clock.advance(days=4)
    await service.moves.play(game.id, BOB.user_id, "3c3d")  # Bob's bank: 3 days
    clock.advance(hours=1)
    asked = await service.takebacks.ask(game.id, ALICE.user_id)  # Alice to move: both
    now = clock.advance(hours=2)
    after = (await accept(service, asked)).game
    assert after.ply == 0
    assert (after.row.sente_bank, after.row.gote_bank) == (7 * D, 7 * D)
    assert after.deadline == now + 7 * D + D


async def test_a_game_without_time_limit_has_no_deadline_after_a_takeback(
    service: GameService,
) -> None:
    game = await start_game(service, time_control="unlimited")
    await play_all(service, game.id, ["7g7f"])
    after = (await accept(service, await service.takebacks.ask(game.id, ALICE.user_id))).game
    assert after.deadline is None and after.row.deadline is None


async def test_moves_stored_before_banks_were_kept_leave_the_banks_as_they_are(
    file_db: Database, clock: FakeClock, tmp_path: Path
) -> None:
    service = GameService(file_db, clock=clock)
    game = await start_game(service, time_control="7d+1d")
    clock.advance(days=2)
    await service.moves.play(game.id, ALICE.user_id, "7g7f")  # Alice's bank: 5 days
    clock.advance(days=1)
    await service.moves.play(game.id, BOB.user_id, "3c3d")  # Bob's: 6 days
    clock.advance(days=1)
    await service.moves.play(game.id, ALICE.user_id, "2g2f")  # Alice's: 4 days
    with closing(sqlite3.connect(tmp_path / "shogi.db")) as connection, connection:
        connection.execute("UPDATE moves SET sente_bank_us = NULL, gote_bank_us = NULL")
    after = (await accept(service, await service.takebacks.ask(game.id, ALICE.user_id))).game
    assert (after.row.sente_bank, after.row.gote_bank) == (4 * D, 6 * D)
    assert after.deadline == clock.now + 4 * D + D


# ------------------------------------------------------------------ refusals


async def test_a_game_agreed_without_takebacks_refuses_them(
    service: GameService, db: Database
) -> None:
    game = await start_game(service, takebacks="never")
    assert game.takebacks is TakebackPolicy.NEVER
    await play_all(service, game.id, ["7g7f"])
    with pytest.raises(TakebackRefused) as caught:
        await service.takebacks.ask(game.id, ALICE.user_id)
    assert caught.value.message == "This game was agreed without takebacks, so none can be asked."
    assert (await stored(db, game.id))[2] == []
    with pytest.raises(BadTakebackPolicy):
        await start_game(service, takebacks="sometimes", opponent=CAROL)


async def test_the_policy_travels_from_the_challenge_to_the_game(service: GameService) -> None:
    challenge = await service.challenges.offer(
        guild_id=1, channel_id=2, challenger=ALICE, opponent=BOB, takebacks="Never"
    )
    assert challenge.takebacks is TakebackPolicy.NEVER
    game = await service.challenges.accept(challenge.id, BOB.user_id)
    assert game.takebacks is TakebackPolicy.NEVER and game.row.terms.takebacks == "never"
    default = await start_game(service, challenger=CAROL)
    assert default.takebacks is TakebackPolicy.ALLOWED


@pytest.mark.parametrize(
    ("moves", "user", "why"),
    [
        ([], ALICE, "not played a move"),  # Alice to move at the start: nothing of hers
        ([], BOB, "not played a move"),  # Bob waits, and has not moved
        (["7g7f"], BOB, "not played a move"),  # Bob to move: only Alice's move exists
    ],
)
async def test_nothing_to_take_back(
    service: GameService, db: Database, moves: list[str], user: PlayerRef, why: str
) -> None:
    game = await start_game(service)
    if moves:
        await play_all(service, game.id, moves)
    with pytest.raises(TakebackRefused, match=why):
        await service.takebacks.ask(game.id, user.user_id)
    assert (await stored(db, game.id))[2] == []


async def test_a_spectator_can_neither_ask_nor_answer(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    with pytest.raises(NotAPlayer):
        await service.takebacks.ask(game.id, CAROL.user_id)
    assert (await stored(db, game.id))[2] == []
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    for accept in (True, False):
        with pytest.raises(NotAPlayer):
            await service.takebacks.answer(
                game.id, asked.request.id, CAROL.user_id, accept=accept, expected_ply=1
            )
    assert [h.status for h in (await stored(db, game.id))[2]] == ["pending"]


async def test_one_request_at_a_time(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    await service.takebacks.ask(game.id, ALICE.user_id)
    with pytest.raises(TakebackRefused) as twice:
        await service.takebacks.ask(game.id, ALICE.user_id)
    assert twice.value.message == "You have already asked for a takeback; wait for Bob's answer."
    with pytest.raises(TakebackRefused) as other:
        await service.takebacks.ask(game.id, BOB.user_id)  # Bob's own turn: two plies
    assert other.value.message == "Alice has asked for a takeback; answer it first."
    assert len((await stored(db, game.id))[2]) == 1


async def test_the_asker_cannot_answer_their_own_request(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    for accept in (True, False):
        with pytest.raises(TakebackRefused) as caught:
            await service.takebacks.answer(
                game.id, asked.request.id, ALICE.user_id, accept=accept, expected_ply=1
            )
        assert caught.value.message == (
            "You asked for this takeback; only Bob can accept or decline it."
        )
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves, [h.status for h in history]) == (1, ["7g7f"], ["pending"])


async def test_a_move_voids_the_request(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    await service.moves.play(game.id, BOB.user_id, "3c3d")  # Bob plays on instead
    with pytest.raises(PositionChanged) as caught:
        await accept(service, asked)
    assert caught.value.message == (
        "A move was played after this takeback was asked, so the request no longer holds."
    )
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves) == (2, ["7g7f", "3c3d"])
    assert [h.status for h in history] == ["lapsed"] and history[0].answered_at == START
    # The ply the old button carries is checked too, while another request is pending.
    fresh = await service.takebacks.ask(game.id, ALICE.user_id)  # Alice's turn: two plies
    with pytest.raises(PositionChanged):
        await service.takebacks.answer(
            game.id, fresh.request.id, BOB.user_id, accept=True, expected_ply=1
        )
    with pytest.raises(PositionChanged):
        await service.takebacks.answer(
            game.id, fresh.request.id, BOB.user_id, accept=False, expected_ply=1
        )
    assert (await stored(db, game.id))[:2] == (2, ["7g7f", "3c3d"])


async def test_an_accepted_request_cannot_be_accepted_again(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    asked = await service.takebacks.ask(game.id, BOB.user_id)
    await accept(service, asked)
    with pytest.raises(TakebackRefused, match="already accepted"):
        await service.takebacks.answer(
            game.id, asked.request.id, ALICE.user_id, accept=True, expected_ply=1
        )
    assert (await stored(db, game.id))[:2] == (1, ["7g7f"])


async def test_a_finished_game_takes_nothing_back_and_its_request_lapses(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    await service.endings.resign(game.id, BOB.user_id)
    with pytest.raises(GameOver):
        await accept(service, asked)
    with pytest.raises(GameOver):
        await service.takebacks.ask(game.id, ALICE.user_id)
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves, [h.status for h in history]) == (1, ["7g7f"], ["lapsed"])


async def test_a_request_of_another_game_or_server_does_not_exist(
    service: GameService, db: Database
) -> None:
    game = await start_game(service)
    other = await start_game(service, challenger=CAROL, opponent=BOB, color="sente")
    await play_all(service, game.id, ["7g7f"])
    await play_all(service, other.id, ["7g7f"])
    asked = await service.takebacks.ask(other.id, CAROL.user_id)
    with pytest.raises(NotFound):
        await service.takebacks.answer(
            game.id, asked.request.id, BOB.user_id, accept=True, expected_ply=1
        )
    with pytest.raises(NotFound):
        await service.takebacks.ask(game.id, ALICE.user_id, guild_id=999)
    assert (await stored(db, game.id))[2] == []


def test_every_refusal_is_a_service_error() -> None:
    assert issubclass(TakebackRefused, ServiceError)
    assert issubclass(BadTakebackPolicy, ServiceError)


# ------------------------------------------------------------------ interleavings


async def test_a_move_between_the_accepts_checks_and_its_write_wins(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    before_next_write(db, monkeypatch, lambda: service.moves.play(game.id, BOB.user_id, "3c3d"))
    with pytest.raises(PositionChanged) as caught:
        await accept(service, asked)
    assert "no longer holds" in caught.value.message
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves, [h.status for h in history]) == (2, ["7g7f", "3c3d"], ["lapsed"])
    assert await assert_consistent(db) == 2


async def test_an_accept_between_a_moves_checks_and_its_write_wins(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    asked = await service.takebacks.ask(game.id, ALICE.user_id)
    before_next_write(db, monkeypatch, lambda: accept(service, asked))
    with pytest.raises(PositionChanged):
        await service.moves.play(game.id, BOB.user_id, "3c3d")
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves, [h.status for h in history]) == (0, [], ["accepted"])
    assert (await service.games.get(game.id)).to_move == ALICE
    assert await assert_consistent(db) == 0


async def test_a_move_between_the_asks_checks_and_its_write_wins(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    before_next_write(db, monkeypatch, lambda: service.moves.play(game.id, BOB.user_id, "3c3d"))
    with pytest.raises(PositionChanged):
        await service.takebacks.ask(game.id, ALICE.user_id)
    assert (await stored(db, game.id))[2] == []


async def test_a_request_checked_before_a_takeback_and_a_new_move_is_refused(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice's request to take back 7g7f is checked; before it is stored, another of
    hers is accepted and she plays 5g5f: the game is at the same ply in another position,
    and the first request, which names 7g7f, must not be stored for it."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])

    async def back_and_again() -> None:
        await accept(service, await service.takebacks.ask(game.id, ALICE.user_id))
        await service.moves.play(game.id, ALICE.user_id, "5g5f")

    before_next_write(db, monkeypatch, back_and_again)
    with pytest.raises(PositionChanged):
        await service.takebacks.ask(game.id, ALICE.user_id)
    ply, moves, history = await stored(db, game.id)
    assert (ply, moves) == (1, ["5g5f"])
    assert [(h.usi, h.status) for h in history] == [(("7g7f",), "accepted")]


async def test_two_requests_at_once_store_one(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    before_next_write(db, monkeypatch, lambda: service.takebacks.ask(game.id, ALICE.user_id))
    with pytest.raises(TakebackRefused) as caught:
        await service.takebacks.ask(game.id, BOB.user_id)
    assert caught.value.message == "Alice has asked for a takeback; answer it first."
    assert [h.asked_by for h in (await stored(db, game.id))[2]] == [ALICE.user_id]


# ------------------------------------------------------------------ restarts


async def test_a_request_outlives_a_restart_and_the_game_replays(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    clock = FakeClock()
    first_db = await open_database(path)
    first = GameService(first_db, clock=clock, events=RecordingEvents(), rng=random.Random(1))
    game = await start_game(first, time_control="7d+1d")
    await play_all(first, game.id, ["7g7f", "3c3d", "2g2f", "8c8d"])
    asked = await first.takebacks.ask(game.id, ALICE.user_id)
    await first.close()
    await first_db.close()

    second_db = await open_database(path)
    try:
        second = GameService(second_db, clock=clock, events=RecordingEvents())
        done = await accept(second, asked)
        assert done.game.ply == 2 and done.game.to_move == ALICE
        third = GameService(second_db, clock=clock)  # nothing cached: replayed from the moves
        replayed = await third.games.get(game.id)
        assert [m.usi() for m in replayed.game.moves] == ["7g7f", "3c3d"]
        assert replayed.row == done.game.row
        assert await assert_consistent(second_db) == 2
        assert [h.status for h in await third.takebacks.history(game.id)] == ["accepted"]
    finally:
        await second_db.close()


async def test_an_answer_from_before_a_takeback_cannot_play_at_the_same_ply(
    service: GameService,
) -> None:
    """After a takeback and two new moves the game is at the same ply in another position:
    a button from before (a confirmation, a promotion answer) carries the position's mark
    as well as the ply, and is refused; the ply alone would have let it play."""
    game = await start_game(service)
    for user, usi in ((ALICE, "7g7f"), (BOB, "3c3d")):
        await service.moves.play(game.id, user.user_id, usi)
    preview = await service.moves.preview(game.id, ALICE.user_id, "2g2f")
    await accept(service, await service.takebacks.ask(game.id, ALICE.user_id))  # back to 0
    for user, usi in ((ALICE, "5g5f"), (BOB, "5c5d")):
        await service.moves.play(game.id, user.user_id, usi)
    now = await service.games.get(game.id)
    assert now.ply == preview.ply and now.position_mark != preview.position_mark
    with pytest.raises(PositionChanged):
        await service.moves.play(
            game.id,
            ALICE.user_id,
            "2g2f",
            expected_ply=preview.ply,
            expected_position=preview.position_mark,
        )
    assert (await service.games.get(game.id)).ply == 2
