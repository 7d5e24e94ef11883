"""`/help`: how to play, written for each language's players, in short sections with
headings (one embed field each) rather than one dense block."""

from __future__ import annotations

from bot.services import MAX_OPEN_CHALLENGES

from ...i18n import N_, gettext

HELP_TITLE = N_("Correspondence shogi: how to play")

#: The sections of `/help`, each a heading and a few lines; an embed field holds at most
#: 1,024 characters and a heading 256, and the tests keep every section within them.
HELP_SECTIONS = (
    (
        N_("Starting a game"),
        N_(
            "`/challenge @member` offers a game: side, time per move, handicap, impasse rule, "
            "rated or not. Without a member, anyone here may accept (at most {limit} such "
            "open challenges each). A rated challenge may also be accepted unrated.\n"
            "Each game gets its own thread; under its ending, Rematch offers it again.\n"
            "`/computer` plays the bot at a level from 1 to 8."
        ),
    ),
    (
        N_("Writing moves"),
        N_(
            "`/move` takes any notation; start typing and pick from the suggestions.\n"
            "• Western: `P-7f`, `Bx2b+`, `S*5e`, `G6i-5h`, `N-3c=` (= declines promotion)\n"
            "• Japanese: `７六歩`, `76歩`, `同　銀`, `５五角打`, `４八金右`, `２二角成`\n"
            "• USI or CSA: `7g7f`, `8h2b+`, `P*5e`, `+7776FU`\n"
            "If a move is ambiguous, the bot asks which one you mean."
        ),
    ),
    (
        N_("During a game"),
        N_(
            "`/board` shows the board (`style:text`: a text diagram a screen reader can "
            "read); `/games` lists your games.\n"
            "`/takeback` asks to take back a move; `/forecast` stores replies played for you "
            "(conditional premoves); "
            "`/note` and `/notes` keep private notes.\n"
            "`/resign` resigns; `/abort` ends a game before both players have moved; "
            "`/jishogi` shows the impasse count and declares.\n"
            "`/next` shows the game where your move is due soonest, in any server.\n"
            "`/vacation` pauses your clocks (14 days a year); `/preferences` sets move "
            "confirmation, direct messages (each turn or a daily digest), your time zone "
            "and quiet hours."
        ),
    ),
    (
        N_("After a game"),
        N_(
            "`/export` gives the record (KIF, KI2, their UTF-8 KIFU and KI2U, CSA, SFEN, "
            "USI, GIF) and a lishogi "
            "analysis link; `/replay` steps through it; `/analyse` has the engine mark "
            "mistakes.\n"
            "`/games status:finished` lists finished games. Rated games: `/rating`, "
            "`/leaderboard`, `/profile`. `/explorer` shows the moves this server's games "
            "played from a position, with their results."
        ),
    ),
    (
        N_("Rules in brief"),
        N_(
            "Checkmate wins; a player with no legal move loses. The bot refuses a pawn drop "
            "that gives checkmate, two unpromoted pawns of one side on a file, and a piece "
            "left where it could never move again.\n"
            "The same position four times is a draw (sennichite), unless one player gave "
            "check with every move: that player loses.\n"
            "Running out of time loses; a game whose player never made a first move is "
            "aborted instead."
        ),
    ),
    (
        N_("Tournaments"),
        N_(
            "`/tournament` creates a round robin or a knockout and posts it here with Join "
            "and Leave; its organizer starts it early with `/tournament_start` or cancels it "
            "with `/tournament_cancel`. `/tournament_withdraw` leaves one under way, and "
            "`/tournament_standings` shows its crosstable. Managers choose who may organize "
            "with `/tournament_settings`.\n"
            "`/team_match` sets two teams (a role or a list each) against each other: boards "
            "by rating, both colours on each, and a live scoreboard."
        ),
    ),
    (
        N_("For server managers"),
        N_(
            "`/language` sets the language of the bot's posts in this server; `/timezone` "
            "the time zone its records and digests are dated in.\n"
            "`/tsume` posts a daily mate problem from this server's games in the channel and "
            "at the hour you choose; members answer it privately."
        ),
    ),
)


def help_title(lang: str) -> str:
    """The heading of `/help`."""
    return gettext(lang, HELP_TITLE)


def help_sections(lang: str) -> list[tuple[str, str]]:
    """`/help`'s sections as (heading, text): written for each language's players, not
    translated word by word."""
    return [
        (gettext(lang, heading), gettext(lang, body).format(limit=MAX_OPEN_CHALLENGES))
        for heading, body in HELP_SECTIONS
    ]
