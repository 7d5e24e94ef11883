"""The games waiting for a player's move (`Games.to_move`), which `/next`, its Next button and
the daily digest read: every server, the nearest deadline first as the clock counts it (a
vacation under way moves a deadline later), games without a time limit last, bounded."""

from __future__ import annotations

from bot.services import GameService
from rules import Color

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, play_all, start_game

#: Sente to move, gote holding one bishop: the hand's `b` must not read as "black to move".
BISHOP_IN_GOTES_HAND = "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/7R1/LNSGKGSNL b b 1"


async def waiting_ids(service: GameService, user_id: int, limit: int = 25) -> list[int]:
    return [game.id for game in (await service.games.to_move(user_id, limit=limit)).games]


async def test_nearest_deadline_first_in_every_server_untimed_last(
    service: GameService, clock: FakeClock
) -> None:
    week = await start_game(service, time_control="7d")
    untimed = await start_game(service, time_control="unlimited", guild_id=GUILD + 1)
    day = await start_game(service, time_control="1d", guild_id=GUILD + 2)
    # Alice moved here: it is Bob's turn, not hers.
    moved = await start_game(service, time_control="1h")
    await play_all(service, moved.id, ["P-76"])
    # Carol is sente and challenged Alice: Carol's move first.
    theirs = await start_game(service, challenger=CAROL, opponent=ALICE, time_control="1h")
    # Bob is sente here and has moved: Alice (gote) is to move, 3 days.
    as_gote = await start_game(service, challenger=BOB, opponent=ALICE, time_control="3d")
    await play_all(service, as_gote.id, ["P-76"])
    finished = await start_game(service, time_control="1h")
    await service.endings.abort(finished.id, ALICE.user_id)

    listed = await service.games.to_move(ALICE.user_id)
    assert [game.id for game in listed.games] == [day.id, as_gote.id, week.id, untimed.id]
    assert listed.more == 0
    assert all(game.your_turn for game in listed.games)
    assert listed.games[1].your_color is Color.GOTE and listed.games[1].opponent == BOB
    assert [game.guild_id for game in listed.games] == [GUILD + 2, GUILD, GUILD, GUILD + 1]
    assert listed.games[-1].deadline is None
    assert day.time_control.period is not None
    assert listed.games[0].deadline == clock.now + day.time_control.period
    assert await waiting_ids(service, BOB.user_id) == [moved.id]
    assert await waiting_ids(service, CAROL.user_id) == [theirs.id]
    assert await waiting_ids(service, 999) == []


async def test_bounded_with_how_many_are_left_out(service: GameService) -> None:
    games = [await start_game(service, time_control=f"{days}d") for days in (5, 1, 4, 2, 3)]
    listed = await service.games.to_move(ALICE.user_id, limit=3)
    assert [game.id for game in listed.games] == [games[1].id, games[3].id, games[4].id]
    assert listed.more == 2
    exactly = await service.games.to_move(ALICE.user_id, limit=5)
    assert len(exactly.games) == 5 and exactly.more == 0


async def test_a_vacation_orders_deadlines_as_the_clock_counts_them(
    service: GameService, clock: FakeClock
) -> None:
    """Alice's week-long game was running when her vacation began and is paused for all of
    it; her one-day game began during the vacation, so only the rest of it is added. The
    one-day game comes first, though its deadline without the vacation is later: the
    database must order (and cut) by the deadline the clock will really use."""
    week = await start_game(service, time_control="7d")
    clock.advance(hours=1)
    await service.vacations.start(ALICE.user_id)
    clock.advance(days=6, hours=12)
    day = await start_game(service, time_control="1d", guild_id=GUILD + 1)
    assert day.deadline is not None and week.deadline is not None
    assert week.deadline < clock.now + day.time_control.period  # type: ignore[operator]

    listed = await service.games.to_move(ALICE.user_id)
    assert [game.id for game in listed.games] == [day.id, week.id]
    assert [game.deadline for game in listed.games] == [
        (await service.games.get(day.id)).deadline,
        (await service.games.get(week.id)).deadline,
    ]
    assert await waiting_ids(service, ALICE.user_id, limit=1) == [day.id]

    await service.vacations.end(ALICE.user_id)
    assert await waiting_ids(service, ALICE.user_id) == [day.id, week.id]


async def test_the_side_to_move_is_read_from_the_position_not_its_hand(
    service: GameService,
) -> None:
    game = await start_game(service, start_sfen=BISHOP_IN_GOTES_HAND)
    assert await waiting_ids(service, ALICE.user_id) == [game.id]
    assert await waiting_ids(service, BOB.user_id) == []
    await play_all(service, game.id, ["7g7f"])
    assert (await service.games.get(game.id)).game.position.sfen().split()[1:3] == ["w", "b"]
    assert await waiting_ids(service, ALICE.user_id) == []
    assert await waiting_ids(service, BOB.user_id) == [game.id]
