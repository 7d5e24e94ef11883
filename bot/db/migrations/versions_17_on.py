"""The SQL of migrations from 17 on (`history` lists them): members whose direct messages
are closed, channels and threads that are gone, the queue of what the bot sends, the rate
limit shared by every process.
Released: never changed, only added to (see the package's docstring)."""

from __future__ import annotations

# Members who do not accept the bot's direct messages: Discord refused one (403, code
# 50007) at `closed_at`. Every refused message counts against the bot with Discord, so no
# process writes to them again, after a restart too, until the member changes their
# preferences (which deletes the row).
V17 = (
    """CREATE TABLE closed_inboxes (
        user_id INTEGER PRIMARY KEY,
        closed_at INTEGER NOT NULL
    )""",
)

# Channels and threads Discord says are gone (404, code 10003: a moderator deleted a game's
# thread): the bot posts there no more, from any process, after a restart too, and does
# not even ask Discord again.
V18 = (
    """CREATE TABLE lost_channels (
        channel_id INTEGER PRIMARY KEY,
        lost_at INTEGER NOT NULL
    )""",
)

# What the bot sends on its own, waiting for its turn (`bot.services.clock.outbox`): one
# row per pending send, its kind and subject (a game, a challenge, or a member with the
# rendered text of their direct message), its urgency (smaller goes first), its server
# (NULL: any process may send it) and the process that claimed it. A sent row is deleted.
V19 = (
    """CREATE TABLE outbox (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        urgency INTEGER NOT NULL,
        guild_id INTEGER,
        game_id INTEGER,
        challenge_id INTEGER,
        user_id INTEGER,
        content TEXT,
        silent INTEGER NOT NULL DEFAULT 0,
        queued_at INTEGER NOT NULL,
        claimed_by TEXT,
        claimed_at INTEGER
    )""",
    "CREATE INDEX outbox_unclaimed ON outbox (urgency, id) WHERE claimed_by IS NULL",
    "CREATE INDEX outbox_by_game ON outbox (game_id) WHERE game_id IS NOT NULL",
)

# Discord's global limit shared by every process of the bot: one row per bucket (a hash of
# the bot's token), its theoretical arrival time in microseconds of the database's clock
# (see `bot.db.limiters`). Used on PostgreSQL only, where it is UNLOGGED: the value is worth
# a second at most, so it is not written to the log (nor waited for at each commit) and a
# crash empties it, which only lets the next requests go at once. On SQLite it is unused.
V20 = (
    """CREATE TABLE rate_limits (
        bucket TEXT PRIMARY KEY,
        tat INTEGER NOT NULL
    )""",
)
V20_POSTGRES = (
    """CREATE UNLOGGED TABLE rate_limits (
        bucket TEXT PRIMARY KEY,
        tat BIGINT NOT NULL
    )""",
)

# Mate problems from the club's own games (`bot.services.problems`).
# problem_scans: one row per finished game to search for problems, queued in the
# transaction that ends it (or by an administrator's request for older games), claimed by
# one process on a lease, and marked scanned with the problems it found, so that every
# game is scanned once across restarts and processes.
# problems: a position of a game where the side to move mates in `plies` with a unique
# first move, its solution `line` (USI, space-separated); one per position.
# problem_opt_outs: players who do not want their games made into problems.
# problem_schedules: where and at what local hour a server's daily problem is posted, and
# the last day's moment claimed (so each day's post is claimed once).
# problem_posts: each problem posted (a problem is posted once), its message, and when its
# solution was revealed; problem_answers: each member's one counted answer to a post.
V21 = (
    """CREATE TABLE problem_scans (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        queued_at INTEGER NOT NULL,
        claimed_by TEXT,
        claimed_until INTEGER,
        scanned_at INTEGER,
        found INTEGER
    )""",
    "CREATE INDEX problem_scans_waiting ON problem_scans (queued_at) WHERE scanned_at IS NULL",
    "CREATE INDEX problem_scans_by_server ON problem_scans (guild_id, scanned_at)",
    """CREATE TABLE problems (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        sfen TEXT NOT NULL,
        plies INTEGER NOT NULL CHECK (plies >= 1),
        line TEXT NOT NULL,
        found_at INTEGER NOT NULL,
        UNIQUE (game_id, ply)
    )""",
    "CREATE INDEX problems_by_server ON problems (guild_id, id)",
    """CREATE TABLE problem_opt_outs (
        user_id INTEGER PRIMARY KEY,
        opted_out_at INTEGER NOT NULL
    )""",
    """CREATE TABLE problem_schedules (
        guild_id INTEGER PRIMARY KEY,
        channel_id INTEGER NOT NULL,
        hour INTEGER NOT NULL CHECK (hour >= 0 AND hour < 24),
        chosen_at INTEGER NOT NULL,
        posted_for INTEGER
    )""",
    """CREATE TABLE problem_posts (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        problem_id INTEGER NOT NULL UNIQUE REFERENCES problems (id),
        channel_id INTEGER NOT NULL,
        posted_for INTEGER NOT NULL,
        message_id INTEGER,
        revealed_at INTEGER
    )""",
    "CREATE INDEX problem_posts_by_server ON problem_posts (guild_id, posted_for)",
    """CREATE TABLE problem_answers (
        post_id INTEGER NOT NULL REFERENCES problem_posts (id),
        user_id INTEGER NOT NULL,
        answer TEXT NOT NULL,
        correct INTEGER NOT NULL,
        answered_at INTEGER NOT NULL,
        PRIMARY KEY (post_id, user_id)
    )""",
)
