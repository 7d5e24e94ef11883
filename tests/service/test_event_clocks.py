"""An event's game (a tournament's, a team match's) is created with its clock waiting and
starts it with its first post, on real SQLite files and PostgreSQL: a game whose thread
is not open yet cannot run out of time, gets no reminder, takes no move (typed or picked)
or gift of time, is no move to make in `/next`, and a vacation does not start it; its
first post starts it from then, once, however many processes or restarts record the
thread again."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.db import DeadlineRow, open_database
from bot.services import ClockWaits, GameService, PlayerRef
from bot.services.tournaments.model import Runner
from rules import Termination

from .conftest import GUILD, FakeClock, RecordingEvents, checked

CHANNEL = 779
ORGANIZER = PlayerRef(5, "Organizer")
PLAYERS = [PlayerRef(400 + n, f"Q{n}") for n in range(1, 5)]
DAY = timedelta(days=1)


@asynccontextmanager
async def opened(
    location: str | Path, clock: FakeClock, events: RecordingEvents | None = None
) -> AsyncIterator[GameService]:
    db = await open_database(location)
    service = GameService(db, clock=clock, events=events or RecordingEvents(), rng=random.Random(5))
    try:
        yield service
    finally:
        await service.close()
        await db.close()


async def tournament_games(service: GameService, clock: FakeClock) -> list[int]:
    """A 4-player round robin at one day a move, started now: its six games' ids."""
    tournament = await service.tournaments.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organizer=ORGANIZER,
        may_manage=True,
        name="clock",
        format="round_robin",
        start_at=clock() + DAY,
        time_control="1d",
    )
    for player in PLAYERS:
        await service.tournaments.join(tournament.id, player, guild_id=GUILD)
    change = await service.tournaments.start(
        tournament.id, Runner(ORGANIZER.user_id, True), guild_id=GUILD
    )
    return sorted(change.games_created)


async def team_match_games(service: GameService) -> list[int]:
    """A 2 v 2 team match at one day a move: its four games' ids."""
    match = await service.team_matches.create(
        guild_id=GUILD,
        channel_id=CHANNEL,
        organizer=ORGANIZER,
        may_manage=True,
        first_team="東",
        second_team="西",
        first=PLAYERS[:2],
        second=PLAYERS[2:],
        time_control="1d",
    )
    return list(match.game_ids())


async def deadline_row(service: GameService, game_id: int) -> DeadlineRow | None:
    async with service.store.db.read() as tx:
        row = await tx.games.get(game_id)
    assert row is not None
    return row.deadline


@pytest.mark.parametrize("event", ["tournament", "team match"])
async def test_a_game_waiting_for_its_thread_keeps_its_full_time_until_its_first_post(
    shared_location: str | Path, clock: FakeClock, event: str
) -> None:
    events = RecordingEvents()
    async with opened(shared_location, clock, events) as service:
        if event == "tournament":
            games = await tournament_games(service, clock)
        else:
            games = await team_match_games(service)
        woken: list[datetime | None] = []  # from now on (a tournament's start time was)
        service.store.add_deadline_listener(woken.append)
        created = clock()
        waiting, other = games[0], games[1]
        game = await service.games.get(waiting)
        mover, opponent = game.sente.user_id, game.gote.user_id
        assert game.deadline is None and await deadline_row(service, waiting) is None

        # Listed among their games, as waiting for its thread, but not as a move to make.
        [listed] = [g for g in await service.games.active_for(mover) if g.id == waiting]
        assert listed.clock_waits and listed.deadline is None
        assert waiting not in [g.id for g in (await service.games.to_move(mover)).games]

        # Nothing runs while its players cannot see it: no move, no time given, no
        # reminder, no time-out however long the thread takes (days, at Discord's cap).
        with pytest.raises(ClockWaits, match="thread is still being opened"):
            await service.moves.play(waiting, mover, "7g7f")
        with pytest.raises(ClockWaits, match="thread is still being opened"):
            await service.extra_time.give(waiting, opponent)
        with pytest.raises(ClockWaits, match="thread is still being opened"):
            await service.pointing.choices(waiting, mover, guild_id=GUILD)  # the picker
        await service.vacations.start(mover)  # a vacation's end restarts running clocks
        clock.advance(hours=2)
        await service.vacations.end(mover)
        clock.advance(days=3)
        await checked(service)
        assert events.timed_out == [] and events.reminders == []
        still = await service.games.get(waiting)
        assert still.is_active and still.deadline is None and still.ply == 0
        assert await deadline_row(service, waiting) is None

        # Its first post starts it from now: the whole day, a reminder before it, and the
        # deadline task told; its start is when play could begin, not its creation.
        posted = clock()
        await service.games.set_thread(waiting, 880_001)
        begun = await service.games.get(waiting)
        assert begun.deadline == posted + DAY and begun.started_at == posted
        assert begun.row.turn_started_at == posted and begun.started_at > created
        row = await deadline_row(service, waiting)
        assert row is not None and row.player_id == mover and row.due_at == posted + DAY
        assert posted < row.remind_at < posted + DAY
        assert woken == [posted + DAY]
        assert waiting in [g.id for g in (await service.games.to_move(mover)).games]
        # Recorded again later (a retry, after a restart): the clock is not restarted.
        clock.advance(hours=5)
        await service.games.set_thread(waiting, 880_001)
        assert (await service.games.get(waiting)).deadline == posted + DAY
        assert await deadline_row(service, waiting) == row and woken == [posted + DAY]

        # The game posted in its channel (no thread) starts its clock with that post too.
        await service.games.set_thread(other, None)
        assert (await service.games.get(other)).deadline == clock() + DAY

        # From then on it is a game like any other: reminded, then lost on time.
        clock.advance(hours=18, seconds=1)
        await checked(service)
        assert [g.id for g in events.reminders] == [waiting]
        clock.advance(hours=1)
        await checked(service)
        assert [g.id for g in events.timed_out] == [waiting]
        ended = await service.games.get(waiting)
        assert ended.outcome is not None and ended.outcome.termination is Termination.TIME


async def test_a_clock_starts_once_across_two_processes_and_a_restart(
    shared_location: str | Path,
) -> None:
    """Two processes record the same game's first post at once, each with its own idea of
    now: one starts the clock, and the game's start, its turn's and its deadline agree."""
    early, late = FakeClock(), FakeClock()
    late.advance(minutes=30)
    async with opened(shared_location, early) as a, opened(shared_location, late) as b:
        games = await tournament_games(a, early)
        for game_id in games:
            await asyncio.gather(a.games.set_thread(game_id, 1), b.games.set_thread(game_id, 1))
            row = await deadline_row(a, game_id)
            game = await a.games.get(game_id)
            assert row is not None and game.started_at in (early(), late())
            assert row.due_at == game.started_at + DAY == game.deadline
            assert game.row.turn_started_at == game.started_at
    late.advance(days=1)
    async with opened(shared_location, late) as restarted:
        for game_id in games:
            before = await deadline_row(restarted, game_id)
            await restarted.games.set_thread(game_id, 1)
            assert await deadline_row(restarted, game_id) == before


async def test_a_challenge_game_keeps_its_clock_when_its_thread_is_recorded(
    shared_location: str | Path, clock: FakeClock
) -> None:
    """Only an event's game waits: an accepted challenge's clock runs from the accept, and
    its thread's recording leaves it; a first post in the channel keeps a thread recorded."""
    async with opened(shared_location, clock) as service:
        challenge = await service.challenges.offer(
            guild_id=GUILD,
            channel_id=CHANNEL,
            challenger=PLAYERS[0],
            opponent=PLAYERS[1],
            color="sente",
            time_control="1d",
        )
        game = await service.challenges.accept(challenge.id, PLAYERS[1].user_id)
        accepted = clock()
        assert game.deadline == accepted + DAY
        clock.advance(minutes=10)
        await service.games.set_thread(game.id, 880_002)
        again = await service.games.get(game.id)
        assert again.deadline == accepted + DAY and again.started_at == accepted
        await service.games.set_thread(game.id, None)  # a post in its channel keeps it
        assert (await service.games.get(game.id)).thread_id == 880_002
        await service.moves.play(game.id, PLAYERS[0].user_id, "7g7f")


@pytest.mark.parametrize("event", ["tournament", "team match"])
async def test_the_opener_queue_holds_the_games_waiting_for_their_first_post(
    shared_location: str | Path, clock: FakeClock, event: str
) -> None:
    """A game leaves the opener's queue with its first post, in a thread or, where none
    could be opened, in its channel: after a restart it is not posted a second time."""
    async with opened(shared_location, clock) as service:
        if event == "tournament":
            games = await tournament_games(service, clock)
        else:
            games = await team_match_games(service)
        queued = {game_id for game_id, _ in await service.tournaments.awaiting_first_post(50)}
        assert queued == set(games)
        await service.games.set_thread(games[0], 1)  # in its thread
        await service.games.set_thread(games[1], None)  # in its channel instead
    async with opened(shared_location, clock) as restarted:
        queued = {game_id for game_id, _ in await restarted.tournaments.awaiting_first_post(50)}
        assert queued == set(games[2:])


async def test_games_waiting_before_the_upgrade_wait_with_their_clocks_after_it(
    tmp_path: Path, clock: FakeClock
) -> None:
    """Migration 26 on a database whose event games were created by the code before it
    (their deadlines set at creation, no flag): those still waiting for their thread wait
    with their clocks stopped, so the opener finds them; one already opened keeps its clock."""
    path = tmp_path / "shogi.db"
    async with opened(path, clock) as service:
        games = await tournament_games(service, clock)
        await service.games.set_thread(games[0], 1)
        kept = await deadline_row(service, games[0])
    async with aiosqlite.connect(path, isolation_level=None) as old:  # as before migration 26
        for game_id in games[1:]:
            await old.execute(
                "INSERT INTO deadlines (game_id, player_id, due_at, remind_at)"
                " SELECT id, sente_id, 1, 1 FROM games WHERE id = ?",
                (game_id,),
            )
        await old.execute("ALTER TABLE games DROP COLUMN clock_waits")
        await old.execute("DELETE FROM schema_migrations WHERE version = 26")
    async with opened(path, clock) as upgraded:
        queued = {game_id for game_id, _ in await upgraded.tournaments.awaiting_first_post(50)}
        assert queued == set(games[1:])
        for game_id in games[1:]:
            assert await deadline_row(upgraded, game_id) is None
        assert await deadline_row(upgraded, games[0]) == kept
