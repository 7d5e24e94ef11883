"""Migrations: a fresh database reaches the latest version with exactly the expected
schema, reopening changes nothing, a failed migration changes nothing, and a
database written by a newer bot is refused with a clear message."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

import aiosqlite
import pytest

from bot.db import (
    LATEST_VERSION,
    Conflict,
    Database,
    IntegrityError,
    NewGame,
    PlayerRow,
    RatingEntry,
    SchemaTooNewError,
    Terms,
    open_database,
)
from bot.db.errors import MigrationCheckError
from bot.db.migrations import (
    MIGRATIONS,
    VERSION_TABLE,
    Migration,
    current_version,
    migrate,
    postgres_statements,
)

#: A moment past every lease: any ending still unposted then is one a process would post.
FAR_FUTURE = datetime(2999, 1, 1, tzinfo=UTC)

EXPECTED_COLUMNS = {
    "schema_migrations": ["version", "description", "applied_at"],
    "players": ["user_id", "name", "is_bot", "updated_at"],
    "games": [
        "id", "guild_id", "channel_id", "thread_id", "message_id", "sente_id", "gote_id",
        "handicap", "start_sfen", "bank_us", "period_us", "impasse_rule", "status",
        "termination", "winner", "ply", "sfen", "sente_bank_us", "gote_bank_us",
        "turn_started_at", "count_proposed_by", "started_at", "finished_at", "end_announced_at",
        "takebacks", "rated", "clock_waits",
    ],
    "challenges": [
        "id", "guild_id", "channel_id", "challenger_id", "opponent_id", "color", "bank_us",
        "period_us", "handicap", "impasse_rule", "start_sfen", "status", "created_at",
        "expires_at", "message_id", "game_id", "takebacks", "rematch_of", "rated",
        "declined_at",
    ],
    "moves": [
        "game_id", "ply", "usi", "player_id", "played_at", "sente_bank_us", "gote_bank_us",
    ],
    "deadlines": ["game_id", "player_id", "due_at", "remind_at", "reminded_at"],
    "command_publications": [
        "application_id", "guild_id", "digest", "command_count", "published_at",
    ],
    "server_settings": ["guild_id", "language", "time_zone"],
    "player_preferences": [
        "user_id", "confirm_moves", "language", "updated_at", "notifications", "digest_hour",
        "time_zone", "quiet_from", "quiet_until",
    ],

    "takebacks": [
        "id", "game_id", "asked_by", "ply", "plies", "moves", "status", "requested_at",
        "answered_at",
    ],
    "forecasts": ["id", "game_id", "player_id", "ply", "moves", "created_at"],

    "notes": ["id", "game_id", "author_id", "ply", "body", "written_at"],
    "vacations": ["id", "user_id", "started_at", "ends_by", "ended_at"],
    "ratings": [
        "guild_id", "user_id", "rating", "deviation", "volatility", "games", "rated_at",
    ],
    "rating_history": [
        "id", "guild_id", "game_id", "user_id", "opponent_id", "score", "rated_at",
        "rating_before", "deviation_before", "volatility_before", "rating", "deviation",
        "volatility",
    ],
    "ending_claims": ["game_id", "claimed_by", "claimed_until"],
    "computer_games": ["game_id", "user_id", "level"],
    "analyses": ["game_id", "ply", "score_cp", "mate", "best_usi"],
    "analysis_claims": ["id", "guild_id", "user_id", "game_id", "claimed_until"],
    "digests": ["user_id", "sent_for"],
    "closed_inboxes": ["user_id", "closed_at"],
    "lost_channels": ["channel_id", "lost_at"],
    "outbox": [
        "id", "kind", "urgency", "guild_id", "game_id", "challenge_id", "user_id", "content",
        "silent", "queued_at", "claimed_by", "claimed_at",
    ],
    "rate_limits": ["bucket", "tat"],
    "problem_scans": [
        "game_id", "guild_id", "queued_at", "claimed_by", "claimed_until", "scanned_at", "found",
    ],
    "problems": ["id", "guild_id", "game_id", "ply", "sfen", "plies", "line", "found_at"],
    "problem_opt_outs": ["user_id", "opted_out_at"],
    "problem_schedules": ["guild_id", "channel_id", "hour", "chosen_at", "posted_for"],
    "problem_posts": [
        "id", "guild_id", "problem_id", "channel_id", "posted_for", "message_id", "revealed_at",
    ],
    "problem_answers": ["post_id", "user_id", "answer", "correct", "answered_at"],
    "game_openings": ["game_id", "color", "name_id", "ply"],
    "named_games": ["game_id", "named_at"],
    "explorer_games": ["game_id", "guild_id", "indexed_at"],
    "explorer_moves": ["guild_id", "position", "move", "game_id", "ply", "result"],
    "explorer_tallies": ["guild_id", "position", "move", "games", "wins", "draws"],
    "tournaments": [
        "id", "guild_id", "channel_id", "name", "format", "group_size", "match_games",
        "bank_us", "period_us", "handicap", "impasse_rule", "takebacks", "rated",
        "win_points", "draw_points", "loss_points", "start_at", "registration_closes_at",
        "max_players", "min_rating", "max_rating", "handicap_table", "state", "organizer_id",
        "message_id", "created_at", "started_at", "finished_at",
    ],
    "tournament_entrants": [
        "tournament_id", "user_id", "joined_at", "rating", "seed", "group_number",
        "withdrawn_at",
    ],
    "tournament_games": [
        "id", "tournament_id", "round", "group_number", "board", "attempt", "sente_id",
        "gote_id", "handicap", "game_id", "replay_of", "result", "settled",
    ],
    "tournament_settings": ["guild_id", "organizer_role_id", "game_cap"],
    "team_matches": [
        "id", "guild_id", "channel_id", "first_team", "second_team", "bank_us", "period_us",
        "handicap", "impasse_rule", "takebacks", "rated", "state", "organizer_id",
        "message_id", "created_at", "finished_at",
    ],
    "team_match_players": ["match_id", "user_id", "side", "rating", "board"],
    "team_match_games": [
        "id", "match_id", "board", "game_number", "sente_id", "gote_id", "game_id", "result",
        "settled",
    ],
}  # fmt: skip
EXPECTED_INDEXES = {
    "games_unannounced",
    "games_by_sente",
    "games_by_gote",
    "games_by_thread",
    "challenges_by_status",
    "challenges_by_pair",
    "challenges_one_rematch",
    "deadlines_by_due",
    "deadlines_by_reminder",
    "takebacks_by_game",
    "takebacks_one_pending",
    "forecasts_by_game",
    "notes_by_author",
    "vacations_one_open",
    "vacations_by_user",
    "ratings_by_rating",
    "rating_history_by_player",
    "analysis_claims_by_member",
    "analysis_claims_by_server",
    "notes_by_writer",
    "outbox_unclaimed",
    "outbox_by_game",
    "problem_scans_waiting",
    "problem_scans_by_server",
    "problems_by_server",
    "problem_posts_by_server",
    "explorer_moves_here",
    "explorer_games_here",
    "tournaments_due",
    "tournaments_by_guild",
    "tournament_games_waiting",
    "tournament_games_unsettled",
    "team_matches_by_guild",
    "team_match_games_unsettled",
}


def schema(path: Path) -> tuple[dict[str, list[str]], set[str]]:
    with sqlite3.connect(path) as connection:
        tables = [
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        ]
        columns = {
            table: [row[1] for row in connection.execute(f"PRAGMA table_info({table})")]
            for table in tables
        }
        indexes = {
            row[0]
            for row in connection.execute(
                "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"
            )
        }
    return columns, indexes


async def test_fresh_database_gets_latest_version_and_exact_schema(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "dir" / "shogi.db"
    db = await open_database(path)
    assert await db.schema_version() == LATEST_VERSION
    await db.close()
    columns, indexes = schema(path)
    assert columns == EXPECTED_COLUMNS
    assert indexes == EXPECTED_INDEXES
    with sqlite3.connect(path) as connection:
        versions = [row[0] for row in connection.execute("SELECT version FROM schema_migrations")]
        mode = connection.execute("PRAGMA journal_mode").fetchone()[0]
    assert versions == [migration.version for migration in MIGRATIONS]
    assert mode == "wal"


async def test_memory_database_is_migrated_too() -> None:
    db = await open_database(":memory:")
    try:
        assert await db.schema_version() == LATEST_VERSION
        async with db.read() as tx:
            assert await tx.games.count() == 0
    finally:
        await db.close()


async def test_reopening_keeps_version_and_data(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    async with db.transaction() as tx:
        from datetime import UTC, datetime

        from bot.db import PlayerRow

        await tx.players.upsert(PlayerRow(1, "Alice"), datetime.now(UTC))
    await db.close()
    db = await open_database(path)
    try:
        assert await db.schema_version() == LATEST_VERSION
        async with db.read() as tx:
            player = await tx.players.get(1)
        assert player is not None and player.name == "Alice"
    finally:
        await db.close()
    with sqlite3.connect(path) as connection:
        count = connection.execute("SELECT COUNT(*) FROM schema_migrations").fetchone()[0]
    assert count == len(MIGRATIONS)


async def test_newer_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    db = await open_database(path)
    await db.close()
    with sqlite3.connect(path) as connection:
        connection.execute(
            "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, 0)",
            (LATEST_VERSION + 1, "from the future"),
        )
    with pytest.raises(SchemaTooNewError) as caught:
        await open_database(path)
    message = str(caught.value)
    assert f"schema version {LATEST_VERSION + 1}" in message
    assert f"up to {LATEST_VERSION}" in message
    assert str(path) in message


async def test_failed_migration_leaves_the_previous_version(tmp_path: Path) -> None:
    path = tmp_path / "shogi.db"
    broken = (
        *MIGRATIONS,
        Migration(LATEST_VERSION + 1, "broken", ("CREATE TABLE extra (x INTEGER)", "NOT SQL")),
    )
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        assert await migrate(connection, 0) == LATEST_VERSION
        with pytest.raises(sqlite3.OperationalError):
            await migrate(connection, 0, migrations=broken)
        assert await current_version(connection) == LATEST_VERSION
        async with connection.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'extra'"
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None and row[0] == 0


async def test_foreign_keys_are_enforced(db: Database) -> None:
    from datetime import UTC, datetime

    from bot.db import MoveRow

    with pytest.raises(IntegrityError):
        async with db.transaction() as tx:
            await tx.moves.insert(MoveRow(999, 1, "7g7f", 1, datetime.now(UTC)))


def test_storage_and_service_do_not_import_discord() -> None:
    code = (
        "import sys, bot.db, bot.services, bot.services.clock.deadlines; "
        "bad = [m for m in sys.modules if m == 'discord' or m.startswith('discord.')]; "
        "assert not bad, bad"
    )
    root = Path(__file__).resolve().parents[2]
    subprocess.run([sys.executable, "-c", code], check=True, cwd=root)


async def test_version_2_counts_old_endings_as_announced(tmp_path: Path) -> None:
    """Games that ended before the bot noted announcements must not be posted again."""
    path = tmp_path / "shogi.db"
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        assert await migrate(connection, 0, migrations=MIGRATIONS[:1]) == 1
        await connection.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (1, 'a', 0), (2, 'b', 0)"
        )
        for game_id, status, termination, finished in (
            (1, "finished", "resignation", 5),
            (2, "active", None, None),
        ):
            await connection.execute(
                "INSERT INTO games (id, guild_id, channel_id, sente_id, gote_id, handicap,"
                " start_sfen, bank_us, impasse_rule, status, termination, ply, sfen,"
                " sente_bank_us, gote_bank_us, turn_started_at, started_at, finished_at)"
                " VALUES (?, 1, 1, 1, 2, 'even', 's', 0, '27', ?, ?, 0, 's', 0, 0, 0, 0, ?)",
                (game_id, status, termination, finished),
            )
    db = await open_database(path)
    try:
        assert await db.schema_version() == LATEST_VERSION
        async with db.query() as q:
            # The deadline task's question: no process, however late, would post it again.
            assert await q.ending_claims.unposted(FAR_FUTURE, "another process") == []
    finally:
        await db.close()
    with sqlite3.connect(path) as connection:
        rows = connection.execute("SELECT id, end_announced_at FROM games ORDER BY id").fetchall()
    assert rows == [(1, 5), (2, None)]


async def test_version_5_lets_earlier_games_allow_takebacks(tmp_path: Path) -> None:
    """Challenges and games from before the takeback policy allow takebacks (the default
    at the challenge), and their moves have no banks kept: nothing to restore from."""
    path = tmp_path / "shogi.db"
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        assert await migrate(connection, 0, migrations=MIGRATIONS[:4]) == 4
        await connection.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (1, 'a', 0), (2, 'b', 0)"
        )
        await connection.execute(
            "INSERT INTO games (id, guild_id, channel_id, sente_id, gote_id, handicap,"
            " start_sfen, bank_us, impasse_rule, status, ply, sfen, sente_bank_us,"
            " gote_bank_us, turn_started_at, started_at)"
            " VALUES (1, 1, 1, 1, 2, 'even', 's', 0, '27', 'active', 1, 's', 0, 0, 0, 0)"
        )
        await connection.execute(
            "INSERT INTO moves (game_id, ply, usi, player_id, played_at)"
            " VALUES (1, 1, '7g7f', 1, 0)"
        )
        await connection.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color,"
            " bank_us, handicap, impasse_rule, status, created_at, expires_at)"
            " VALUES (1, 1, 1, 2, 'random', 0, 'even', '27', 'open', 0, 1)"
        )
    db = await open_database(path)
    try:
        async with db.read() as tx:
            game = await tx.games.get(1)
            challenge = await tx.challenges.get(1)
            banks = await tx.moves.banks_after(1, 1)
            history = await tx.takebacks.for_game(1)
        assert game is not None and game.terms.takebacks == "allowed"
        assert challenge is not None and challenge.terms.takebacks == "allowed"
        assert banks is None and history == []
    finally:
        await db.close()


async def test_ratings_leave_earlier_challenges_and_games_unrated(tmp_path: Path) -> None:
    """Challenges and games from before ratings were offered without the choice: they
    stay unrated, and a game of theirs that ends later changes nobody's rating."""
    (ratings,) = [m for m in MIGRATIONS if m.description.startswith("ratings:")]
    path = tmp_path / "shogi.db"
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        before = ratings.version - 1
        assert await migrate(connection, 0, migrations=MIGRATIONS[:before]) == before
        await connection.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (1, 'a', 0), (2, 'b', 0)"
        )
        await connection.execute(
            "INSERT INTO games (id, guild_id, channel_id, sente_id, gote_id, handicap,"
            " start_sfen, bank_us, impasse_rule, status, ply, sfen, sente_bank_us,"
            " gote_bank_us, turn_started_at, started_at)"
            " VALUES (1, 1, 1, 1, 2, 'even', 's', 0, '27', 'active', 0, 's', 0, 0, 0, 0)"
        )
        await connection.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, opponent_id, color,"
            " bank_us, handicap, impasse_rule, status, created_at, expires_at)"
            " VALUES (1, 1, 1, 2, 'random', 0, 'even', '27', 'open', 0, 1)"
        )
    db = await open_database(path)
    try:
        async with db.read() as tx:
            game = await tx.games.get(1)
            challenge = await tx.challenges.get(1)
        assert game is not None and not game.terms.rated
        assert challenge is not None and not challenge.terms.rated
    finally:
        await db.close()


async def test_a_game_is_rated_once_per_player_whatever_races(db: Database) -> None:
    """The history refuses a second entry for the same game and player."""
    now = datetime(2025, 1, 1, tzinfo=UTC)
    entry = RatingEntry(1, 0, 1, 2, 1.0, now, 1500, 350, 0.06, 1662, 290, 0.06)
    async with db.transaction() as tx:
        await tx.players.upsert(PlayerRow(1, "a"), now)
        await tx.players.upsert(PlayerRow(2, "b"), now)
        game_id = await tx.games.create(
            NewGame(1, 1, 1, 2, Terms(timedelta(), None, "even", "27", rated=True), "s", now)
        )
        await tx.ratings.record(replace(entry, game_id=game_id))
    with pytest.raises(Conflict):
        async with db.transaction() as tx:
            await tx.ratings.record(replace(entry, game_id=game_id, rating=1700))
    async with db.read() as tx:
        assert [e.rating for e in await tx.ratings.of_game(game_id)] == [1662]


async def test_one_pending_takeback_per_game_whatever_races(db: Database) -> None:
    """The partial unique index: a second pending request of one game is a `Conflict`,
    and once the first is answered another may be asked."""
    from datetime import UTC, datetime, timedelta

    from bot.db import Conflict, NewGame, NewTakeback, PlayerRow, Terms

    now = datetime.now(UTC)
    async with db.transaction() as tx:
        for user_id in (1, 2):
            await tx.players.upsert(PlayerRow(user_id, str(user_id)), now)
        game_id = await tx.games.create(
            NewGame(1, 1, 1, 2, Terms(timedelta(), None, "even", "27"), "s", now)
        )
    ask = NewTakeback(game_id, 1, 1, 1, ("7g7f",), now)
    async with db.transaction() as tx:
        first = await tx.takebacks.create(ask)
    with pytest.raises(Conflict):
        async with db.transaction() as tx:
            await tx.takebacks.create(ask)
    async with db.transaction() as tx:
        assert await tx.takebacks.answer(first, "declined", now)
        assert not await tx.takebacks.answer(first, "accepted", now)
        second = await tx.takebacks.create(ask)
        assert await tx.takebacks.lapse(game_id, now) == 1
        history = await tx.takebacks.for_game(game_id)
    assert [(t.id, t.status) for t in history] == [(first, "declined"), (second, "lapsed")]
    assert history[0].moves == ("7g7f",) and history[0].answered_at == now


def _version_of(description: str) -> int:
    """The number of the migration whose description starts with `description`."""
    [version] = [m.version for m in MIGRATIONS if m.description.startswith(description)]
    return version


def _table_sql(connection: sqlite3.Connection) -> dict[str, str]:
    return dict(
        connection.execute(
            "SELECT name, sql FROM sqlite_master WHERE tbl_name = 'challenges' AND sql IS NOT NULL"
        ).fetchall()
    )


async def test_open_challenges_migration_keeps_every_row_and_constraint(tmp_path: Path) -> None:
    """The rebuild that lets a challenge name no opponent keeps the rows of a database one
    version older (ids, settings, answers, links to games), the constraints and indexes,
    and every foreign key; new rows may then leave the opponent out."""
    version = _version_of("challenges: open to anyone")
    path = tmp_path / "shogi.db"
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        await connection.execute("PRAGMA foreign_keys = ON")
        assert await migrate(connection, 0, migrations=MIGRATIONS[: version - 1]) == version - 1
        await connection.execute(
            "INSERT INTO players (user_id, name, updated_at) VALUES (1, 'a', 0), (2, 'b', 0)"
        )
        await connection.execute(
            "INSERT INTO games (id, guild_id, channel_id, sente_id, gote_id, handicap,"
            " start_sfen, bank_us, impasse_rule, status, ply, sfen, sente_bank_us,"
            " gote_bank_us, turn_started_at, started_at)"
            " VALUES (7, 1, 1, 1, 2, 'even', 's', 0, '27', 'active', 0, 's', 0, 0, 0, 0)"
        )
        await connection.execute(
            "INSERT INTO challenges (id, guild_id, channel_id, challenger_id, opponent_id,"
            " color, bank_us, period_us, handicap, impasse_rule, start_sfen, status,"
            " created_at, expires_at, message_id, game_id, takebacks) VALUES"
            " (3, 1, 5, 1, 2, 'sente', 0, 60, 'lance', '24', NULL, 'accepted', 10, 20, 99, 7,"
            " 'never'),"
            " (9, 1, 5, 2, 1, 'random', 5, NULL, 'even', '27', 'sfen', 'open', 11, 21, NULL,"
            " NULL, 'allowed')"
        )
        async with connection.execute("SELECT * FROM challenges ORDER BY id") as cursor:
            before = list(await cursor.fetchall())
    with sqlite3.connect(path) as connection:
        old = _table_sql(connection)
    db = await open_database(path)
    try:
        assert await db.schema_version() == LATEST_VERSION
        async with db.read() as tx:
            kept = await tx.challenges.get(3)
        assert kept is not None and kept.opponent is not None and kept.opponent.name == "b"
        assert (kept.game_id, kept.rematch_of, kept.terms.takebacks) == (7, None, "never")
    finally:
        await db.close()
    with sqlite3.connect(path) as connection:
        after = connection.execute("SELECT * FROM challenges ORDER BY id").fetchall()
        assert [row[:17] for row in after] == before
        assert [row[17] for row in after] == [None, None]  # no rematches before
        assert connection.execute("PRAGMA foreign_key_check").fetchall() == []
        new = _table_sql(connection)
        columns = connection.execute("PRAGMA table_info(challenges)").fetchall()
        references = connection.execute("PRAGMA foreign_key_list(challenges)").fetchall()
        connection.execute("PRAGMA foreign_keys = ON")
        connection.execute(
            "INSERT INTO challenges (guild_id, channel_id, challenger_id, color, bank_us,"
            " handicap, impasse_rule, status, created_at, expires_at)"
            " VALUES (1, 5, 1, 'random', 0, 'even', '27', 'open', 0, 1)"
        )
        for broken in (
            "UPDATE challenges SET opponent_id = challenger_id WHERE id = 3",  # yourself
            "UPDATE challenges SET status = 'lost' WHERE id = 3",
            "UPDATE challenges SET opponent_id = 555 WHERE id = 3",  # no such player
            "UPDATE challenges SET game_id = 555 WHERE id = 3",  # no such game
        ):
            with pytest.raises(sqlite3.IntegrityError):
                connection.execute(broken)
    assert {row[1]: row[3] for row in columns}["opponent_id"] == 0  # NULL allowed now
    assert {row[1]: row[3] for row in columns}["challenger_id"] == 1
    assert sorted((row[2], row[3]) for row in references) == [
        ("games", "game_id"),
        ("games", "rematch_of"),
        ("players", "challenger_id"),
        ("players", "opponent_id"),
    ]
    assert set(old) - {"challenges"} <= set(new)  # every index is back


async def test_a_migration_whose_check_finds_problems_is_not_applied(tmp_path: Path) -> None:
    """A migration that leaves a broken foreign key is rolled back, not recorded (this
    connection has foreign keys off, as a table rebuild may need them)."""
    path = tmp_path / "shogi.db"
    broken = (
        *MIGRATIONS,
        Migration(
            LATEST_VERSION + 1,
            "orphan",
            (
                "CREATE TABLE extra (x INTEGER REFERENCES players (user_id))",
                "INSERT INTO extra VALUES (404)",
            ),
            check="PRAGMA foreign_key_check",
        ),
    )
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        assert await migrate(connection, 0) == LATEST_VERSION
        with pytest.raises(MigrationCheckError, match="orphan"):
            await migrate(connection, 0, migrations=broken)
        assert await current_version(connection) == LATEST_VERSION
        async with connection.execute(
            "SELECT COUNT(*) FROM sqlite_master WHERE name = 'extra'"
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None and row[0] == 0


async def test_version_15_keeps_each_players_turn_messages(tmp_path: Path) -> None:
    """A player who had turn messages on keeps a message at each turn; one who had them off
    gets none, and both keep their other choices."""
    path = tmp_path / "shogi.db"
    async with aiosqlite.connect(path, isolation_level=None) as connection:
        assert await migrate(connection, 0, migrations=MIGRATIONS[:14]) == 14
        await connection.execute(
            "INSERT INTO player_preferences (user_id, confirm_moves, turn_messages, language,"
            " updated_at) VALUES (1, 1, 1, 'ja', 0), (2, 0, 0, NULL, 0)"
        )
    db = await open_database(path)
    try:
        async with db.query() as q:
            on, off = await q.preferences.get(1), await q.preferences.get(2)
    finally:
        await db.close()
    assert (on.notifications, on.confirm_moves, on.language) == ("each", True, "ja")
    assert (off.notifications, off.confirm_moves, off.quiet_from) == ("none", False, None)


#: The digest of each released migration as the code states it, on both backends: a
#: database migrated by one version of the code must be the same as one migrated by
#: another, so a migration, once released, never changes. A new migration adds its line.
APPLIED_DIGESTS = {
    1: "5149d5ce0ea811d9",
    2: "4d4e9a08cd3ac383",
    3: "353c0577d3f950b2",
    4: "3fada2ec4f001af0",
    5: "88dac58971aa58f9",
    6: "0f849ff4fb8279cc",
    7: "cd529817900fbed4",
    8: "8fba4583e5aec1d7",
    9: "68e2fa8c360cab3e",
    10: "0c5c09b67df97961",
    11: "fff586036374c607",
    12: "1a43e4b291b2b1f6",
    13: "0ec30455f4c6a640",
    14: "a671cf5c77b58f55",
    15: "cfd0a0e760dda832",
    16: "3212f08a69c1523f",
    17: "b170fe062ac538b6",
    18: "a474f172f1a736d3",
    19: "169bfc68c0dd03c1",
    20: "247902fda6c2faf9",
    21: "5e06625fc2fd53ef",
    22: "535aa90c30f3d9f4",
    23: "90e4f9f5882a135b",
    24: "e92052735635724f",
    25: "b2640a5c76712dee",
    26: "32b9f7f80f0eda6c",
}


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def test_released_migrations_never_change() -> None:
    """Every statement, description and check of a released migration, on SQLite and on
    PostgreSQL, is the text it was released with (SQLite even keeps a table's text)."""
    stated = {
        migration.version: _digest(
            json.dumps(
                [
                    migration.version,
                    migration.description,
                    list(migration.statements),
                    migration.check,
                    list(postgres_statements(migration)),
                    migration.postgres_check,
                ]
            )
        )
        for migration in MIGRATIONS
    }
    assert stated == APPLIED_DIGESTS
    assert _digest(VERSION_TABLE) == "8784566bb053e8ea"
