"""`python -m bot.db copy`: a club's SQLite file into an empty PostgreSQL database, every
table with its ids, checked by counts and by replaying every game; refused into a database
that holds anything; and the bot then carries on, on PostgreSQL, where it stopped."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from contextlib import closing
from datetime import timedelta
from pathlib import Path

import pytest

from bot.db import Database, EvaluationRow, PreferencesRow, PublicationRow, open_database
from bot.db.__main__ import main
from bot.db.copying import OWN_TABLES, CopyFailed, CopyRefused, copy_database
from bot.db.limiters import Pace, PostgresBucket, bucket_key
from bot.services import GameService
from bot.services.records.readers import ReaderPool
from bot.services.tournaments.model import Runner
from rules import Handicap

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    GUILD,
    FakeClock,
    RecordingEvents,
    assert_consistent,
    play_all,
    start_game,
)
from .test_problems import MATE_IN_3, MATING_GAME

pytestmark = pytest.mark.postgres

OPENING = ["7g7f", "3c3d", "2g2f", "4c4d"]
FOOLS_MATE = ["2g2f", "5a4b", "2f2e", "4b3b", "2e2d", "3b2b", "2d2c+"]


async def an_empty_club(path: Path) -> None:
    await (await open_database(path)).close()


async def a_club(path: Path) -> None:
    """A SQLite file with games of every kind and a row in every table."""
    db = await open_database(path)
    clock = FakeClock()
    service = GameService(db, clock=clock, events=RecordingEvents(), rng=random.Random(5))
    try:
        active = await start_game(service)  # under way, with a deadline and a forecast
        await play_all(service, active.id, OPENING)
        await service.forecasts.add(active.id, BOB.user_id, "2f2e 8c8d")
        await service.notes.add(active.id, CAROL.user_id, "a spectator's note")
        rated = await start_game(service)  # rated, resigned
        await play_all(service, rated.id, OPENING[:2])
        await service.endings.resign(rated.id, BOB.user_id)
        await start_game(service, handicap="two_piece", rated=False)  # handicap, not started
        ranged = await start_game(service, rated=False)  # its opening named, then listed
        await play_all(service, ranged.id, ["7g7f", "3c3d", "2h6h"])
        await service.endings.resign(ranged.id, BOB.user_id)
        await service.openings.of_games([ranged.id])
        setup = await start_game(service, start_sfen=Handicap.EVEN.sfen, rated=False)
        await play_all(service, setup.id, FOOLS_MATE[:3])
        taken = await start_game(service, challenger=CAROL)
        await play_all(service, taken.id, OPENING[:3])
        ask = await service.takebacks.ask(taken.id, CAROL.user_id)
        await service.takebacks.answer(
            taken.id, ask.request.id, BOB.user_id, accept=True, expected_ply=3
        )
        timed = await start_game(service, time_control="1d")  # aborted by time, no move
        clock.advance(days=2)
        await service.deadlines.check()
        await a_daily_problem(service, clock, db)
        await service.rematches.ask(rated.id, ALICE.user_id)
        await service.challenges.offer(
            guild_id=GUILD,
            channel_id=1,
            challenger=CAROL,
            opponent=None,
            color="random",
            time_control="3d",
            handicap="even",
            impasse_rule="24",
            start_sfen=None,
        )
        # A tournament under way, one of its games resigned and acted on.
        await service.tournaments.set_organizer_role(GUILD, 31)
        cup = await service.tournaments.create(
            guild_id=GUILD,
            channel_id=1,
            organizer=CAROL,
            may_manage=False,
            role_ids=[31],
            name="春季リーグ",
            format="round_robin",
            start_at=clock() + timedelta(days=1),
        )
        for member in (ALICE, BOB, CAROL):
            await service.tournaments.join(cup.id, member, guild_id=GUILD)
        cup_started = await service.tournaments.start(cup.id, Runner(CAROL.user_id), guild_id=GUILD)
        cup_game = await service.games.get(cup_started.games_created[0])
        await service.endings.resign(cup_game.id, cup_game.sente.user_id)
        await service.tournaments.game_ended(cup_game.id)
        # A team match under way (Carol sits out), one of its games resigned and acted on.
        duel = await service.team_matches.create(
            guild_id=GUILD,
            channel_id=1,
            organizer=CAROL,
            may_manage=True,
            first_team="東",
            second_team="西",
            first=[ALICE, CAROL],
            second=[BOB],
        )
        duel_game = duel.games[0]
        assert duel_game.game_id is not None
        await service.endings.resign(duel_game.game_id, duel_game.sente_id)
        await service.team_matches.game_ended(duel_game.game_id)
        async with db.transaction() as tx:
            chosen = PreferencesRow(ALICE.user_id, True, "digest", "ja", 21, "Asia/Tokyo", 23, 6)
            await tx.preferences.set(chosen, clock())
            await tx.digests.claim(ALICE.user_id, clock())  # her digest of today went out
            await tx.preferences.close_inbox(BOB.user_id, clock())  # Discord refused his DMs
            await tx.lost_channels.mark_lost(4343, clock())  # a thread a moderator deleted
            await tx.servers.set_language(GUILD, "ja")
            await tx.servers.set_time_zone(GUILD, "Asia/Tokyo")
            await tx.publications.save(PublicationRow(77, None, "digest", 31, clock()))
            await tx.vacations.start(BOB.user_id, clock(), clock() + timedelta(days=3))
            await tx.computer.add(setup.id, 9999, 3)  # as if the bot held a seat
            # An analysis under way when the bot stopped, its claim on its lease.
            room = {"per_member": 1, "per_server": 3}
            until = clock() + timedelta(minutes=10)
            await tx.analyses.claim(
                GUILD, ALICE.user_id, rated.id, now=clock(), until=until, **room
            )
            await tx.analyses.add(
                [
                    EvaluationRow(rated.id, 0, 40, None, "7g7f"),
                    EvaluationRow(rated.id, 1, None, 5, None),
                ]
            )
        del timed
    finally:
        await db.close()


async def a_daily_problem(service: GameService, clock: FakeClock, db: Database) -> None:
    """A mate problem found in a finished game, posted, answered; a player opted out."""
    pool = ReaderPool(processes=1, time_limit=60.0)
    try:
        service.problems.scan_with(pool)
        service.daily_problems.run_with(pool, None)
        mated = await start_game(service, start_sfen=MATE_IN_3, rated=False)
        await play_all(service, mated.id, MATING_GAME)
        await service.problems.check()
        first = await service.daily_problems.schedule(GUILD, 1, clock().hour)
        clock.now = first + timedelta(seconds=1)
        await service.daily_problems.check()  # queued in the outbox, which keeps its row
        delivery = await service.daily_problems.delivery(GUILD)
        assert delivery.post is not None
        await service.daily_problems.posted(delivery.post.id, 5001)
        await service.daily_problems.answer(GUILD, None, ALICE.user_id, "R*5b")
        async with db.transaction() as tx:
            await tx.problems.opt_out(CAROL.user_id, clock())
    finally:
        await pool.close()


def counts(path: Path) -> dict[str, int]:
    """The rows of every table the copy copies (not those each database keeps for itself)."""
    with closing(sqlite3.connect(path)) as lite:
        tables = [
            row[0]
            for row in lite.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            if row[0] not in OWN_TABLES
        ]
        return {
            table: lite.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0] for table in tables
        }


async def never_analysed(url: str, tables: list[str]) -> list[str]:
    """The copied tables PostgreSQL keeps no planner statistics for yet."""
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        rows = await connection.fetch(
            "SELECT relname FROM pg_stat_user_tables"
            " WHERE last_analyze IS NULL AND last_autoanalyze IS NULL"
        )
    finally:
        await connection.close()
    return sorted(row[0] for row in rows if row[0] in tables)


async def test_a_club_copies_whole_and_plays_on(tmp_path: Path, postgres_url: str) -> None:
    path = tmp_path / "shogi.db"
    await a_club(path)
    source = counts(path)
    assert all(source.values()), source  # every table has something to copy

    report = await copy_database(f"sqlite:///{path}", postgres_url)

    assert report.rows == source
    assert report.games_replayed == source["games"]
    assert await never_analysed(postgres_url, list(source)) == []
    db = await open_database(postgres_url)
    try:
        await assert_consistent(db)
        lite = await open_database(path)
        try:
            for game_id in range(1, source["games"] + 1):
                async with lite.query() as a, db.query() as b:
                    assert await a.games.get(game_id) == await b.games.get(game_id)
                    assert await a.moves.for_game(game_id) == await b.moves.for_game(game_id)
                    assert await a.takebacks.for_game(game_id) == await b.takebacks.for_game(
                        game_id
                    )
            async with lite.query() as a, db.query() as b:
                assert await a.preferences.all() == await b.preferences.all()
                assert await b.servers.time_zone(GUILD) == "Asia/Tokyo"
        finally:
            await lite.close()
        # The ids go on from the highest copied one.
        service = GameService(db, clock=FakeClock(), events=RecordingEvents())
        fresh = await start_game(service, challenger=CAROL, opponent=ALICE)
        assert fresh.id == source["games"] + 1
    finally:
        await db.close()


async def test_a_target_with_data_is_refused_and_left_alone(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "shogi.db"
    await a_club(path)
    await copy_database(str(path), postgres_url)
    with pytest.raises(CopyRefused, match="not empty"):
        await copy_database(str(path), postgres_url)
    db = await open_database(postgres_url)
    try:
        async with db.query() as q:
            assert await q.games.count() == counts(path)["games"]
    finally:
        await db.close()


async def test_a_target_a_bot_only_paced_requests_through_is_still_empty(
    tmp_path: Path, postgres_url: str
) -> None:
    """A bot started on the new database before the copy (to try it) took slots of the
    shared rate limit there: that bucket is the database's own, not the club's data."""
    path = tmp_path / "shogi.db"
    await a_club(path)
    db = await open_database(postgres_url)
    try:
        await PostgresBucket(db, bucket_key("t"), Pace()).reserve()
    finally:
        await db.close()
    report = await copy_database(str(path), postgres_url)
    assert report.rows["games"] == counts(path)["games"]


async def test_a_game_that_does_not_replay_fails_the_check(
    tmp_path: Path, postgres_url: str
) -> None:
    path = tmp_path / "shogi.db"
    await a_club(path)
    with closing(sqlite3.connect(path)) as lite, lite:
        lite.execute("UPDATE moves SET usi = '5i5h' WHERE game_id = 1 AND ply = 3")
    with pytest.raises(CopyFailed, match="game 1"):
        await copy_database(str(path), postgres_url)


def test_the_command_says_what_it_copied_and_refuses_the_wrong_way(
    tmp_path: Path, postgres_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "shogi.db"
    assert main(["copy", f"sqlite:///{path}", f"sqlite:///{tmp_path / 'other.db'}"]) == 1
    assert "from a SQLite file to a PostgreSQL database" in capsys.readouterr().err
    assert main(["copy", f"sqlite:///{path}", postgres_url]) == 1  # no file there: never made
    assert f"no SQLite database at {path}:" in capsys.readouterr().err and not path.exists()
    asyncio.run(an_empty_club(path))
    assert main(["copy", f"sqlite:///{path}", postgres_url]) == 0
    out = capsys.readouterr().out
    assert "games" in out and "replayed" in out
