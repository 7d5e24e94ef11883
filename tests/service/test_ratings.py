"""Ratings through the service, on real SQLite: rated endings (resignation, time,
repetition) change both players' ratings once, with a history row each; unrated,
handicap, set-up and aborted games change nothing; two endings racing rate a game once;
and a thousand random games rebuild from their history to exactly the stored ratings."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.db import Database, RatingRow, open_database
from bot.services import GameOver, GameService, GameSnapshot, PlayerRef
from bot.services.ratings.glicko2 import DEFAULT
from rules import Color, Handicap, Outcome, Termination

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    FakeClock,
    RecordingEvents,
    before_next_write,
    checked,
    play_all,
    start_game,
)

SENNICHITE = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3


async def test_a_rated_resignation_moves_both_ratings_once(service: GameService) -> None:
    game = await start_game(service)
    assert game.rated
    await play_all(service, game.id, ["7g7f", "3c3d"])
    ended = await service.endings.resign(game.id, BOB.user_id)
    assert [(c.user_id, c.delta) for c in ended.rating_changes] == [
        (ALICE.user_id, 162),
        (BOB.user_id, -162),
    ]
    alice = await service.ratings.of(GUILD, ALICE.user_id)
    bob = await service.ratings.of(GUILD, BOB.user_id)
    assert (alice.rating.points, alice.games, alice.rank) == (1662, 1, 1)
    assert (bob.rating.points, bob.games, bob.rank) == (1338, 1, 2)
    assert alice.rating.provisional and bob.rating.provisional
    changes = {change.user_id: change for change in await service.ratings.changes(game.id)}
    assert changes[ALICE.user_id].before == DEFAULT
    assert (changes[ALICE.user_id].delta, changes[BOB.user_id].delta) == (162, -162)


async def test_a_member_never_rated_holds_the_starting_rating(service: GameService) -> None:
    carol = await service.ratings.of(GUILD, CAROL.user_id)
    assert (carol.rating, carol.games, carol.rank) == (DEFAULT, 0, None)
    assert await service.ratings.leaderboard(GUILD) == []


async def test_a_repetition_ended_by_a_move_is_a_rated_draw(service: GameService) -> None:
    game = await start_game(service)
    result = await play_all(service, game.id, SENNICHITE)
    assert result.outcome is not None and result.outcome.termination is Termination.SENNICHITE
    changes = await service.ratings.changes(game.id)
    assert result.game.rating_changes == changes
    assert [change.delta for change in changes] == [0, 0]
    assert [change.after.deviation < 350 for change in changes] == [True, True]


async def test_a_loss_on_time_is_rated(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f", "3c3d"])
    clock.advance(days=2)
    await checked(service)
    assert events.timed_out and events.timed_out[0].outcome == Outcome(Termination.TIME, Color.GOTE)
    assert [c.delta for c in await service.ratings.changes(game.id)] == [-162, 162]
    assert [c.delta for c in events.timed_out[0].rating_changes] == [-162, 162]


async def test_a_game_loaded_afresh_carries_its_rating_changes(
    db: Database, clock: FakeClock
) -> None:
    """After a restart the ending (posted then, if it was not) still tells the changes."""
    game = await _rated_win(GameService(db, clock=clock))
    fresh = await GameService(db, clock=clock).games.get(game.id)
    assert fresh.rating_changes == game.rating_changes != ()


@pytest.mark.parametrize(
    ("rated", "handicap", "start_sfen"),
    [
        (False, "even", None),
        (True, "two_piece", None),
        (True, "even", "4k4/9/9/9/9/9/9/9/4K4 b G2r2b3g4s4n4l18p 1"),
    ],
    ids=["unrated", "handicap", "set-up position"],
)
async def test_unrated_handicap_and_set_up_games_leave_ratings_untouched(
    service: GameService, rated: bool, handicap: str, start_sfen: str | None
) -> None:
    await _rated_win(service)
    before = await _table(service)
    challenge = await service.challenges.offer(
        guild_id=GUILD,
        channel_id=1,
        challenger=ALICE,
        opponent=BOB,
        handicap=handicap,
        start_sfen=start_sfen,
        rated=rated,
    )
    assert not challenge.rated  # the challenge says so before anyone accepts
    game = await service.challenges.accept(challenge.id, BOB.user_id)
    assert not game.rated
    ended = await service.endings.resign(game.id, ALICE.user_id)
    assert ended.rating_changes == ()
    assert await _table(service) == before
    assert await service.ratings.changes(game.id) == ()


async def test_an_aborted_game_is_not_rated(
    service: GameService, clock: FakeClock, events: RecordingEvents
) -> None:
    game = await start_game(service, time_control="1d")
    clock.advance(days=2)
    await checked(service)
    assert events.timed_out[0].outcome == Outcome(Termination.ABORT, None)
    assert await service.ratings.changes(game.id) == ()
    assert await service.ratings.leaderboard(GUILD) == []


async def test_ratings_belong_to_their_server(service: GameService) -> None:
    await _rated_win(service)
    elsewhere = await start_game(service, guild_id=GUILD + 1)
    await play_all(service, elsewhere.id, ["7g7f", "3c3d"])
    await service.endings.resign(elsewhere.id, ALICE.user_id)
    here = await service.ratings.of(GUILD, ALICE.user_id)
    there = await service.ratings.of(GUILD + 1, ALICE.user_id)
    assert (here.rating.points, there.rating.points) == (1662, 1338)


async def test_the_leaderboard_ranks_by_rating(service: GameService) -> None:
    await _rated_win(service)  # Alice beats Bob
    game = await start_game(service, challenger=CAROL, opponent=BOB, color="sente")
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.endings.resign(game.id, CAROL.user_id)  # Bob beats Carol
    lines = await service.ratings.leaderboard(GUILD)
    assert [(line.rank, line.name) for line in lines] == [(1, "Alice"), (2, "Bob"), (3, "Carol")]
    assert [line.games for line in lines] == [1, 2, 1]
    assert (await service.ratings.of(GUILD, BOB.user_id)).rank == 2


async def test_a_move_racing_a_resignation_rates_the_game_once(
    file_db: Database, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Bob resigns between the checks of Alice's resignation and its write: Alice's is
    refused, and the game is rated once, as Bob's resignation."""
    service = GameService(file_db, clock=clock, rng=random.Random(1))
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    before_next_write(file_db, monkeypatch, lambda: _resign_elsewhere(file_db, clock, game))
    with pytest.raises(GameOver):
        await service.endings.resign(game.id, ALICE.user_id)
    assert [c.delta for c in await service.ratings.changes(game.id)] == [162, -162]
    assert (await service.ratings.of(GUILD, ALICE.user_id)).games == 1


async def test_two_processes_ending_one_game_rate_it_once(tmp_path: Path) -> None:
    """Two bots on one database file end the same game at the same moment (a resignation
    and a time-out): one ending lands, and the ratings move once."""
    clock = FakeClock()
    path = tmp_path / "shogi.db"
    first, second = await open_database(path), await open_database(path)
    try:
        one = GameService(first, clock=clock, rng=random.Random(1))
        other = GameService(second, clock=clock, rng=random.Random(2))
        game = await start_game(one, time_control="1d")
        await play_all(one, game.id, ["7g7f", "3c3d"])
        seen_once, seen_twice = await one.store.load(game.id), await other.store.load(game.id)
        ended = await asyncio.gather(
            one.store.finish(
                seen_once,
                Outcome(Termination.RESIGNATION, Color.GOTE),
                expected_ply=2,
                at=clock.now,
            ),
            other.store.finish(
                seen_twice, Outcome(Termination.TIME, Color.SENTE), expected_ply=2, at=clock.now
            ),
        )
        assert sum(result is not None for result in ended) == 1
        changes = await one.ratings.changes(game.id)
        assert len(changes) == 2 and changes[0].delta == -changes[1].delta != 0
        for user in (ALICE, BOB):
            assert (await other.ratings.of(GUILD, user.user_id)).games == 1
    finally:
        await first.close()
        await second.close()


async def test_a_thousand_random_games_rebuild_to_the_stored_ratings(
    file_db: Database, clock: FakeClock
) -> None:
    """Random pairings among twelve members, several games under way at once, ended by
    resignation, time (settled late, so endings are rated out of their time order),
    repetition or abort, with days between them; some unrated or handicap. The ratings
    rebuilt from the history alone equal the stored ones to the last bit."""
    service = GameService(file_db, clock=clock, rng=random.Random(3))
    rng = random.Random(15)
    members = [PlayerRef(9000 + i, f"Member {i}") for i in range(12)]
    under_way: list[GameSnapshot] = []
    rated = 0
    while rated < 1000:
        if len(under_way) < 6 or rng.random() < 0.3:
            a, b = rng.sample(members, 2)
            handicap = "lance" if rng.random() < 0.05 else "even"
            game = await start_game(service, challenger=a, opponent=b, handicap=handicap)
            if rng.random() < 0.9:
                await play_all(
                    service, game.id, ["7g7f", "3c3d"] if handicap == "even" else ["3c3d", "7g7f"]
                )
            under_way.append(game)
            continue
        game = under_way.pop(rng.randrange(len(under_way)))
        current = await service.games.get(game.id)
        if current.is_active:
            how = rng.random()
            if how < 0.03 and current.ply == 2 and current.handicap is Handicap.EVEN:
                await play_all(service, game.id, SENNICHITE)
            elif how < 0.15:
                clock.advance(days=4)  # its deadline passed: ended on time when next looked at
                await checked(service)
            else:
                loser = rng.choice([current.sente, current.gote])
                await service.endings.resign(game.id, loser.user_id)
        rated += len(await service.ratings.changes(game.id)) // 2
        clock.advance(hours=rng.uniform(0, 72))
    stored = {row.user_id: row for row in await _rows(file_db)}
    assert await service.ratings.recompute(GUILD) == stored
    assert len(stored) == 12
    await _damage(file_db)
    assert await service.ratings.rebuild(GUILD) == 12
    assert {row.user_id: row for row in await _rows(file_db)} == stored


async def _rated_win(service: GameService) -> GameSnapshot:
    """Alice beats Bob in a rated game."""
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    return await service.endings.resign(game.id, BOB.user_id)


async def _table(service: GameService) -> list[tuple[int, float, float, int]]:
    return [
        (line.user_id, line.rating.rating, line.rating.deviation, line.games)
        for line in await service.ratings.leaderboard(GUILD)
    ]


async def _rows(db: Database) -> list[RatingRow]:
    async with db.read() as tx:
        return list(await tx.ratings.all(GUILD))


async def _damage(db: Database) -> None:
    async with db.transaction() as tx:
        rows = await tx.ratings.all(GUILD)
        await tx.ratings.replace_all(GUILD, rows[:3])


async def _resign_elsewhere(db: Database, clock: FakeClock, game: GameSnapshot) -> None:
    other = GameService(db, clock=clock, rng=random.Random(2))
    await other.endings.resign(game.id, BOB.user_id)
