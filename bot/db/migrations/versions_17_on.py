"""The SQL of migrations from 17 on (`history` lists them): members whose direct messages
are closed, channels and threads that are gone, the queue of what the bot sends, the rate
limit shared by every process; the explorer's index of finished games.
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

# The explorer over a server's finished games (`bot.services.explorer`): one row per move
# played, keyed by the position it was played from (a 64-bit hash of board, hands and side
# to move, so transpositions meet), with the game, the ply before it and the result for
# the side that played it (1 won, 0 drawn, -1 lost); and the same counted per position and
# move in `explorer_tallies`, so that the start position of a club's 10,000 games is a few
# rows to read, not 10,000. `explorer_games` marks each finished game indexed, inserted in
# the transaction that writes its moves and counts, so a game is counted exactly once
# whichever process (the one that ended it, or a backfill) gets there first. The indexes:
# a move played from a position (to rebuild the position a menu follows), and the latest
# games through a position, each a range scan that never reads the table.
V23 = (
    """CREATE TABLE explorer_games (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id INTEGER NOT NULL,
        indexed_at INTEGER NOT NULL
    )""",
    """CREATE TABLE explorer_moves (
        guild_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        move TEXT NOT NULL,
        game_id INTEGER NOT NULL REFERENCES games (id),
        ply INTEGER NOT NULL,
        result INTEGER NOT NULL,
        PRIMARY KEY (game_id, ply)
    )""",
    "CREATE INDEX explorer_moves_here ON explorer_moves (guild_id, position, move)",
    "CREATE INDEX explorer_games_here ON explorer_moves (guild_id, position, game_id, ply)",
    """CREATE TABLE explorer_tallies (
        guild_id INTEGER NOT NULL,
        position INTEGER NOT NULL,
        move TEXT NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        draws INTEGER NOT NULL,
        PRIMARY KEY (guild_id, position, move)
    )""",
)
