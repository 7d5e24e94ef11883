"""What the PostgreSQL backend must keep of SQLite's meaning: the same migrations and schema,
ids and times as they were, one `Conflict`, and every claim that must happen once landing
once when many connections try at the same moment (PostgreSQL runs them concurrently,
where SQLite's one writer made them take turns). The rest of the service suite runs on
PostgreSQL through the `db` fixture's `postgres` parameter."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

from bot.db import (
    LATEST_VERSION,
    Conflict,
    Database,
    MoveRow,
    NewGame,
    PlayerRow,
    SchemaTooNewError,
    Session,
    Terms,
    open_database,
)
from bot.db.migrations import MIGRATIONS, Migration
from bot.db.postgres import current_version, migrate, to_postgres
from bot.services import GameService
from rules import Handicap
from tests.support.postgres import raw

from .conftest import ALICE, BOB, CAROL, GUILD, FakeClock, RecordingEvents, play_all, start_game

pytestmark = pytest.mark.postgres

WHEN = datetime(2025, 3, 1, 12, 0, 0, 123_456, tzinfo=UTC)
#: A Discord id needs all 64 bits (this one is past 2**62).
SNOWFLAKE = 5_000_000_000_000_000_001
CLAIMANTS = 8


async def test_a_fresh_database_runs_every_migration_once(postgres_url: str) -> None:
    databases = await asyncio.gather(*(open_database(postgres_url) for _ in range(3)))
    try:
        assert {db.backend for db in databases} == {"postgresql"}
        assert [await db.schema_version() for db in databases] == [LATEST_VERSION] * 3
    finally:
        for db in databases:
            await db.close()
    connection = await raw(postgres_url)
    try:
        versions = [
            row[0]
            for row in await connection.fetch(
                "SELECT version FROM schema_migrations ORDER BY version"
            )
        ]
    finally:
        await connection.close()
    assert versions == [migration.version for migration in MIGRATIONS]


async def test_a_database_newer_than_the_code_is_refused(postgres_url: str) -> None:
    await (await open_database(postgres_url)).close()
    connection = await raw(postgres_url)
    try:
        await connection.execute(
            "INSERT INTO schema_migrations VALUES ($1, 'from the future', 0)", LATEST_VERSION + 1
        )
    finally:
        await connection.close()
    with pytest.raises(SchemaTooNewError, match=f"version {LATEST_VERSION + 1}"):
        await open_database(postgres_url)


async def test_the_location_never_shows_the_password(postgres_url: str) -> None:
    parts = urlsplit(postgres_url)
    with_password = urlunsplit(
        (
            parts.scheme,
            f"postgres:hunter2@{parts.hostname}:{parts.port}",
            parts.path,
            parts.query,
            "",
        )
    )
    db = await open_database(with_password)  # the test server trusts any password
    try:
        assert "hunter2" not in db.location and ":***@" in db.location
    finally:
        await db.close()


async def test_the_schema_is_sqlites_table_by_table_column_by_column(
    postgres_url: str, tmp_path: Path
) -> None:
    await (await open_database(tmp_path / "shogi.db")).close()
    with closing(sqlite3.connect(tmp_path / "shogi.db")) as lite:
        tables = [
            row[0]
            for row in lite.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name"
            )
        ]
        sqlite_columns = {
            table: [row[1] for row in lite.execute(f"PRAGMA table_info({table})")]
            for table in tables
        }
        sqlite_unique = {
            row[1]
            for table in tables
            for row in lite.execute(f"PRAGMA index_list({table})")
            if row[2] == 1 and row[3] == "c"
        }
    await (await open_database(postgres_url)).close()
    connection = await raw(postgres_url)
    try:
        rows = await connection.fetch(
            "SELECT table_name, column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
        )
        unique = await connection.fetch(
            "SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()"
            " AND indexdef LIKE 'CREATE UNIQUE INDEX%' AND indexname NOT LIKE '%pkey'"
            " AND indexname NOT LIKE '%_key'"
        )
    finally:
        await connection.close()
    postgres_columns: dict[str, list[str]] = {}
    for table, column in rows:
        postgres_columns.setdefault(table, []).append(column)
    assert postgres_columns == sqlite_columns
    assert {row[0] for row in unique} == sqlite_unique
    assert "takebacks_one_pending" in sqlite_unique  # the partial indexes are compared


async def test_ids_discord_ids_and_microseconds_come_back_as_they_went_in(
    postgres_url: str,
) -> None:
    db = await open_database(postgres_url)
    big = PlayerRow(SNOWFLAKE, "Snowflake")

    async def store(tx: Session) -> int:
        await tx.players.upsert(big, WHEN)
        await tx.players.upsert(PlayerRow(2, "Bob", is_bot=True), WHEN)
        return await tx.games.create(
            NewGame(
                SNOWFLAKE + 1,
                SNOWFLAKE + 2,
                SNOWFLAKE,
                2,
                Terms(timedelta(days=3), timedelta(hours=5, microseconds=7), "even", "27"),
                Handicap.EVEN.sfen,
                WHEN,
            )
        )

    try:
        game_id = await db.run(store)
        assert game_id == 1
        async with db.read() as tx:
            game = await tx.games.get(game_id)
        assert game is not None
        assert (game.guild_id, game.channel_id, game.sente.user_id) == (
            SNOWFLAKE + 1,
            SNOWFLAKE + 2,
            SNOWFLAKE,
        )
        assert game.gote.is_bot is True and game.sente.is_bot is False
        assert game.started_at == WHEN and game.terms.period == timedelta(hours=5, microseconds=7)
        with pytest.raises(Conflict):
            async with db.transaction() as tx:
                await tx.moves.insert(MoveRow(game_id, 1, "7g7f", SNOWFLAKE, WHEN))
                await tx.moves.insert(MoveRow(game_id, 1, "2g2f", SNOWFLAKE, WHEN))
        async with db.query() as q:
            assert await q.moves.usi_list(game_id) == []  # the whole transaction went
    finally:
        await db.close()


async def at_once(db: Database, work: Callable[[Session], Awaitable[bool]]) -> list[bool]:
    """`work` in CLAIMANTS transactions at the same moment, each on its own connection."""
    return list(await asyncio.gather(*(db.run(work) for _ in range(CLAIMANTS))))


async def test_claims_land_once_however_many_connections_race(postgres_url: str) -> None:
    db = await open_database(postgres_url)
    clock = FakeClock()
    service = GameService(db, clock=clock, events=RecordingEvents(), rng=random.Random(3))
    try:
        game = await start_game(service, time_control="1d")
        async with db.query() as q:
            row = await q.games.get(game.id)
        assert row is not None and row.deadline is not None
        due = row.deadline.due_at

        async def remind(tx: Session) -> bool:
            return await tx.deadlines.claim_reminder(game.id, due, WHEN)

        async def finish(tx: Session) -> bool:
            return await tx.games.finish(
                game.id, termination="resign", winner="gote", at=WHEN, expected_ply=0
            )

        async def announce(tx: Session) -> bool:
            return await tx.games.mark_end_announced(game.id, WHEN)

        assert sorted(await at_once(db, remind)) == [False] * (CLAIMANTS - 1) + [True]
        assert sorted(await at_once(db, finish)) == [False] * (CLAIMANTS - 1) + [True]
        assert sorted(await at_once(db, announce)) == [False] * (CLAIMANTS - 1) + [True]
    finally:
        await db.close()


async def test_two_rated_endings_of_one_player_at_once_keep_both(postgres_url: str) -> None:
    """Alice's two games end in the same instant: each ending reads her rating and writes
    it back, so without the per-player lock the second would overwrite the first."""
    db = await open_database(postgres_url)
    service = GameService(db, clock=FakeClock(), events=RecordingEvents(), rng=random.Random(4))
    try:
        for _ in range(6):
            one = await start_game(service, challenger=ALICE, opponent=BOB)
            two = await start_game(service, challenger=ALICE, opponent=CAROL)
            for game in (one, two):  # played by both: rated
                await play_all(service, game.id, ["7g7f", "3c3d"])
            await asyncio.gather(
                service.endings.resign(one.id, BOB.user_id),
                service.endings.resign(two.id, CAROL.user_id),
            )
        async with db.query() as q:
            stored = {row.user_id: row for row in await q.ratings.all(GUILD)}
        assert stored[ALICE.user_id].games == 12
        assert await service.ratings.recompute(GUILD) == stored
    finally:
        await db.close()


def test_placeholders_are_numbered_outside_quoted_text_only() -> None:
    sql = "SELECT '?', x FROM t WHERE a = ? AND b = 'it''s ?' AND c IN (?, ?)"
    assert to_postgres(sql) == (
        "SELECT '?', x FROM t WHERE a = $1 AND b = 'it''s ?' AND c IN ($2, $3)"
    )


async def test_a_failed_migration_leaves_the_previous_version_whole(postgres_url: str) -> None:
    broken = (
        MIGRATIONS[0],
        Migration(2, "half done", ("CREATE TABLE half (x BIGINT)", "SELECT no_such_column")),
    )
    connection = await raw(postgres_url)
    try:
        with pytest.raises(asyncpg.PostgresError):
            await migrate(connection, 0, migrations=broken)
        assert await current_version(connection) == 1
        assert await connection.fetchval("SELECT to_regclass('half')") is None  # DDL rolled back
    finally:
        await connection.close()


async def test_old_rows_come_through_every_later_migration(postgres_url: str) -> None:
    """Rows stored at version 1 get version 2's announcement, version 5's takeback policy,
    version 10's relaxed challenges and version 11's unrated default, as on SQLite."""
    connection = await raw(postgres_url)
    try:
        assert await migrate(connection, 0, migrations=MIGRATIONS[:1]) == 1
        await connection.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (1, 'a', 0), (2, 'b', 0)"
        )
        await connection.execute(
            "INSERT INTO games (guild_id, channel_id, sente_id, gote_id, handicap,"
            " start_sfen, bank_us, impasse_rule, status, termination, ply, sfen,"
            " sente_bank_us, gote_bank_us, turn_started_at, started_at, finished_at)"
            " VALUES (1, 1, 1, 2, 'even', 's', 0, '27', 'finished', 'resignation', 0, 's',"
            " 0, 0, 0, 0, 5)"
        )
        await connection.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color,"
            " bank_us, handicap, impasse_rule, status, created_at, expires_at)"
            " VALUES (1, 1, 1, 2, 'sente', 0, 'even', '27', 'open', 0, 9)"
        )
        assert await migrate(connection, 0) == LATEST_VERSION
        game = await connection.fetchrow(
            "SELECT end_announced_at, takebacks, rated FROM games WHERE id = 1"
        )
        assert tuple(game) == (5, "allowed", 0)
        challenge = await connection.fetchrow(
            "SELECT opponent_id, takebacks, rematch_of, rated FROM challenges WHERE id = 1"
        )
        assert tuple(challenge) == (2, "allowed", None, 0)
        await connection.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color,"
            " bank_us, handicap, impasse_rule, status, created_at, expires_at, rematch_of)"
            " VALUES (1, 1, 1, NULL, 'random', 0, 'even', '27', 'open', 0, 9, NULL),"
            " (1, 1, 2, 1, 'random', 0, 'even', '27', 'open', 0, 9, 1)"
        )
        assert await connection.fetchval("SELECT MAX(id) FROM challenges") == 3
        with pytest.raises(asyncpg.UniqueViolationError):  # one open rematch per game
            await connection.execute(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id,"
                " color, bank_us, handicap, impasse_rule, status, created_at, expires_at,"
                " rematch_of) VALUES (1, 1, 1, 2, 'random', 0, 'even', '27', 'open', 0, 9, 1)"
            )
        with pytest.raises(asyncpg.CheckViolationError):  # a rematch names its opponent
            await connection.execute(
                "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id,"
                " color, bank_us, handicap, impasse_rule, status, created_at, expires_at,"
                " rematch_of) VALUES (1, 1, 1, NULL, 'random', 0, 'even', '27', 'declined',"
                " 0, 9, 1)"
            )
    finally:
        await connection.close()
