"""Every migration, in order, with the description its row in `schema_migrations` keeps:
the one list both backends run. A new migration goes at the end, its SQL in the module of
its versions."""

from __future__ import annotations

from .migration import Migration
from .versions_1_to_9 import V1, V2, V3, V4, V5, V6, V7, V8, V9
from .versions_10_to_16 import V10, V10_POSTGRES, V11, V12, V13, V14, V15, V16
from .versions_17_on import V17, V18, V19, V20, V20_POSTGRES, V21, V22, V23, V24, V25, V26

MIGRATIONS: tuple[Migration, ...] = (
    Migration(1, "players, challenges, games, moves, deadlines", V1),
    Migration(2, "games.end_announced_at: endings posted in their thread", V2),
    Migration(3, "command_publications: the slash commands last published, per scope", V3),
    Migration(4, "server_settings: what each server chose (the language of posts)", V4),
    Migration(5, "takebacks: the policy of challenges and games, requests, move clocks", V5),
    Migration(6, "player_preferences: move confirmation and turn messages, per player", V6),
    Migration(7, "forecasts: conditional moves a player stored for the opponent's reply", V7),
    Migration(8, "notes: private notes on games, each member's own", V8),
    Migration(9, "vacations: players' clocks paused, within a yearly allowance", V9),
    Migration(
        10,
        "challenges: open to anyone (no opponent), and rematches of a finished game",
        V10,
        check="PRAGMA foreign_key_check(challenges)",
        postgres=V10_POSTGRES,
    ),
    Migration(11, "ratings: rated challenges and games, ratings per server, their history", V11),
    Migration(12, "computer games and analyses: the engine's seat and its evaluations", V12),
    Migration(13, "ending_claims: which process posts an ending, on a lease", V13),
    Migration(14, "budgets: when a challenge was declined, and the analyses under way", V14),
    Migration(15, "notifications (each turn, a digest, none), quiet hours, time zones", V15),
    Migration(16, "digests: the last daily digest claimed for each player", V16),
    Migration(17, "closed_inboxes: members whose direct messages Discord refused", V17),
    Migration(18, "lost_channels: channels and threads Discord says are gone", V18),
    Migration(19, "outbox: what the bot sends on its own, paced, each claimed once", V19),
    Migration(
        20,
        "rate_limits: Discord's global limit shared by every process (PostgreSQL)",
        V20,
        postgres=V20_POSTGRES,
    ),
    Migration(21, "problems: mate problems from finished games, the daily problem, answers", V21),
    Migration(22, "game_openings: each game's openings and castles, named once", V22),
    Migration(23, "explorer: the moves of each server's finished games, by position", V23),
    Migration(24, "tournaments: entrants, scheduled games and their results, settings", V24),
    Migration(25, "team matches: two teams' players, boards and games, and their results", V25),
    Migration(26, "games.clock_waits: an event's game whose clock starts with its first post", V26),
)
LATEST_VERSION = MIGRATIONS[-1].version
