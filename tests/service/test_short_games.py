"""Games that end before both players have moved are never rated, on SQLite (file and
memory) and PostgreSQL: an alternate account that accepts and resigns at once hands its
challenger nothing. Resigning that early aborts the game, as running out of time then
does; a move played meanwhile turns the abort into a refusal; and a rebuild of the
ratings drops such games that an older version rated."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.db import Database, GameRow, RatingRow, Session
from bot.services import GameService, GameSnapshot, PlayedMove, PositionChanged, ServiceError
from bot.services.ratings.rated import both_have_moved, rate, rate_ending
from rules import Color, Outcome, Termination

from .conftest import ALICE, BOB, GUILD, FakeClock, RecordingEvents, checked, play_all, start_game

#: A set-up start where gote moves first: its first move is still only one player's.
GOTE_FIRST = "4k4/9/9/9/9/9/9/9/4K4 w RGgsn2l9p 1"


async def _unrated(service: GameService) -> None:
    for user in (ALICE, BOB):
        rating = await service.ratings.of(GUILD, user.user_id)
        assert (rating.games, rating.rank) == (0, None)
    assert await service.ratings.leaderboard(GUILD) == []


@pytest.mark.parametrize("moves", [[], ["7g7f"]])
async def test_resigning_before_both_have_moved_aborts_the_game_unrated(
    service: GameService, moves: list[str]
) -> None:
    for loser in (BOB, ALICE):  # the farmer's alternate, or the challenger
        game = await start_game(service)
        assert game.rated
        for move in moves:
            await play_all(service, game.id, [move])
        ended = await service.endings.resign(game.id, loser.user_id)
        assert ended.outcome == Outcome(Termination.ABORT, None)
        assert ended.rating_changes == ()
        assert await service.ratings.changes(game.id) == ()
    await _unrated(service)


async def test_five_accepted_and_resigned_games_leave_the_challenger_where_they_were(
    service: GameService,
) -> None:
    for _ in range(5):
        game = await start_game(service)
        await service.endings.resign(game.id, BOB.user_id)
    await _unrated(service)
    won = await _rated_win(service)
    assert [change.delta for change in won.rating_changes] == [162, -162]


async def test_a_resignation_once_both_have_moved_is_a_rated_loss(service: GameService) -> None:
    won = await _rated_win(service)
    assert won.outcome == Outcome(Termination.RESIGNATION, Color.SENTE)


async def test_a_time_out_before_both_have_moved_is_an_unrated_abort(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f"])
    clock.advance(days=2)
    await checked(service)
    assert [ended.outcome for ended in events.timed_out] == [Outcome(Termination.ABORT, None)]
    await _unrated(service)


async def test_a_move_racing_an_early_resignation_makes_it_a_refusal(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob resigns from a view of the game read before Alice's reply was stored: that
    view would abort a game both have now played in, so it is refused (and Bob may
    resign again, a rated loss)."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f"])
    stale = await service.games.get(game.id)
    await play_all(service, game.id, ["3c3d"])
    looked_up = service.store.for_player

    async def as_read_before(
        game_id: int, user_id: int, *, guild_id: int | None = None
    ) -> tuple[GameSnapshot, Color]:
        return stale, Color.GOTE

    monkeypatch.setattr(service.store, "for_player", as_read_before)
    with pytest.raises(PositionChanged):
        await service.endings.resign(game.id, BOB.user_id)
    monkeypatch.setattr(service.store, "for_player", looked_up)
    ended = await service.endings.resign(game.id, BOB.user_id)
    assert ended.outcome == Outcome(Termination.RESIGNATION, Color.SENTE)
    assert len(ended.rating_changes) == 2


@pytest.mark.parametrize("plies", [0, 1])
async def test_no_ending_before_both_have_moved_is_rated_whatever_ended_it(
    service: GameService, db: Database, clock: FakeClock, plies: int
) -> None:
    """The rule is the ending's length, not its kind: a foul, an impasse or a loss on time
    stored that early (a set-up start may allow one) changes no rating either."""
    game = await start_game(service)
    row = game.row
    for termination in (Termination.RESIGNATION, Termination.FOUL, Termination.TIME):

        async def ending(tx: Session, how: Termination = termination) -> int:
            changes = await rate_ending(tx, row, Outcome(how, Color.GOTE), clock.now, plies=plies)
            return len(changes)

        assert await db.run(ending) == 0
    await _unrated(service)


@pytest.mark.parametrize(
    ("handicap", "start_sfen", "first"),
    [("lance", None, "3c3d"), ("even", GOTE_FIRST, "5a4a")],
)
async def test_where_gote_moves_first_its_move_alone_is_not_both_players(
    service: GameService, handicap: str, start_sfen: str | None, first: str
) -> None:
    """A handicap or a set-up start where gote moves first: after gote's first move sente
    has not moved, so resigning still aborts (such games are never rated anyway)."""
    game = await start_game(service, handicap=handicap, start_sfen=start_sfen)
    assert game.to_move == game.gote
    await play_all(service, game.id, [first])
    ended = await service.endings.resign(game.id, ALICE.user_id)
    assert ended.outcome == Outcome(Termination.ABORT, None)
    assert [both_have_moved(plies) for plies in range(4)] == [False, False, True, True]


async def test_a_rebuild_drops_a_game_an_older_version_rated_before_both_had_moved(
    service: GameService, db: Database, clock: FakeClock
) -> None:
    """An ending stored before this rule, rated: the rebuild gives the ratings as if it
    had never counted, and the game rated after it is rated again from there."""
    farmed = await start_game(service)
    await service.endings.resign(farmed.id, BOB.user_id)  # aborted now, unrated
    await _rate_as_before(db, farmed.row, clock)
    assert (await service.ratings.of(GUILD, ALICE.user_id)).games == 1  # the old damage
    clock.advance(hours=1)
    await _rated_win(service)
    rebuilt = await service.ratings.recompute(GUILD)
    assert {user: row.games for user, row in rebuilt.items()} == {
        ALICE.user_id: 1,
        BOB.user_id: 1,
    }
    assert round(rebuilt[ALICE.user_id].rating) == 1662
    assert await service.ratings.rebuild(GUILD) == 2
    alice = await service.ratings.of(GUILD, ALICE.user_id)
    assert (alice.rating.points, alice.games) == (1662, 1)


async def _rated_win(service: GameService) -> GameSnapshot:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    return await service.endings.resign(game.id, BOB.user_id)


async def _rate_as_before(db: Database, row: GameRow, clock: FakeClock) -> None:
    """Store a win for Alice in `row`'s game as the code before this rule did."""

    async def write(tx: Session) -> None:
        before: tuple[RatingRow | None, RatingRow | None] = (
            await tx.ratings.get(GUILD, ALICE.user_id),
            await tx.ratings.get(GUILD, BOB.user_id),
        )
        at = clock.now - timedelta(minutes=1)
        for side in rate(GUILD, row.id, (ALICE.user_id, BOB.user_id), before, 1.0, at):
            await tx.ratings.record(side.entry)
            await tx.ratings.put(side.after)

    await db.run(write)


async def test_an_early_resignation_racing_the_first_reply_never_rates(db: Database) -> None:
    """Alice's first move and Bob's resignation at once (on PostgreSQL, on two connections):
    the resignation aborts the game before or after the move, or is refused when it was
    decided on a view the move changed; never a result, never a rating."""
    service = GameService(db, clock=FakeClock())
    for _ in range(10):
        game = await start_game(service)
        results = await asyncio.gather(
            service.moves.play(game.id, ALICE.user_id, "7g7f"),
            service.endings.resign(game.id, BOB.user_id),
            return_exceptions=True,
        )
        view = await service.games.get(game.id)
        if view.is_active:  # the move first: the abort it would have been is refused
            assert view.ply == 1 and isinstance(results[1], PositionChanged), results
            await service.endings.abort(game.id, BOB.user_id)
        else:  # the abort first (the move refused), or after the move
            assert view.outcome == Outcome(Termination.ABORT, None), results
            assert isinstance(results[0], PlayedMove | ServiceError), results
    await _unrated(service)
