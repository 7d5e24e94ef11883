"""The SQL of migrations 1 to 9 (`history` lists them): the first tables, then takebacks,
preferences, forecasts, notes and vacations. Released: never changed, only added to
(see the package's docstring)."""

from __future__ import annotations

#: The columns of a challenge from its colour to its game, as version 1 made them: version 10
#: rebuilds the table with them word for word (SQLite keeps the text a table was made with).
CHALLENGE_TERMS = """
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
        game_id INTEGER REFERENCES games (id),"""
#: The indexes of challenges, made with the table and made again once version 10 rebuilt it.
CHALLENGE_INDEXES = (
    "CREATE INDEX challenges_by_status ON challenges (status, expires_at)",
    "CREATE INDEX challenges_by_pair ON challenges (guild_id, challenger_id, opponent_id)",
)

V1 = (
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
        opponent_id INTEGER NOT NULL REFERENCES players (user_id),"""
    + CHALLENGE_TERMS
    + """
        CHECK (challenger_id <> opponent_id)
    )""",
    *CHALLENGE_INDEXES,
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
V2 = (
    "ALTER TABLE games ADD COLUMN end_announced_at INTEGER",
    "UPDATE games SET end_announced_at = COALESCE(finished_at, 0) WHERE status = 'finished'",
    "CREATE INDEX games_unannounced ON games (status, end_announced_at)",
)

# What the bot last published as its slash commands, per application and scope (guild 0 is
# the global scope; Discord ids are never 0), so a start publishes only when the commands
# changed, and can take back copies it left in a server that is no longer the dev server.
V3 = (
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
V4 = (
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
V5 = (
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
V6 = (
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
V7 = (
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
V8 = (
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
V9 = (
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
