"""Numbered, forward-only schema migrations, the version kept inside the database.

Each migration runs in its own transaction together with the row that records
it, so a crash leaves the database at one version or the next, never between.
A database whose version is newer than the newest migration here was written
by a newer bot; opening it would risk corrupting data the code does not
understand, so it is refused (`SchemaTooNewError`).

Times are stored as integer microseconds since the Unix epoch (UTC) and
durations as integer microseconds: exact for Python's `datetime`, sortable,
and the same on SQLite and PostgreSQL (BIGINT). The DDL is the one place where
SQLite-specific syntax (`WITHOUT ROWID`) is used; a PostgreSQL backend would
have its own list of migrations with the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

import aiosqlite

from .errors import MigrationCheckError, SchemaTooNewError


@dataclass(frozen=True, slots=True)
class Migration:
    version: int
    description: str
    statements: tuple[str, ...]
    #: A query run after the statements, in the same transaction: any row it returns is a
    #: problem the statements left (a table rebuild that broke a foreign key, say), and the
    #: migration is rolled back rather than recorded.
    check: str | None = None


_V1 = (
    """CREATE TABLE players (
        user_id INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        is_bot INTEGER NOT NULL DEFAULT 0 CHECK (is_bot IN (0, 1)),
        updated_at INTEGER NOT NULL
    )""",
    """CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        thread_id INTEGER,
        message_id INTEGER,
        sente_id INTEGER NOT NULL REFERENCES players (user_id),
        gote_id INTEGER NOT NULL REFERENCES players (user_id),
        handicap TEXT NOT NULL,
        start_sfen TEXT NOT NULL,
        bank_us INTEGER NOT NULL CHECK (bank_us >= 0),
        period_us INTEGER CHECK (period_us > 0),
        impasse_rule TEXT NOT NULL CHECK (impasse_rule IN ('27', '24')),
        status TEXT NOT NULL CHECK (status IN ('active', 'finished')),
        termination TEXT,
        winner TEXT CHECK (winner IN ('sente', 'gote')),
        ply INTEGER NOT NULL DEFAULT 0 CHECK (ply >= 0),
        sfen TEXT NOT NULL,
        sente_bank_us INTEGER NOT NULL,
        gote_bank_us INTEGER NOT NULL,
        turn_started_at INTEGER NOT NULL,
        count_proposed_by TEXT CHECK (count_proposed_by IN ('sente', 'gote')),
        started_at INTEGER NOT NULL,
        finished_at INTEGER,
        CHECK ((status = 'finished') = (termination IS NOT NULL))
    )""",
    "CREATE INDEX games_by_sente ON games (sente_id, status)",
    "CREATE INDEX games_by_gote ON games (gote_id, status)",
    "CREATE INDEX games_by_thread ON games (thread_id)",
    """CREATE TABLE challenges (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        challenger_id INTEGER NOT NULL REFERENCES players (user_id),
        opponent_id INTEGER NOT NULL REFERENCES players (user_id),
        color TEXT NOT NULL CHECK (color IN ('sente', 'gote', 'random')),
        bank_us INTEGER NOT NULL CHECK (bank_us >= 0),
        period_us INTEGER CHECK (period_us > 0),
        handicap TEXT NOT NULL,
        impasse_rule TEXT NOT NULL CHECK (impasse_rule IN ('27', '24')),
        start_sfen TEXT,
        status TEXT NOT NULL
            CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        message_id INTEGER,
        game_id INTEGER REFERENCES games (id),
        CHECK (challenger_id <> opponent_id)
    )""",
    "CREATE INDEX challenges_by_status ON challenges (status, expires_at)",
    "CREATE INDEX challenges_by_pair ON challenges (guild_id, challenger_id, opponent_id)",
    """CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL CHECK (ply >= 1),
        usi TEXT NOT NULL,
        player_id INTEGER NOT NULL REFERENCES players (user_id),
        played_at INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID""",
    """CREATE TABLE deadlines (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES players (user_id),
        due_at INTEGER NOT NULL,
        remind_at INTEGER NOT NULL,
        reminded_at INTEGER
    )""",
    "CREATE INDEX deadlines_by_due ON deadlines (due_at)",
    "CREATE INDEX deadlines_by_reminder ON deadlines (reminded_at, remind_at)",
)

# When a game's ending was posted in its thread. An ending is stored first and posted after;
# a crash in between leaves it NULL, and the next start-up posts it. Games that ended before
# this column existed count as announced.
_V2 = (
    "ALTER TABLE games ADD COLUMN end_announced_at INTEGER",
    "UPDATE games SET end_announced_at = COALESCE(finished_at, 0) WHERE status = 'finished'",
    "CREATE INDEX games_unannounced ON games (status, end_announced_at)",
)

# What the bot last published as its slash commands, per application and scope (guild 0 is
# the global scope; Discord ids are never 0), so a start publishes only when the commands
# changed, and can take back copies it left in a server that is no longer the dev server.
_V3 = (
    """CREATE TABLE command_publications (
        application_id INTEGER NOT NULL,
        guild_id INTEGER NOT NULL CHECK (guild_id >= 0),
        digest TEXT NOT NULL,
        command_count INTEGER NOT NULL CHECK (command_count >= 0),
        published_at INTEGER NOT NULL,
        PRIMARY KEY (application_id, guild_id)
    ) WITHOUT ROWID""",
)

# Settings a server's administrators chose (the language of the bot's posts; NULL follows
# the server's language in Discord). A server that never changed anything has no row.
_V4 = (
    """CREATE TABLE server_settings (
        guild_id INTEGER PRIMARY KEY,
        language TEXT CHECK (language IS NULL OR length(language) BETWEEN 2 AND 8)
    )""",
)

# Takebacks by consent. Each challenge and game says whether takebacks may be asked at all
# (agreed at the challenge; games before this migration allowed nothing else, and had no
# takebacks, so they get the default). `takebacks` keeps every request, answered or not:
# the moves an accepted one removed leave the move list but stay here, so the history
# says they were played and taken back. At most one request per game is pending (the
# partial unique index), whatever races. A move keeps both banks as they stood once it
# was played, which is the clock at the start of the next turn: what a takeback to that
# move restores (NULL for moves stored before this migration).
_V5 = (
    "ALTER TABLE challenges ADD COLUMN takebacks TEXT NOT NULL DEFAULT 'allowed'"
    " CHECK (takebacks IN ('allowed', 'never'))",
    "ALTER TABLE games ADD COLUMN takebacks TEXT NOT NULL DEFAULT 'allowed'"
    " CHECK (takebacks IN ('allowed', 'never'))",
    "ALTER TABLE moves ADD COLUMN sente_bank_us INTEGER",
    "ALTER TABLE moves ADD COLUMN gote_bank_us INTEGER",
    """CREATE TABLE takebacks (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        asked_by INTEGER NOT NULL REFERENCES players (user_id),
        ply INTEGER NOT NULL CHECK (ply >= 1),
        plies INTEGER NOT NULL CHECK (plies IN (1, 2) AND plies <= ply),
        moves TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'accepted', 'declined', 'lapsed')),
        requested_at INTEGER NOT NULL,
        answered_at INTEGER,
        CHECK ((status = 'pending') = (answered_at IS NULL))
    )""",
    "CREATE INDEX takebacks_by_game ON takebacks (game_id, id)",
    "CREATE UNIQUE INDEX takebacks_one_pending ON takebacks (game_id) WHERE status = 'pending'",
)

# What each player chose for themselves, in every server: whether `/move` asks them to confirm
# (the board after the move, then Confirm / Cancel), whether a direct message tells them their
# turn has come, and the language to write that message in (their Discord's language when
# they last ran `/preferences`: a direct message answers no interaction to take it from).
# A player who never chose has no row and gets the defaults (both off).
_V6 = (
    """CREATE TABLE player_preferences (
        user_id INTEGER PRIMARY KEY,
        confirm_moves INTEGER NOT NULL DEFAULT 0 CHECK (confirm_moves IN (0, 1)),
        turn_messages INTEGER NOT NULL DEFAULT 0 CHECK (turn_messages IN (0, 1)),
        language TEXT CHECK (language IS NULL OR length(language) BETWEEN 2 AND 8),
        updated_at INTEGER NOT NULL
    )""",
)

# Conditional moves (forecasts): lines a player stores while waiting for the opponent,
# "if they play X, I reply Y (then if Z, W ...)". `ply` is the game's ply the line starts
# from (its first move, the opponent's, would be move `ply + 1`): a line holds only in that
# position, so anything else that changes the game (a takeback, a move off the line) finds
# it stale. `moves` are USI separated by spaces, an even number of them: each of the
# opponent's moves with the reply. They live and die with the game's moves, in the same
# transactions, so a crash never leaves a reply half played.
_V7 = (
    """CREATE TABLE forecasts (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        player_id INTEGER NOT NULL REFERENCES players (user_id),
        ply INTEGER NOT NULL CHECK (ply >= 0),
        moves TEXT NOT NULL CHECK (length(moves) >= 9),
        created_at INTEGER NOT NULL
    )""",
    "CREATE INDEX forecasts_by_game ON forecasts (game_id, player_id, id)",
)

# Private notes on games: each member's own, on any game of the server (a spectator studying a
# game too), never shown to anyone else. `ply` is the game's ply when the note was written, so
# the author's own export writes it after that move. The author needs no row in `players`
# (a spectator never played); the notes go with their game.
_V8 = (
    """CREATE TABLE notes (
        id INTEGER PRIMARY KEY,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        author_id INTEGER NOT NULL,
        ply INTEGER NOT NULL CHECK (ply >= 0),
        body TEXT NOT NULL CHECK (length(body) BETWEEN 1 AND 1000),
        written_at INTEGER NOT NULL
    )""",
    "CREATE INDEX notes_by_author ON notes (game_id, author_id, id)",
)

# Vacations: a player's clocks stand still while one is under way. `ends_by` is when the
# year's allowance runs out (the vacation ends then by itself, also if the bot was down);
# `ended_at` is when it did end, NULL while it goes on. One open vacation per player
# (the partial unique index), whatever races. No row in `players` is needed.
_V9 = (
    """CREATE TABLE vacations (
        id INTEGER PRIMARY KEY,
        user_id INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        ends_by INTEGER NOT NULL CHECK (ends_by > started_at),
        ended_at INTEGER CHECK (ended_at IS NULL OR ended_at BETWEEN started_at AND ends_by)
    )""",
    "CREATE UNIQUE INDEX vacations_one_open ON vacations (user_id) WHERE ended_at IS NULL",
    "CREATE INDEX vacations_by_user ON vacations (user_id, started_at)",
)

# Open challenges and rematches. An open challenge names no opponent (anyone but its author
# may take it), so `opponent_id` may be NULL: SQLite cannot relax NOT NULL in place, so the
# table is rebuilt with every row, column, constraint and index it had. Nothing references
# `challenges`, so dropping the old table checks no foreign key; the copy is checked after.
# `rematch_of` is the finished game a challenge offers to play again; at most one open or
# accepted rematch per game (the partial unique index), whatever races: a declined,
# withdrawn or expired one leaves room for another.
_V10 = (
    """CREATE TABLE challenges_v10 (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        challenger_id INTEGER NOT NULL REFERENCES players (user_id),
        opponent_id INTEGER REFERENCES players (user_id),
        color TEXT NOT NULL CHECK (color IN ('sente', 'gote', 'random')),
        bank_us INTEGER NOT NULL CHECK (bank_us >= 0),
        period_us INTEGER CHECK (period_us > 0),
        handicap TEXT NOT NULL,
        impasse_rule TEXT NOT NULL CHECK (impasse_rule IN ('27', '24')),
        start_sfen TEXT,
        status TEXT NOT NULL
            CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        message_id INTEGER,
        game_id INTEGER REFERENCES games (id),
        takebacks TEXT NOT NULL DEFAULT 'allowed' CHECK (takebacks IN ('allowed', 'never')),
        rematch_of INTEGER REFERENCES games (id),
        CHECK (challenger_id <> opponent_id),
        CHECK (rematch_of IS NULL OR opponent_id IS NOT NULL)
    )""",
    "INSERT INTO challenges_v10 (id, guild_id, channel_id, challenger_id, opponent_id, color,"
    " bank_us, period_us, handicap, impasse_rule, start_sfen, status, created_at, expires_at,"
    " message_id, game_id, takebacks)"
    " SELECT id, guild_id, channel_id, challenger_id, opponent_id, color, bank_us, period_us,"
    " handicap, impasse_rule, start_sfen, status, created_at, expires_at, message_id, game_id,"
    " takebacks FROM challenges",
    "DROP TABLE challenges",
    "ALTER TABLE challenges_v10 RENAME TO challenges",
    "CREATE INDEX challenges_by_status ON challenges (status, expires_at)",
    "CREATE INDEX challenges_by_pair ON challenges (guild_id, challenger_id, opponent_id)",
    "CREATE UNIQUE INDEX challenges_one_rematch ON challenges (rematch_of)"
    " WHERE status IN ('open', 'accepted')",
)

# Ratings, per server. A challenge and its game say whether the game is rated (the
# challenger's choice, kept on the game when it is accepted; handicap games, set-up
# positions and bots never are). Challenges and games from before ratings existed were
# offered without that choice: they stay unrated. `ratings` holds each member's current
# rating in a server; `rating_history` keeps one row per rated game and player, in the
# order the games were rated (`id`), with the score and the rating before and after, so
# `ratings` can be rebuilt from it alone. The unique (game, player) pair means a game can
# never be rated twice, whatever races.
_V11 = (
    "ALTER TABLE challenges ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))",
    "ALTER TABLE games ADD COLUMN rated INTEGER NOT NULL DEFAULT 0 CHECK (rated IN (0, 1))",
    """CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL CHECK (deviation > 0),
        volatility REAL NOT NULL CHECK (volatility > 0),
        games INTEGER NOT NULL CHECK (games >= 0),
        rated_at INTEGER NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID""",
    "CREATE INDEX ratings_by_rating ON ratings (guild_id, rating)",
    """CREATE TABLE rating_history (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        opponent_id INTEGER NOT NULL,
        score REAL NOT NULL CHECK (score IN (0, 0.5, 1)),
        rated_at INTEGER NOT NULL,
        rating_before REAL NOT NULL,
        deviation_before REAL NOT NULL,
        volatility_before REAL NOT NULL,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        volatility REAL NOT NULL,
        UNIQUE (game_id, user_id),
        CHECK (user_id <> opponent_id)
    )""",
    "CREATE INDEX rating_history_by_player ON rating_history (guild_id, user_id, id)",
)

_V12 = (
    # The computer's seat in a game against the bot: which player it is and how strong.
    """CREATE TABLE computer_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        level INTEGER NOT NULL CHECK (level BETWEEN 1 AND 8)
    )""",
    # The engine's evaluation of each position of a finished game, from the view of the
    # side to move there (centipawns, or moves to mate), with its best move.
    """CREATE TABLE analyses (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL CHECK (ply >= 0),
        score_cp INTEGER,
        mate INTEGER,
        best_usi TEXT,
        PRIMARY KEY (game_id, ply)
    ) WITHOUT ROWID""",
)

# Who is posting a game's ending, until when. Several bot processes share one database:
# the process that ends a game claims the right to post its ending in the ending's own
# transaction, for a short lease; a process finding an ending still unposted takes it over
# only once the lease has run out (its holder died between storing and posting). One row
# per ending being or to be posted; the row of a posted ending is no longer read. Written
# in the SQL both backends read alike (BIGINT: microseconds since 1970 need 64 bits).
_V13 = (
    """CREATE TABLE ending_claims (
        game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        claimed_by TEXT NOT NULL,
        claimed_until BIGINT NOT NULL
    )""",
)

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "players, challenges, games, moves, deadlines", _V1),
    Migration(2, "games.end_announced_at: endings posted in their thread", _V2),
    Migration(3, "command_publications: the slash commands last published, per scope", _V3),
    Migration(4, "server_settings: what each server chose (the language of posts)", _V4),
    Migration(5, "takebacks: the policy of challenges and games, requests, move clocks", _V5),
    Migration(6, "player_preferences: move confirmation and turn messages, per player", _V6),
    Migration(7, "forecasts: conditional moves a player stored for the opponent's reply", _V7),
    Migration(8, "notes: private notes on games, each member's own", _V8),
    Migration(9, "vacations: players' clocks paused, within a yearly allowance", _V9),
    Migration(
        10,
        "challenges: open to anyone (no opponent), and rematches of a finished game",
        _V10,
        check="PRAGMA foreign_key_check(challenges)",
    ),
    Migration(11, "ratings: rated challenges and games, ratings per server, their history", _V11),
    Migration(12, "computer games and analyses: the engine's seat and its evaluations", _V12),
    Migration(13, "ending_claims: which process posts an ending, on a lease", _V13),
)
LATEST_VERSION = MIGRATIONS[-1].version

_VERSION_TABLE = """CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY,
    description TEXT NOT NULL,
    applied_at INTEGER NOT NULL
)"""


async def current_version(connection: aiosqlite.Connection) -> int:
    """The newest migration recorded in the database (0 for a fresh one)."""
    async with connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ) as cursor:
        if await cursor.fetchone() is None:
            return 0
    async with connection.execute("SELECT MAX(version) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


async def _check(connection: aiosqlite.Connection, migration: Migration) -> None:
    """Refuse to record `migration` if its check finds a problem."""
    if migration.check is None:
        return
    async with connection.execute(migration.check) as cursor:
        problems = list(await cursor.fetchall())
    if problems:
        raise MigrationCheckError(
            f"migration {migration.version} ({migration.description}) left problems in the "
            f"database, so it was not applied: {problems[:5]}"
        )


async def migrate(
    connection: aiosqlite.Connection,
    now_us: int,
    *,
    location: str = "the database",
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> int:
    """Bring the schema up to the newest migration; returns the version reached.

    The connection must be in autocommit mode (transactions are explicit here).
    """
    latest = migrations[-1].version if migrations else 0
    version = await current_version(connection)
    if version > latest:
        raise SchemaTooNewError(
            f"{location} has schema version {version}, but this version of the bot only "
            f"knows versions up to {latest}. Run a newer bot or point it at another file."
        )
    await connection.execute(_VERSION_TABLE)
    for migration in migrations:
        if migration.version <= version:
            continue
        await connection.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while this one waited for the lock.
            if await current_version(connection) >= migration.version:
                await connection.execute("ROLLBACK")
                version = migration.version
                continue
            for statement in migration.statements:
                await connection.execute(statement)
            await _check(connection, migration)
            await connection.execute(
                "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.description, now_us),
            )
        except BaseException:
            await connection.execute("ROLLBACK")
            raise
        await connection.execute("COMMIT")
        version = migration.version
    return version
