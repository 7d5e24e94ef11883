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

# Tournaments (`bot.services.tournaments`): one row per tournament (where it is run, its
# format, the terms of its games, its scoring, when it starts and who may enter, its
# handicap table's text or NULL for even games, its state), one per entrant (the rating
# they were seeded by, their seed and group, when they withdrew), and one per scheduled
# game: its round, group, board and attempt (0 the pairing's first game; a knockout's
# later games and every replayed game count up), its players, the game once created, the
# game it replays (not a foreign key: the copy orders tables by their parents), its result
# mirrored in the ending's transaction and whether the tournament has acted on it (so each
# result is acted on once). A server's settings: the role that may run tournaments
# besides its managers, and how many tournament games may be under way at once.
V24 = (
    """CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        format TEXT NOT NULL
            CHECK (format IN ('round_robin', 'double_round_robin', 'knockout')),
        group_size INTEGER CHECK (group_size >= 2),
        match_games INTEGER CHECK (match_games IN (1, 2)),
        bank_us INTEGER NOT NULL CHECK (bank_us >= 0),
        period_us INTEGER CHECK (period_us > 0),
        handicap TEXT NOT NULL,
        impasse_rule TEXT NOT NULL CHECK (impasse_rule IN ('27', '24')),
        takebacks TEXT NOT NULL,
        rated INTEGER NOT NULL,
        win_points TEXT NOT NULL,
        draw_points TEXT NOT NULL,
        loss_points TEXT NOT NULL,
        start_at INTEGER NOT NULL,
        registration_closes_at INTEGER NOT NULL,
        max_players INTEGER NOT NULL CHECK (max_players >= 2),
        min_rating INTEGER,
        max_rating INTEGER,
        handicap_table TEXT,
        state TEXT NOT NULL
            CHECK (state IN ('registration', 'running', 'finished', 'cancelled')),
        organizer_id INTEGER NOT NULL REFERENCES players (user_id),
        message_id INTEGER,
        created_at INTEGER NOT NULL,
        started_at INTEGER,
        finished_at INTEGER
    )""",
    "CREATE INDEX tournaments_due ON tournaments (start_at) WHERE state = 'registration'",
    "CREATE INDEX tournaments_by_guild ON tournaments (guild_id, state)",
    """CREATE TABLE tournament_entrants (
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        user_id INTEGER NOT NULL REFERENCES players (user_id),
        joined_at INTEGER NOT NULL,
        rating REAL,
        seed INTEGER,
        group_number INTEGER,
        withdrawn_at INTEGER,
        PRIMARY KEY (tournament_id, user_id)
    )""",
    """CREATE TABLE tournament_games (
        id INTEGER PRIMARY KEY,
        tournament_id INTEGER NOT NULL REFERENCES tournaments (id),
        round INTEGER NOT NULL CHECK (round >= 1),
        group_number INTEGER NOT NULL,
        board INTEGER NOT NULL CHECK (board >= 1),
        attempt INTEGER NOT NULL CHECK (attempt >= 0),
        sente_id INTEGER NOT NULL REFERENCES players (user_id),
        gote_id INTEGER NOT NULL REFERENCES players (user_id),
        handicap TEXT NOT NULL,
        game_id INTEGER UNIQUE REFERENCES games (id),
        replay_of INTEGER,
        result TEXT CHECK (result IN ('sente', 'gote', 'draw', 'void')),
        settled INTEGER NOT NULL DEFAULT 0,
        UNIQUE (tournament_id, round, group_number, board, attempt)
    )""",
    "CREATE INDEX tournament_games_waiting ON tournament_games (tournament_id, id)"
    " WHERE game_id IS NULL",
    "CREATE INDEX tournament_games_unsettled ON tournament_games (tournament_id)"
    " WHERE result IS NOT NULL AND settled = 0",
    """CREATE TABLE tournament_settings (
        guild_id INTEGER PRIMARY KEY,
        organizer_role_id INTEGER,
        game_cap INTEGER CHECK (game_cap >= 1)
    )""",
)

# Team matches in a server: one row per match (its server and channel, the two teams'
# names, the terms of its games, who created it, its state, the announcement), one per
# player entered (their team, the rating they were lined up by, their board or NULL when
# they sit out), and one per game: its board and game number (1, 2), its players, the game
# once created, its result mirrored in the ending's transaction and whether the match has
# acted on it (so each result is acted on once, as a tournament's).
V25 = (
    """CREATE TABLE team_matches (
        id INTEGER PRIMARY KEY,
        guild_id INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        first_team TEXT NOT NULL,
        second_team TEXT NOT NULL,
        bank_us INTEGER NOT NULL CHECK (bank_us >= 0), period_us INTEGER CHECK (period_us > 0),
        handicap TEXT NOT NULL, impasse_rule TEXT NOT NULL CHECK (impasse_rule IN ('27', '24')),
        takebacks TEXT NOT NULL, rated INTEGER NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'finished')),
        organizer_id INTEGER NOT NULL REFERENCES players (user_id),
        message_id INTEGER,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
    )""",
    "CREATE INDEX team_matches_by_guild ON team_matches (guild_id, state)",
    """CREATE TABLE team_match_players (
        match_id INTEGER NOT NULL REFERENCES team_matches (id),
        user_id INTEGER NOT NULL REFERENCES players (user_id),
        side TEXT NOT NULL CHECK (side IN ('first', 'second')),
        rating REAL NOT NULL,
        board INTEGER CHECK (board >= 1),
        PRIMARY KEY (match_id, user_id)
    )""",
    """CREATE TABLE team_match_games (
        id INTEGER PRIMARY KEY,
        match_id INTEGER NOT NULL REFERENCES team_matches (id),
        board INTEGER NOT NULL CHECK (board >= 1),
        game_number INTEGER NOT NULL CHECK (game_number IN (1, 2)),
        sente_id INTEGER NOT NULL REFERENCES players (user_id),
        gote_id INTEGER NOT NULL REFERENCES players (user_id),
        game_id INTEGER UNIQUE REFERENCES games (id),
        result TEXT CHECK (result IN ('sente', 'gote', 'draw', 'void')),
        settled INTEGER NOT NULL DEFAULT 0,
        UNIQUE (match_id, board, game_number)
    )""",
    "CREATE INDEX team_match_games_unsettled ON team_match_games (match_id)"
    " WHERE result IS NOT NULL AND settled = 0",
)

# A game whose clock waits for its first post: an event's game (a tournament's, a team
# match's) is created at once with hundreds of others, and its thread opened later at
# Discord's pace, minutes or (at the cap on active threads) days after. Until its first
# post its players cannot see it, so its clock has not started: no deadline, no reminder,
# no move. The post starts it, claimed once by the conditional update of this flag. A flag
# on the row rather than the absence of a deadline row: the clock's state (the turn's
# start, the banks) is the row's, which every reader of the clock has at hand; an untimed
# game never has a deadline; and a vacation's end or a gift of time writes deadlines.
# The event games created before it that still wait for their thread (a big start, or a
# server at the cap) are marked waiting, their deadlines removed, so that the opener finds
# them and their clocks start with their first posts too.
V26 = (
    "ALTER TABLE games ADD COLUMN clock_waits INTEGER NOT NULL DEFAULT 0"
    " CHECK (clock_waits IN (0, 1))",
    "UPDATE games SET clock_waits = 1 WHERE status = 'active' AND thread_id IS NULL"
    " AND ply = 0 AND (id IN (SELECT game_id FROM tournament_games WHERE game_id IS NOT NULL)"
    " OR id IN (SELECT game_id FROM team_match_games WHERE game_id IS NOT NULL))",
    "DELETE FROM deadlines WHERE game_id IN (SELECT id FROM games WHERE clock_waits = 1)",
)
