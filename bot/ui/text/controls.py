"""What Discord shows around the messages: button labels, and the English names and
descriptions of commands, options and choices that discord.py publishes."""

from __future__ import annotations

from bot.services import (
    MAX_RECORD_BYTES,
    ImpasseRule,
    Notifications,
    TakebackPolicy,
)
from rules import Color, Handicap

from ..i18n import N_, gettext

# ---------------------------------------------------------------- buttons

#: Keyed like the buttons' ids: their prefix, and the action where one prefix has several.
BUTTON_LABELS = {
    "ch:accept": N_("Accept"),
    "ch:accept_unrated": N_("Accept unrated"),
    "ch:decline": N_("Decline"),
    "ch:cancel": N_("Cancel"),
    "rm": N_("Rematch"),
    "rs": N_("Yes, resign"),
    "pr:promote": N_("Promote"),
    "pr:keep": N_("Don't promote"),
    "js:propose": N_("Propose count"),
    "js:accept": N_("Accept count"),
    "js:declare": N_("Declare impasse"),
    "gt": N_("Give more time"),
    "cf:play": N_("Confirm move"),
    "cf:cancel": N_("Cancel move"),
    "tb:accept": N_("Accept takeback"),
    "tb:decline": N_("Decline takeback"),
    "cp": N_("Retry"),
    "ca": N_("Play again"),
    "nx": N_("Next"),
    "mv": N_("Move"),
    "pb": N_("Back"),
    "tz": N_("Answer"),
    "tj:join": N_("Join"),
    "tj:leave": N_("Leave"),
}


def button_label(lang: str, key: str) -> str:
    """A button's label in the reader's language (`key` as in `BUTTON_LABELS`)."""
    return gettext(lang, BUTTON_LABELS[key])


# ---------------------------------------------------------------- commands and options
# These English texts are what discord.py publishes; the command translator (`i18n`)
# gives Discord their Japanese from the `commands.po` catalog.

COMMANDS = {
    "challenge": "Challenge a member to a shogi game, or anyone here if you name no one.",
    "move": "Play a move: P-7f, ７六歩, 7g7f, ...",
    "board": "Show a game's board, or any position or record.",
    "games": "List a member's games: active, finished or all.",
    "resign": "Resign a game (asks to confirm).",
    "abort": "Abort a game before both players have moved.",
    "jishogi": "Impasse count, proposals and declaration.",
    "export": "Download a game record and an analysis link.",
    "help": "How to play: notations, commands, rules.",
    "language": "Set the language of the bot's posts in this server.",
    "preferences": "Your own settings: confirm moves, direct messages, time zone, quiet hours.",
    "timezone": "Set the time zone of this server's records and digests.",
    "takeback": "Ask your opponent to take back your last move.",
    "forecast": "Forecasts: replies played for you if your opponent plays what you expect.",
    "note": "Write a private note on a game, at its current move.",
    "notes": "List or delete your private notes on a game.",
    "vacation": "Pause your clocks while you are away (14 days a year).",
    "replay": "Step through a game's moves on its board, privately.",
    "rating": "A member's rating in this server.",
    "leaderboard": "The best ratings in this server.",
    "profile": "A member's games, rating history and favourite openings.",
    "computer": "Play the computer at a level from 1 (beginner) to 8 (strongest).",
    "analyse": "Analyse a finished game with the engine: mistakes, best moves, a chart.",
    "next": "Your game to play first: the nearest deadline, with its board and a Next button.",
    "explorer": "The moves played from a position in this server's finished games, with results.",
    "tsume": "The daily mate problem from this server's games: see it, answer it, the table.",
    "tournament": "Create a tournament here: round robin or knockout, announced with Join.",
    "tournament_start": "Start a tournament now, before its time (organizers).",
    "tournament_cancel": "Cancel a tournament that has not started (organizers).",
    "tournament_withdraw": "Withdraw from a tournament under way (your games left are lost).",
    "tournament_standings": "A tournament's standings: the crosstable, with its text.",
    "tournament_settings": "Who may run tournaments here, and how many of their games at once.",
    "team_match": "Set two teams against each other here: boards by rating, both colours each.",
}
OPTIONS = {
    "opponent": "The member you want to play (leave it out: anyone here may accept)",
    "color": "Your colour (default: random)",
    "time": "Time per move: a preset, or e.g. 3d, 12h, 7d+1d (bank + per move)",
    "challenge_color": (
        "Your side (default: random); with a handicap Gote gives it, and by default you do"
    ),
    "handicap": (
        "Handicap (default: even); the giver, Uwate, moves first: you unless you pick Sente"
    ),
    "impasse": "How an impasse (jishogi) is settled (default: 27-point declaration)",
    "move": (
        "Your move: Western (P-7f), Japanese (７六歩) or USI (7g7f); leave out to pick by tapping"
    ),
    "game": (
        "A game id (pick from the list); default: this thread's game or the game where it is "
        "your move"
    ),
    "finished_game": "A game id, finished games too; default: this thread's game or your game",
    "perspective": "Whose side faces you (default: yours)",
    "style": "A picture, or a text diagram a screen reader can read (default: picture)",
    "member": "Whose games (default: yours)",
    "format": "Record format",
    "public": "Post it for everyone (default: yes for the game's players, no for others)",
    "language": "The language of posts (default: the server's language in Discord)",
    "confirm": "Show the board after your move and ask before playing it (default: off)",
    "notifications": "Direct messages: at each turn, a daily digest, or none (default: none)",
    "digest_hour": "The hour of your daily digest, 0-23 in your time zone (default: 8)",
    "time_zone": "Your time zone, e.g. Asia/Tokyo (default: the server's)",
    "quiet_hours": "Hours when messages arrive silently, e.g. 22-7; off to remove them",
    "server_zone": "A time zone, e.g. Asia/Tokyo; leave it out to see the current one",
    "takebacks": "May a player ask to take back a move (default: allowed)",
    "line": "Their move, then your reply (more pairs may follow), e.g. 3c3d 2g2f",
    "clear": "Clear your forecasts in this game first (default: no)",
    "note_text": "Your note; only you will see it (up to 1,000 characters)",
    "delete": "The number of a note to delete, or all (all your notes on this game)",
    "action": "Start or end your vacation, or see it (default: see it)",
    "status": "Which games (default: active)",
    "from_move": "The move to begin at (default: the start)",
    "rated": (
        "Count the game for ratings if your opponent agrees (default: yes); handicap games never"
        " count"
    ),
    "rated_member": "Whose (default: yours)",
    "show_all": "Post it for everyone (default: only you see it)",
    "position": "An SFEN or a pasted record (KIF, KI2, CSA, USI) to show instead of a game",
    "record": (
        "A record file (.kif, .kifu, .ki2, .ki2u, .csa, .usi), "
        f"up to {MAX_RECORD_BYTES // 1024} KiB"
    ),
    "at_move": "Show the position after this move (default: the last)",
    "start": "Start from this position: an SFEN, or a record (then see start_move)",
    "start_record": (
        f"A record file to start from (then see start_move), up to {MAX_RECORD_BYTES // 1024} KiB"
    ),
    "start_move": "With a record as start: the position after this move (default: the last)",
    "level": "How strong the computer plays, 1 (beginner) to 8 (strongest)",
    "computer_time": "Your time per move (default: unlimited); the computer answers at once",
    "explorer_game": "A game to explore from, at at_move (default: the usual start)",
    "explorer_position": "An SFEN or a pasted record (KIF, KI2, CSA, USI) to explore from",
    "problems": "Let your finished games become mate problems of their server (default: on)",
    "tsume_action": "What to do (default: see today's problem)",
    "tsume_move": "Your first move: Western (R*5b), Japanese (５二飛) or USI; privately judged",
    "channel": "The channel of the daily problem (default: this one)",
    "tsume_hour": "The hour of the daily problem, 0-23 in the server's time zone",
    "name": "The tournament's name (up to 100 characters)",
    "tournament_format": "Round robin (once or twice each) or knockout",
    "tournament_start": "When it starts, in the server's time zone, e.g. 2026-12-01 20:00",
    "registration_closes": "When registration closes, same form (default: at the start)",
    "max_players": "The most players it takes (default: 32)",
    "group_size": "A round robin's largest group (default: one group; needed above 40)",
    "pairing_games": "A knockout's games a pairing, 1 or 2 (default: 1)",
    "min_rating": "The lowest rating that may enter (default: any)",
    "max_rating": "The highest rating that may enter (default: any)",
    "tournament_rated": "Count its games for ratings (default: yes; never with handicaps)",
    "handicaps": "Play handicap games by rating difference (round robins; default: no)",
    "tournament_takebacks": "May a player ask to take back a move (default: never)",
    "tournament": "The tournament's number (default: this server's only one)",
    "organizer_role": "The role whose members may create and run tournaments",
    "remove_role": "Take the organizer role away: only managers run tournaments",
    "game_cap": "Tournament games under way at once, at most 900 (0: the default, 500)",
    "first_team_name": "The first team's name (up to 100 characters)",
    "second_team_name": "The second team's name (up to 100 characters)",
    "first_role": "The first team: everyone with this role (or use first_members)",
    "second_role": "The second team: everyone with this role (or use second_members)",
    "first_members": "The first team: its members mentioned with @ (or use first_role)",
    "second_members": "The second team: its members mentioned with @ (or use second_role)",
    "team_match_rated": "Count its games for ratings (default: yes)",
}
TOURNAMENT_FORMAT_NAMES = {
    "round_robin": "Round robin",
    "double_round_robin": "Double round robin",
    "knockout": "Knockout",
}
STATUS_NAMES = {"active": "Active", "finished": "Finished", "all": "All"}
VACATION_ACTIONS = {"status": "Status", "start": "Start", "end": "End"}
COLOR_NAMES = {
    "random": "Random",
    "sente": "Sente (☗, moves first in even games)",
    "gote": "Gote (☖)",
}
#: The colours `/challenge` offers: in a handicap game gote gives it and sente receives it,
#: and it is never drawn by lot (see `bot.services.club.challenge.side_wish`).
CHALLENGE_COLOR_NAMES = {
    "random": "Random (even games only)",
    "sente": "Sente ☗ (in a handicap game: Shitate, receiving it)",
    "gote": "Gote ☖ (in a handicap game: Uwate, giving it)",
}
RULE_NAMES = {
    ImpasseRule.DECLARATION_27: N_("27-point declaration"),
    ImpasseRule.COUNT_24: N_("24-point count"),
}
RULE_CHOICE_NOTES = {
    ImpasseRule.DECLARATION_27: "modern standard",
    ImpasseRule.COUNT_24: "classic rules",
}
SWITCH_NAMES = {"on": "On", "off": "Off"}
TSUME_ACTIONS = {
    "today": "Today's problem",
    "answer": "Answer",
    "table": "This month's solvers",
    "schedule": "Post daily here (administrators)",
    "stop": "Stop the daily problem (administrators)",
    "scan": "Search older games for problems (administrators)",
}
NOTIFICATION_NAMES = {
    Notifications.EACH_TURN: "At each turn",
    Notifications.DIGEST: "A daily digest",
    Notifications.NONE: "None",
}
LANGUAGE_NAMES = {
    "server": "The server's language in Discord",
    "ja": "日本語",
    "en": "English",
}


def rule_name(lang: str, rule: ImpasseRule) -> str:
    """An impasse rule as the settings of a game say it."""
    return gettext(lang, RULE_NAMES[rule])


def rule_choice(rule: ImpasseRule) -> str:
    """An impasse rule as a choice of `/challenge`."""
    return f"{RULE_NAMES[rule]} ({RULE_CHOICE_NOTES[rule]})"


TAKEBACK_NAMES = {
    TakebackPolicy.ALLOWED: "Allowed, if the opponent accepts",
    TakebackPolicy.NEVER: "Never",
}
PERSPECTIVE_NAMES = {Color.SENTE: "Sente", Color.GOTE: "Gote"}
STYLE_NAMES = {"image": "Picture", "text": "Text diagram"}
FORMAT_NAMES = {
    "kif": "KIF (Shift_JIS, as Japanese software reads it)",
    "kifu": "KIFU (KIF in UTF-8)",
    "ki2": "KI2 (Shift_JIS)",
    "ki2u": "KI2U (KI2 in UTF-8)",
    "csa": "CSA",
    "sfen": "SFEN (current position)",
    "usi": "USI (position ... moves ...)",
    "gif": "GIF (the game as an animation)",
}


def handicap_name(handicap: Handicap) -> str:
    """A handicap as a choice of `/challenge`."""
    return "Even" if handicap is Handicap.EVEN else f"{handicap.english} ({handicap.japanese})"
