"""Team matches through the service, on a real SQLite file and PostgreSQL: a 4 v 3 match
lined up by the members' ratings (the fourth sitting out), its six games created as
normal games, played to the end by resigning, a sennichite and the clock, with a restart
in the middle; the score is checked against a count written here, independently of
`teams`; two processes acting on one result act once; and the refusals."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from fractions import Fraction
from pathlib import Path

import pytest

from bot.db import Database, RatingRow, open_database
from bot.services import GameService, PlayerRef, ServiceError
from bot.services.tournaments.team_matches import MAX_RUNNING_MATCHES, PROFILE_MATCHES, TeamMatch
from bot.services.tournaments.teams import Side
from rules import Color

from .conftest import GUILD, FakeClock, RecordingEvents, checked, first_posts, play_all

CHANNEL = 778
ORGANIZER = PlayerRef(5, "Organizer")
EAST = [PlayerRef(200 + n, f"E{n}") for n in range(1, 5)]
WEST = [PlayerRef(300 + n, f"W{n}") for n in range(1, 4)]
RATINGS = {201: 1500.0, 202: 1900.0, 203: 1700.0, 204: 1300.0, 301: 1600.0, 302: 1800.0}
SENNICHITE = ["5i5h", "5a5b", "5h5i", "5b5a"] * 3


@asynccontextmanager
async def opened(location: str | Path, clock: FakeClock) -> AsyncIterator[GameService]:
    db = await open_database(location)
    service = GameService(db, clock=clock, events=RecordingEvents(), rng=random.Random(3))
    try:
        yield service
    finally:
        await service.close()
        await db.close()


async def rated(db: Database, clock: FakeClock) -> None:
    async with db.transaction() as tx:
        for member in EAST + WEST:
            await tx.players.upsert(member.to_row(), clock())
            if member.user_id in RATINGS:  # W3 has no rating yet: the default, 1500
                rating = RatingRow(
                    GUILD, member.user_id, RATINGS[member.user_id], 60.0, 0.06, 10, clock()
                )
                await tx.ratings.put(rating)


async def created(service: GameService, **options: object) -> TeamMatch:
    setup: dict[str, object] = {
        "guild_id": GUILD,
        "channel_id": CHANNEL,
        "organizer": ORGANIZER,
        "may_manage": True,
        "first_team": "東軍",
        "second_team": "西軍",
        "first": EAST,
        "second": WEST,
    }
    return await service.team_matches.create(**(setup | options))  # type: ignore[arg-type]


def by_hand(
    results: dict[int, tuple[int, int, str]],
) -> tuple[Fraction, Fraction, Fraction, Fraction]:
    """Each team's game points and board points from (sente, gote, result) by game,
    counted here without `teams`: a board is won by the more of its two games' points."""
    east = {m.user_id for m in EAST}
    game = {"east": Fraction(0), "west": Fraction(0)}
    boards: dict[frozenset[int], dict[str, Fraction]] = {}
    for sente, gote, result in results.values():
        board = boards.setdefault(
            frozenset((sente, gote)), {"east": Fraction(0), "west": Fraction(0)}
        )
        if result == "draw":
            share = {"east": Fraction(1, 2), "west": Fraction(1, 2)}
        else:
            winner = sente if result == "sente" else gote
            side = "east" if winner in east else "west"
            share = {side: Fraction(1), ("west" if side == "east" else "east"): Fraction(0)}
        for side, points in share.items():
            game[side] += points
            board[side] += points
    board_points = {"east": Fraction(0), "west": Fraction(0)}
    for board in boards.values():
        if board["east"] == board["west"]:
            board_points["east"] += Fraction(1, 2)
            board_points["west"] += Fraction(1, 2)
        else:
            board_points["east" if board["east"] > board["west"] else "west"] += 1
    return game["east"], game["west"], board_points["east"], board_points["west"]


async def test_a_match_is_lined_up_by_rating_and_played_to_its_end_with_a_restart(
    shared_location: str | Path,
) -> None:
    clock = FakeClock()
    async with opened(shared_location, clock) as service:
        await rated(service.store.db, clock)
        match = await created(service, time_control="1d")
    # Boards by rating: E2 1900 v W2 1800, E3 1700 v W1 1600, E1 1500 v W3 (1500 default);
    # E4 sits out.
    assert [(b.number, b.first, b.second) for b in match.lineup.boards] == [
        (1, 202, 302),
        (2, 203, 301),
        (3, 201, 303),
    ]
    assert match.lineup.sitting_out == (204,)
    assert len(match.games) == 6 and len(set(match.game_ids())) == 6
    results: dict[int, tuple[int, int, str]] = {}
    async with opened(shared_location, clock) as service:
        await first_posts(service, *match.game_ids())
        for place in match.games:
            game = await service.games.get(place.game_id or 0)
            assert (game.sente.user_id, game.gote.user_id) == (place.sente_id, place.gote_id)
            assert game.channel_id == CHANNEL
        one = {(g.board, g.game_number): g for g in match.games}
        # Each pair has both colours; board 1's first game gives the first team sente.
        for board in (1, 2, 3):
            first, second = one[(board, 1)], one[(board, 2)]
            assert (first.sente_id, first.gote_id) == (second.gote_id, second.sente_id)
        assert one[(1, 1)].sente_id == 202 and one[(2, 1)].sente_id == 301

        # Board 1: East wins both (resignations); board 2: a sennichite, then West wins.
        for key, winner in (((1, 1), Color.SENTE), ((1, 2), Color.GOTE)):
            row = one[key]
            loser = row.gote_id if winner is Color.SENTE else row.sente_id
            await service.endings.resign(row.game_id or 0, loser)
            results[row.id] = (row.sente_id, row.gote_id, winner.name.lower())
        await play_all(service, one[(2, 1)].game_id or 0, SENNICHITE)
        results[one[(2, 1)].id] = (one[(2, 1)].sente_id, one[(2, 1)].gote_id, "draw")
        change = await service.team_matches.game_ended(one[(1, 1)].game_id or 0)
        assert change is not None and not change.finished_now
        # The three results mirrored so far are acted on together, once.
        assert change.match.score.finished == 3
        assert await service.team_matches.game_ended(one[(2, 1)].game_id or 0) is None
    # A restart: the results of before are there, and later ones are acted on.
    async with opened(shared_location, clock) as service:
        west_wins = one[(2, 2)]
        await service.endings.resign(west_wins.game_id or 0, 203)
        results[west_wins.id] = (
            west_wins.sente_id,
            west_wins.gote_id,
            "sente" if west_wins.sente_id == 301 else "gote",
        )
        change = await service.team_matches.game_ended(west_wins.game_id or 0)
        assert change is not None and not change.match.score.decided
        # Board 3: both games' first movers move, then W3's second game is lost on time.
        first, second = one[(3, 1)], one[(3, 2)]
        await play_all(service, first.game_id or 0, ["7g7f"])
        await play_all(service, second.game_id or 0, ["7g7f", "3c3d"])
        await service.endings.resign(first.game_id or 0, first.gote_id)
        results[first.id] = (first.sente_id, first.gote_id, "sente")
        change = await service.team_matches.game_ended(first.game_id or 0)
        assert change is not None and change.decided_now and not change.finished_now
        clock.advance(days=2)
        await checked(service)  # second game: sente (to move) times out
        results[second.id] = (second.sente_id, second.gote_id, "gote")
        change = await service.team_matches.game_ended(second.game_id or 0)
        assert change is not None and change.finished_now and not change.decided_now
        final = change.match
    expected = by_hand(results)
    got = final.score
    assert (got.first_points, got.second_points, got.first_boards, got.second_boards) == expected
    assert final.row.state == "finished" and got.remaining == 0
    assert got.winner is not None and got.winner.value == (
        "first" if expected[0] > expected[1] else "second"
    )


async def test_two_processes_act_on_one_result_once(shared_location: str | Path) -> None:
    clock = FakeClock()
    async with opened(shared_location, clock) as a, opened(shared_location, clock) as b:
        await rated(a.store.db, clock)
        match = await created(a)
        game = match.games[0]
        await a.endings.resign(game.game_id or 0, game.gote_id)
        changes = await asyncio.gather(
            a.team_matches.game_ended(game.game_id or 0),
            b.team_matches.game_ended(game.game_id or 0),
        )
        landed = [change for change in changes if change is not None]
        assert len(landed) == 1 and landed[0].match.score.finished == 1
        async with a.store.db.read() as tx:
            rows = await tx.team_matches.games(match.id)
        assert [row.settled for row in rows].count(True) == 1


async def test_refusals_are_one_sentence_each_and_store_nothing(
    db: Database, service: GameService, clock: FakeClock
) -> None:
    attempts: list[tuple[dict[str, object], str]] = [
        ({"first": EAST, "second": [EAST[0]]}, rf"^{EAST[0].name} is in both teams"),
        ({"first": [*EAST, EAST[1]]}, rf"^{EAST[1].name} is in both teams \(or twice in one\)"),
        ({"first": [], "second": WEST}, "1 to 64 players"),
        ({"first_team": "西軍"}, "different names"),
        ({"first_team": "x" * 101}, "1 to 100"),
        ({"second": [PlayerRef(9, "Bot", is_bot=True)]}, "not bots"),
        ({"may_manage": False}, "set up a team match"),
    ]
    for change, words in attempts:
        with pytest.raises(ServiceError, match=words):
            await created(service, **change)
    async with db.read() as tx:
        assert await tx.games.count() == 0
        assert await tx.team_matches.count_running(GUILD) == 0
    # The check a caller makes before working for a member (reading a role's members).
    with pytest.raises(ServiceError, match="set up a team match"):
        await service.team_matches.require_organizer(GUILD, False, [77])
    await service.team_matches.require_organizer(GUILD, True)
    await service.tournaments.set_organizer_role(GUILD, 77)
    await service.team_matches.require_organizer(GUILD, False, [77])
    match = await created(service, may_manage=False, role_ids=[77])
    with pytest.raises(ServiceError, match="no such team match"):
        await service.team_matches.get(match.id, guild_id=GUILD + 1)


async def test_a_match_game_is_never_aborted_and_a_resignation_before_moving_loses(
    service: GameService, clock: FakeClock
) -> None:
    match = await created(service)
    first, second = match.games[0], match.games[1]
    assert first.game_id is not None and second.game_id is not None
    with pytest.raises(ServiceError, match=r"^A team match game cannot be aborted"):
        await service.endings.abort(first.game_id, first.sente_id)
    await service.endings.resign(second.game_id, second.gote_id)  # no move played yet
    change = await service.team_matches.game_ended(second.game_id)
    assert change is not None
    [row] = [g for g in change.match.games if g.id == second.id]
    assert row.result == "sente"
    # A game nobody moves in is lost on time by its first mover, not aborted.
    await first_posts(service, first.game_id)
    clock.advance(days=4)
    await checked(service)
    change = await service.team_matches.game_ended(first.game_id)
    assert change is not None
    [row] = [g for g in change.match.games if g.id == first.id]
    assert row.result == "gote"


async def test_a_members_matches_for_their_profile(service: GameService, clock: FakeClock) -> None:
    """Newest first, each with the member's team and board (none: sitting out) and its
    score, bounded to the latest few; another server's matches and others' are left out."""
    await rated(service.store.db, clock)
    first = await created(service)
    [board_one] = [b for b in first.lineup.boards if b.number == 1]
    one = next(g for g in first.games if g.board == 1 and g.game_number == 1)
    assert one.game_id is not None
    winner = board_one.second  # W2 beats E2 in the board's first game
    await service.endings.resign(one.game_id, board_one.first)
    await service.team_matches.game_ended(one.game_id)
    await created(service, guild_id=GUILD + 1)  # elsewhere: never listed here
    for _ in range(PROFILE_MATCHES):  # newer ones, played to their end
        small = await created(service, first=EAST[:1], second=WEST[2:])
        for game in small.games:
            assert game.game_id is not None
            await service.endings.resign(game.game_id, game.sente_id)
            await service.team_matches.game_ended(game.game_id)

    [played] = await service.team_matches.of_member(GUILD, winner)
    assert played.match.id == first.id and played.side is Side.SECOND
    assert played.board is not None and played.board.board.number == 1
    assert (played.board.first_points, played.board.second_points) == (Fraction(0), Fraction(1))
    [sitting] = await service.team_matches.of_member(GUILD, 204)  # E4, the weakest of four
    assert sitting.side is Side.FIRST and sitting.board is None
    listed = await service.team_matches.of_member(GUILD, EAST[0].user_id)
    ids = [p.match.id for p in listed]
    assert len(listed) == PROFILE_MATCHES and ids == sorted(ids, reverse=True)
    assert first.id not in ids  # the oldest falls off the list
    assert await service.team_matches.of_member(GUILD, ORGANIZER.user_id) == []


async def test_a_server_with_its_most_matches_is_refused_before_any_lookup(
    service: GameService,
) -> None:
    """At `MAX_RUNNING_MATCHES` under way the check a caller makes before reading a role's
    members refuses already, so a refused match costs no request to Discord."""
    for _ in range(MAX_RUNNING_MATCHES):
        await created(service)
    with pytest.raises(ServiceError, match="team matches under way"):
        await service.team_matches.require_organizer(GUILD, True)
    with pytest.raises(ServiceError, match="team matches under way"):
        await created(service)
