"""Several processes on one database, each for some shards: every service here opens the
same SQLite file with its own connection, as a process of its own would.

Each settles the deadlines of its own servers only; an ending is posted by the process
that stored it, and taken over by another only once its lease has run out; a game
another process changed is never served from a cache; the settings caches read through.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import Database, ShardScope, open_database, shard_of
from bot.services import GameService, PositionChanged, ServiceError
from bot.services.play.store import ENDING_LEASE
from rules import Termination

from .conftest import ALICE, BOB, CAROL, FakeClock, RecordingEvents, checked, play_all, start_game

DAY = timedelta(days=1)
COUNT = 2
SHORT_MATE = ["7g7f", "6a7b", "8h3c+", "4a4b", "3c4b", "5a6a", "G*5b"]


def guild_of_shard(shard: int, count: int = COUNT) -> int:
    """A real-looking server id that Discord puts on `shard`."""
    guild = (1_300_000_000_000 + shard) << 22
    assert shard_of(guild, count) == shard
    return guild


GUILD_0, GUILD_1 = guild_of_shard(0), guild_of_shard(1)


@dataclass
class Process:
    db: Database
    service: GameService
    events: RecordingEvents


@pytest.fixture
async def processes(shared_location: str | Path, clock: FakeClock) -> AsyncIterator[list[Process]]:
    """Two "processes" on one database (a SQLite file, or PostgreSQL): shard 0 and shard 1
    of two."""
    opened = []
    for shard in range(COUNT):
        db = await open_database(shared_location)
        events = RecordingEvents()
        service = GameService(
            db,
            clock=clock,
            events=events,
            rng=random.Random(shard),
            scope=ShardScope(frozenset({shard}), COUNT),
            shared_database=True,
        )
        opened.append(Process(db, service, events))
    yield opened
    for process in opened:
        await process.db.close()


def test_the_shard_formula_is_discords() -> None:
    # Discord's documented example: this server id is on shard 1 of 2... and others.
    assert shard_of(197038439483310086, 2) == 197038439483310086 >> 22 & 1
    assert shard_of(41771983423143937, 1) == 0
    scope = ShardScope(frozenset({1, 3}), 4)
    assert [scope.owns(guild_of_shard(s, 4)) for s in range(4)] == [False, True, False, True]
    assert ShardScope(frozenset({0}), 4).owns(None)  # direct messages come to shard 0
    assert scope.sql("g.guild_id")[1] == (4, 1, 3)
    assert ShardScope(frozenset(range(4)), 4).sql("g.guild_id") == ("", ())
    for wrong in ((frozenset(), 2), (frozenset({2}), 2), (frozenset({0}), 0)):
        with pytest.raises(ValueError):
            ShardScope(*wrong)


async def test_each_process_ends_and_reminds_only_its_own_servers_games(
    processes: list[Process], clock: FakeClock
) -> None:
    first, second = processes
    games = {}
    for shard, guild in enumerate((GUILD_0, GUILD_1)):
        game = await start_game(first.service, guild_id=guild, time_control="1d")
        await first.service.moves.play(game.id, ALICE.user_id, "7g7f")
        await first.service.moves.play(game.id, BOB.user_id, "3c3d")
        games[shard] = game.id
    clock.advance(hours=20)  # the reminders are due
    await checked(first.service)
    assert [game.id for game in first.events.reminders] == [games[0]]
    await checked(second.service)
    assert [game.id for game in second.events.reminders] == [games[1]]
    clock.advance(days=1)
    # Each process wakes for its own games only.
    assert await first.service.deadlines.next_wakeup() is not None
    await checked(second.service)
    assert [game.id for game in second.events.timed_out] == [games[1]]
    assert await second.service.deadlines.next_wakeup() is None
    await checked(first.service)
    assert [game.id for game in first.events.timed_out] == [games[0]]
    for process in processes:
        await checked(process.service)
        assert len(process.events.timed_out) == 1 and len(process.events.reminders) == 1


async def test_each_process_expires_only_its_own_servers_challenges(
    processes: list[Process], clock: FakeClock
) -> None:
    first, second = processes
    offered = {}
    for shard, guild in enumerate((GUILD_0, GUILD_1)):
        challenge = await first.service.challenges.offer(
            guild_id=guild, channel_id=7, challenger=ALICE, opponent=CAROL
        )
        offered[shard] = challenge.id
    clock.advance(days=8)
    await checked(second.service)
    assert [c.id for c in second.events.expired] == [offered[1]]
    await checked(first.service)
    assert [c.id for c in first.events.expired] == [offered[0]]


async def test_an_ending_is_posted_by_the_process_that_stored_it_until_its_lease_runs_out(
    processes: list[Process], clock: FakeClock
) -> None:
    first, second = processes
    game = await start_game(first.service, guild_id=GUILD_0)
    await play_all(first.service, game.id, ["7g7f", "3c3d"])
    ended = await first.service.endings.resign(game.id, ALICE.user_id)
    assert ended.outcome is not None and ended.outcome.termination is Termination.RESIGNATION
    # The first process is still posting it (it has not said it posted): nobody else does.
    await checked(second.service)
    assert second.events.unannounced == []
    wake = await second.service.deadlines.next_wakeup()
    assert wake is not None and wake == clock.now + ENDING_LEASE
    # It died before posting; once its lease has run out, one other process posts it.
    clock.advance(seconds=ENDING_LEASE.total_seconds())
    await checked(second.service)
    assert [view.id for view in second.events.unannounced] == [game.id]
    await checked(first.service)  # the first does not post its own again
    await checked(second.service)  # nor the second the one it now holds
    assert first.events.unannounced == [] and len(second.events.unannounced) == 1
    await second.service.deadlines.ending_posted(game.id)
    clock.advance(days=1)
    for process in processes:
        await checked(process.service)
        assert await process.service.deadlines.next_wakeup() is None
    assert first.events.unannounced == [] and len(second.events.unannounced) == 1


async def test_a_mating_move_claims_its_ending_as_a_resignation_does(
    processes: list[Process], clock: FakeClock
) -> None:
    first, second = processes
    game = await start_game(first.service, guild_id=GUILD_1)
    played = await play_all(first.service, game.id, SHORT_MATE)
    assert played.game.outcome is not None
    assert played.game.outcome.termination is Termination.CHECKMATE
    for process in processes:  # the first is posting it: nobody takes it over
        await checked(process.service)
        assert process.events.unannounced == []
    clock.advance(minutes=3)
    await checked(second.service)
    assert [view.id for view in second.events.unannounced] == [game.id]


async def test_a_restart_posts_what_its_predecessor_left_once_the_lease_has_run_out(
    shared_location: str | Path, clock: FakeClock
) -> None:
    path = shared_location
    db = await open_database(path)
    service = GameService(db, clock=clock)
    game = await start_game(service)
    await service.endings.resign(game.id, BOB.user_id)
    await db.close()  # killed before posting
    db = await open_database(path)
    try:
        events = RecordingEvents()
        restarted = GameService(db, clock=clock, events=events)
        assert await checked(restarted) == clock.now + ENDING_LEASE
        assert events.unannounced == []
        clock.advance(minutes=5)
        assert await checked(restarted) is None
        assert [view.id for view in events.unannounced] == [game.id]
    finally:
        await db.close()


async def test_a_move_against_a_state_another_process_changed_is_refused_and_reloaded(
    processes: list[Process],
) -> None:
    first, second = processes
    game = await start_game(first.service, guild_id=GUILD_0)
    await first.service.games.get(game.id)  # cached in the first process
    await second.service.moves.play(game.id, ALICE.user_id, "7g7f")
    with pytest.raises(ServiceError):  # Alice again, on the first process's old view
        await first.service.moves.play(game.id, ALICE.user_id, "2g2f")
    fresh = await first.service.games.get(game.id)
    assert fresh.ply == 1 and fresh.to_move == BOB
    played = await first.service.moves.play(game.id, BOB.user_id, "3c3d")
    assert played.game.ply == 2
    with pytest.raises(PositionChanged):  # a confirmation made before the other's move
        await second.service.moves.play(game.id, ALICE.user_id, "2g2f", expected_ply=1)


async def test_settings_changed_through_one_process_are_seen_by_the_other(
    processes: list[Process],
) -> None:
    first, second = processes
    assert await second.service.servers.language(GUILD_0) is None
    assert not (await second.service.preferences.of(ALICE.user_id)).confirm_moves
    await first.service.servers.set_language(GUILD_0, "ja")
    await first.service.preferences.change(ALICE.user_id, confirm_moves=True)
    assert await second.service.servers.language(GUILD_0) == "ja"
    assert (await second.service.preferences.of(ALICE.user_id)).confirm_moves
