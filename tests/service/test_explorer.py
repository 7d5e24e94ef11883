"""The explorer: the moves of a server's finished games by position, counted against an
independent replay of the same games with the rules core, indexed exactly once whoever
gets there (the ending, a backfill, two processes), and never showing a game in progress
or another server's games."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from collections.abc import Sequence
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import BulkGame, Database, MoveRow, NewGame, PlayerRow, Terms, open_database
from bot.db.explorer import ExplorerMoveRow, ExplorerRepository
from bot.services import Exploration, GameService, ServiceError, position_hash
from bot.services.explorer.ending import index_ending
from rules import Color, Game, Handicap, Position

from .conftest import ALICE, BOB, CAROL, GUILD, START, FakeClock, play_all, start_game

OTHER_GUILD = 77
FOOLS_MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]  # sente mates
#: Two orders to one position (a transposition), then different ways on.
LINES = [
    ["7g7f", "3c3d", "2g2f", "8c8d"],
    ["2g2f", "3c3d", "7g7f", "8c8d", "2f2e"],
    ["2g2f", "8c8d", "7g7f", "3c3d"],
    ["7g7f", "8c8d", "2g2f"],
]


def counted(games: Sequence[tuple[Sequence[str], str | None, str]], at: Position) -> Counter[str]:
    """The independent count: every game replayed with the rules core, each move played
    from a position equal to `at` (board, hands, side to move) counted."""
    tally: Counter[str] = Counter()
    for moves, _winner, _start in games:
        game = Game.replay(None, moves)
        for ply, move in enumerate(game.moves):
            if game.position_at(ply).key() == at.key():
                tally[move.usi()] += 1
    return tally


async def finish_lines(
    service: GameService, clock: FakeClock
) -> list[tuple[list[str], str | None, str]]:
    """The lines above played and resigned by whoever is to move after them, the fool's mate
    (a win by mate), and an abort: what the server's index must hold."""
    played: list[tuple[list[str], str | None, str]] = []
    for moves in LINES:
        game = await start_game(service)
        await play_all(service, game.id, moves)
        loser = (await service.games.get(game.id)).to_move
        assert loser is not None
        await service.endings.resign(game.id, loser.user_id)
        winner = "gote" if len(moves) % 2 == 0 else "sente"
        played.append((moves, winner, "resign"))
        clock.advance(hours=1)
    mated = await start_game(service, opponent=CAROL)
    await play_all(service, mated.id, FOOLS_MATE)
    played.append((FOOLS_MATE, "sente", "checkmate"))
    aborted = await start_game(service)
    await service.endings.abort(aborted.id, ALICE.user_id)
    return played


def tallies(exploration: Exploration) -> dict[str, tuple[int, int, int, int]]:
    return {m.move.usi(): (m.games, m.wins, m.draws, m.losses) for m in exploration.moves}


async def test_the_start_counts_every_finished_game_and_nothing_else(
    service: GameService, clock: FakeClock
) -> None:
    played = await finish_lines(service, clock)
    ongoing = await start_game(service, opponent=CAROL)  # its moves must not show
    await play_all(service, ongoing.id, ["5g5f", "5c5d"])
    other = await start_game(service, guild_id=OTHER_GUILD)  # nor another server's
    await play_all(service, other.id, ["9g9f", "1c1d"])
    await service.endings.resign(other.id, ALICE.user_id)

    start = Position.initial()
    explored = await service.explorer.explore(GUILD, start)
    expected = counted(played, start)
    assert {usi: t[0] for usi, t in tallies(explored).items()} == dict(expected)
    assert "5g5f" not in tallies(explored) and "9g9f" not in tallies(explored)
    assert [m.games for m in explored.moves] == sorted(
        (m.games for m in explored.moves), reverse=True
    )
    # Results for the side that played the move: 7g7f opened three games (line 1, which
    # gote won by resignation, line 4, where gote resigned, and the fool's mate).
    assert tallies(explored)["7g7f"] == (3, 2, 0, 1)
    assert tallies(explored)["2g2f"] == (2, 1, 0, 1)
    assert explored.moves[0].percent(1) == 33
    # The games linked: the latest first, each once, none of another server.
    assert [g.game_id for g in explored.games] == sorted(
        (g.game_id for g in explored.games), reverse=True
    )
    assert len(explored.games) == 5
    assert other.id not in [g.game_id for g in explored.games]
    elsewhere = await service.explorer.explore(OTHER_GUILD, start)
    assert tallies(elsewhere) == {"9g9f": (1, 0, 0, 1)}


async def test_transpositions_meet_and_the_move_number_does_not_matter(
    service: GameService, clock: FakeClock
) -> None:
    played = await finish_lines(service, clock)
    meeting = Game.replay(None, LINES[0]).position  # 7g7f 3c3d 2g2f 8c8d, reached three ways
    explored = await service.explorer.explore(GUILD, meeting)
    expected = counted(played, meeting)
    assert dict(expected) == {"2f2e": 1}
    assert tallies(explored) == {"2f2e": (1, 1, 0, 0)}  # line 2: gote resigned
    later = Position.from_sfen(meeting.key() + " 41")  # the same position at move 41
    assert tallies(await service.explorer.explore(GUILD, later)) == tallies(explored)
    # Two plies in, two orders met: 7g7f 3c3d then 2g2f, and 2g2f 3c3d then 7g7f.
    after_two = Game.replay(None, ["7g7f", "3c3d", "2g2f"]).position
    assert counted(played, Game.replay(None, ["7g7f", "3c3d"]).position) == Counter({"2g2f": 1})
    assert (await service.explorer.explore(GUILD, after_two)).moves[0].games == 2


async def test_a_handicap_game_is_found_from_its_own_start(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, handicap="lance", color="gote")
    await play_all(service, game.id, ["5a4b", "7g7f"])
    await service.endings.resign(game.id, ALICE.user_id)
    handicap_start = Position.initial(Handicap.LANCE)
    assert tallies(await service.explorer.explore(GUILD, handicap_start)) == {"5a4b": (1, 0, 0, 1)}
    assert (await service.explorer.explore(GUILD, Position.initial())).moves == ()


async def test_following_a_move_and_forged_choices(service: GameService, clock: FakeClock) -> None:
    await finish_lines(service, clock)
    start = await service.explorer.explore(GUILD, Position.initial())
    followed = await service.explorer.follow(GUILD, start.key, "2g2f")
    assert followed.position.key() == Game.replay(None, ["2g2f"]).position.key()
    assert set(tallies(followed)) == {"3c3d", "8c8d"}
    for forged in ["5g5f", "2g2f" * 30, "", "7g7f\x00", "P*5e"]:
        with pytest.raises(ServiceError) as refused:
            await service.explorer.follow(GUILD, start.key, forged)
        assert "was not played from this position" in refused.value.message
    with pytest.raises(ServiceError):  # another server's key, or a key nobody reached
        await service.explorer.follow(OTHER_GUILD, start.key, "2g2f")
    with pytest.raises(ServiceError):
        await service.explorer.follow(GUILD, 12345, "2g2f")


async def test_from_a_game_and_move_number(service: GameService, clock: FakeClock) -> None:
    await finish_lines(service, clock)
    ongoing = await start_game(service, opponent=CAROL)
    await play_all(service, ongoing.id, ["7g7f", "3c3d"])
    at_one = await service.explorer.at_game(ongoing.id, 1, guild_id=GUILD)
    assert at_one.position.key() == Game.replay(None, ["7g7f"]).position.key()
    assert set(tallies(at_one)) == {"3c3d", "8c8d", "6a7b"}
    # Past its last move: the last position (nothing played there yet).
    assert (await service.explorer.at_game(ongoing.id, 99, guild_id=GUILD)).position.key() == (
        Game.replay(None, ["7g7f", "3c3d"]).position.key()
    )
    current = await service.explorer.at_game(ongoing.id, None, guild_id=GUILD)
    assert tallies(current) == {"2g2f": (1, 0, 0, 1)}  # line 1: 7g7f 3c3d 2g2f, gote won
    assert (await service.explorer.at_game(ongoing.id, 0, guild_id=GUILD)).moves[0].games == 3


async def test_the_ending_indexes_a_game_once(service: GameService, db: Database) -> None:
    game = await start_game(service)
    await play_all(service, game.id, ["7g7f", "3c3d"])
    await service.endings.resign(game.id, ALICE.user_id)
    async with db.transaction() as tx:  # a second ending transaction, as a lost race would be
        await index_ending(tx, game.id)
    assert await service.explorer.backfill(GUILD) == 0
    explored = await service.explorer.explore(GUILD, Position.initial())
    assert tallies(explored) == {"7g7f": (1, 0, 0, 1)}


def bulk_games(count: int, guild_id: int = GUILD) -> list[BulkGame]:
    """Finished games stored without their endings' transactions, as games that ended
    before the index existed: random short openings, alternately won by each side."""
    rng = random.Random(count)
    games = []
    terms = Terms(bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27")
    for n in range(count):
        game = Game()
        moves = []
        for ply in range(rng.randint(2, 8)):
            move = rng.choice(game.position.legal_moves())
            game.push(move)
            moves.append(MoveRow(0, ply + 1, move.usi(), 1 + ply % 2, START))
        new = NewGame(guild_id, 1, 1, 2, terms, Position.initial().sfen(), START)
        winner = "sente" if n % 2 else "gote"
        games.append(
            BulkGame(new, tuple(moves), game.position.sfen(), START, "resignation", winner)
        )
    return games


async def store_bulk(db: Database, games: list[BulkGame]) -> None:
    async with db.transaction() as tx:
        await tx.players.upsert(PlayerRow(1, "one"), START)
        await tx.players.upsert(PlayerRow(2, "two"), START)
        await tx.games.bulk_insert(games)


async def test_older_games_are_indexed_on_first_use_in_bounded_batches(
    service: GameService, db: Database
) -> None:
    games = bulk_games(30)
    await store_bulk(db, games)
    assert await service.explorer.backfill(GUILD, limit=12) == 18
    assert await service.explorer.backfill(GUILD, limit=12) == 6
    explored = await service.explorer.explore(GUILD, Position.initial())  # the rest
    firsts = Counter(g.moves[0].usi for g in games)
    assert {usi: t[0] for usi, t in tallies(explored).items()} == dict(firsts)
    async with db.query() as q:
        assert await q.explorer.count(GUILD) == 30


async def test_a_backfill_batch_counts_its_positions_in_one_order(
    service: GameService, db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A batch of older games is counted in one transaction: its counts are written in one
    order over the whole batch, as an ending writes its own, so on PostgreSQL a batch and a
    game ending at once never hold each other's rows in opposite orders (a deadlock that
    would fail the member's ending or the explorer's use). Game by game in order, a later
    game's first position comes after an earlier game's last."""
    written: list[tuple[int, str]] = []
    add = ExplorerRepository.add

    async def recording(
        self: ExplorerRepository, guild_id: int, rows: Sequence[ExplorerMoveRow]
    ) -> None:
        written.extend(sorted({(row.position, row.move) for row in rows}))
        await add(self, guild_id, rows)

    monkeypatch.setattr(ExplorerRepository, "add", recording)
    await store_bulk(db, bulk_games(12))
    assert await service.explorer.backfill(GUILD, limit=100) == 0
    assert len(written) > 12  # every game's moves, the start's shared
    assert written == sorted(written)


async def test_two_processes_backfilling_at_once_count_each_game_once(
    shared_location: str | Path, clock: FakeClock
) -> None:
    first, second = await open_database(shared_location), await open_database(shared_location)
    try:
        games = bulk_games(40)
        await store_bulk(first, games)
        one, two = GameService(first, clock=clock), GameService(second, clock=clock)
        await asyncio.gather(
            one.explorer.backfill(GUILD, limit=100), two.explorer.backfill(GUILD, limit=100)
        )
        firsts = Counter(g.moves[0].usi for g in games)
        for service in (one, two):
            explored = await service.explorer.explore(GUILD, Position.initial())
            assert {usi: t[0] for usi, t in tallies(explored).items()} == dict(firsts)
        async with first.query() as q:
            assert await q.explorer.count(GUILD) == 40
    finally:
        await first.close()
        await second.close()


async def test_two_processes_ending_and_backfilling_count_a_game_once(
    shared_location: str | Path, clock: FakeClock
) -> None:
    """A game ended by one process while another backfills the server: either gets there
    first, the other writes nothing."""
    first, second = await open_database(shared_location), await open_database(shared_location)
    try:
        one, two = GameService(first, clock=clock), GameService(second, clock=clock)
        games = []
        for _ in range(6):
            game = await start_game(one)
            await play_all(one, game.id, ["7g7f", "3c3d"])
            games.append(game)

        async def end_all() -> None:
            for game in games:
                await one.endings.resign(game.id, BOB.user_id)

        async def backfill_often() -> None:
            for _ in range(20):
                two.explorer._filled.clear()
                await two.explorer.backfill(GUILD)
                await asyncio.sleep(0)

        await asyncio.gather(end_all(), backfill_often())
        explored = await one.explorer.explore(GUILD, Position.initial())
        assert tallies(explored) == {"7g7f": (6, 6, 0, 0)}
    finally:
        await first.close()
        await second.close()


def test_the_key_ignores_the_move_number_and_sees_hands_and_side() -> None:
    start = Position.initial()
    assert position_hash(start) == position_hash(Position.from_sfen(start.key() + " 99"))
    other_side = Position.from_sfen(start.key().replace(" b ", " w ") + " 1")
    assert position_hash(other_side) != position_hash(start)
    assert Color.SENTE is start.turn


async def test_games_ending_at_once_in_two_processes_are_all_counted(
    shared_location: str | Path, clock: FakeClock
) -> None:
    """Endings under way at once add to the same counts (the start's, and positions the
    games reach in other orders): each ending lands, none waits on the other for ever."""
    first, second = await open_database(shared_location), await open_database(shared_location)
    try:
        one, two = GameService(first, clock=clock), GameService(second, clock=clock)
        games = []
        for n in range(8):
            game = await start_game(one)
            await play_all(one, game.id, LINES[n % len(LINES)])
            games.append(game)
        await asyncio.gather(
            *(
                (one if n % 2 else two).endings.resign(game.id, ALICE.user_id)
                for n, game in enumerate(games)
            )
        )
        explored = await one.explorer.explore(GUILD, Position.initial())
        played = [(LINES[n % len(LINES)], "gote", "resign") for n in range(8)]
        assert {usi: t[0] for usi, t in tallies(explored).items()} == dict(
            counted(played, Position.initial())
        )
        assert sum(t[2] for t in tallies(explored).values()) == 0  # no draws
    finally:
        await first.close()
        await second.close()


async def test_uses_at_once_index_the_older_games_in_one_round(
    service: GameService, db: Database
) -> None:
    await store_bulk(db, bulk_games(60))
    first, second = await asyncio.gather(
        service.explorer.backfill(GUILD, limit=100), service.explorer.backfill(GUILD, limit=100)
    )
    assert sorted([first, second]) == [0, 60]  # the second saw them all waiting, left them
    async with db.query() as q:
        assert await q.explorer.count(GUILD) == 60


async def test_a_game_lost_on_time_is_counted_with_its_ending(
    service: GameService, clock: FakeClock
) -> None:
    game = await start_game(service, time_control="1d")
    await play_all(service, game.id, ["7g7f", "3c3d", "2g2f"])
    assert tallies(await service.explorer.explore(GUILD, Position.initial())) == {}
    clock.advance(days=2)
    ended = await service.games.get(game.id)  # the lazy check ends it on time
    assert ended.outcome is not None and ended.outcome.winner is Color.SENTE
    async with service.store.db.query() as q:
        assert await q.explorer.count(GUILD) == 1  # with its ending, not by a backfill
    assert tallies(await service.explorer.explore(GUILD, Position.initial())) == {
        "7g7f": (1, 1, 0, 0)
    }
