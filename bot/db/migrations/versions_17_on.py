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

# Openings and castles named in each game (`rules.openings`): one row per side and name,
# with the ply at which it became clear, stored by the move that made it clear (the key
# keeps it once, whichever process stores it). `named_games` lists the games named to
# their end, so the games finished before this table are named once, later, in batches.
V22 = (
    """CREATE TABLE game_openings (
        game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
        color INTEGER NOT NULL,
        name_id TEXT NOT NULL,
        ply INTEGER NOT NULL,
        PRIMARY KEY (game_id, color, name_id)
    )""",
    """CREATE TABLE named_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
        named_at INTEGER NOT NULL
    )""",
)
