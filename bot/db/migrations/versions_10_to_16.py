"""The SQL of migrations 10 to 16 (`history` lists them): open challenges and rematches,
ratings, the computer, ending claims, budgets, notifications and digests. Released:
never changed, only added to (see the package's docstring)."""

from __future__ import annotations

from .versions_1_to_9 import CHALLENGE_INDEXES, CHALLENGE_TERMS

# Open challenges and rematches. An open challenge names no opponent (anyone but its author
# may take it), so `opponent_id` may be NULL: SQLite cannot relax NOT NULL in place, so the
# table is rebuilt with every row, column, constraint and index it had. Nothing references
# `challenges`, so dropping the old table checks no foreign key; the copy is checked after.
# `rematch_of` is the finished game a challenge offers to play again; at most one open or
# accepted rematch per game (the partial unique index), whatever races: a declined,
# withdrawn or expired one leaves room for another.
V10 = (
    """CREATE TABLE challenges_v10 (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        challenger_id INTEGER NOT NULL REFERENCES players (user_id),
        opponent_id INTEGER REFERENCES players (user_id),"""
    + CHALLENGE_TERMS
    + """
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
    *CHALLENGE_INDEXES,
    "CREATE UNIQUE INDEX challenges_one_rematch ON challenges (rematch_of)"
    " WHERE status IN ('open', 'accepted')",
)

# PostgreSQL relaxes NOT NULL and adds the column and its check in place: the same
# columns, in the same order, with the same constraints and indexes as SQLite's rebuild.
V10_POSTGRES = (
    "ALTER TABLE challenges ALTER COLUMN opponent_id DROP NOT NULL",
    "ALTER TABLE challenges ADD COLUMN rematch_of BIGINT REFERENCES games (id)",
    "ALTER TABLE challenges ADD CHECK (rematch_of IS NULL OR opponent_id IS NOT NULL)",
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
V11 = (
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

V12 = (
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
V13 = (
    """CREATE TABLE ending_claims (
        game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        claimed_by TEXT NOT NULL,
        claimed_until BIGINT NOT NULL
    )""",
)

# Budgets. A decline keeps its time, so its author waits a while before challenging the
# same member again in that server (older declines have none: they no longer matter). An
# analysis running or waiting for the engine holds a claim, on a lease its process renews
# as it goes, so every process counts the analyses under way, and a process that died
# frees its members' claims when the lease runs out.
V14 = (
    "ALTER TABLE challenges ADD COLUMN declined_at INTEGER",
    """CREATE TABLE analysis_claims (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        user_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        claimed_until INTEGER NOT NULL
    )""",
    "CREATE INDEX analysis_claims_by_member ON analysis_claims (user_id, claimed_until)",
    "CREATE INDEX analysis_claims_by_server ON analysis_claims (guild_id, claimed_until)",
    # A member's notes over every game are counted before each new one.
    "CREATE INDEX notes_by_writer ON notes (author_id)",
)

# Notifications and time zones. A player's turn messages become one choice of three: a
# direct message at each turn, one digest a day at a local hour, or none; a digest is sent
# at `digest_hour` in the player's zone (NULL: not chosen), and direct messages in their
# quiet hours (local, from `quiet_from` up to `quiet_until`) arrive without a sound. A
# server's zone (NULL: the default of its language) dates its records and digests.
V15 = (
    "ALTER TABLE player_preferences ADD COLUMN notifications TEXT NOT NULL DEFAULT 'none'"
    " CHECK (notifications IN ('each', 'digest', 'none'))",
    "UPDATE player_preferences SET notifications = 'each' WHERE turn_messages = 1",
    "ALTER TABLE player_preferences DROP COLUMN turn_messages",
    "ALTER TABLE player_preferences ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 8"
    " CHECK (digest_hour BETWEEN 0 AND 23)",
    "ALTER TABLE player_preferences ADD COLUMN time_zone TEXT"
    " CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64)",
    "ALTER TABLE player_preferences ADD COLUMN quiet_from INTEGER"
    " CHECK (quiet_from IS NULL OR quiet_from BETWEEN 0 AND 23)",
    "ALTER TABLE player_preferences ADD COLUMN quiet_until INTEGER"
    " CHECK (quiet_until IS NULL OR quiet_until BETWEEN 0 AND 23)",
    "ALTER TABLE server_settings ADD COLUMN time_zone TEXT"
    " CHECK (time_zone IS NULL OR length(time_zone) BETWEEN 1 AND 64)",
)

# Daily digests: the moment (the player's local digest hour, in UTC microseconds) of the
# last digest claimed for each player. A digest is claimed here before it is sent, so it
# goes out once across restarts and processes.
V16 = (
    """CREATE TABLE digests (
        user_id INTEGER PRIMARY KEY,
        sent_for INTEGER NOT NULL
    )""",
)
