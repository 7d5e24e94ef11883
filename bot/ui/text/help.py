"""`/help`: how to play, written for each language's players."""

from __future__ import annotations

from bot.services import MAX_OPEN_CHALLENGES

from ..i18n import N_, gettext

HELP = N_("""\
**Correspondence shogi**
`/challenge @member` starts a game (colour, time per move, handicap, impasse rule, rated; \
whoever accepts a rated one may press Accept unrated instead); without a member, anyone here \
may accept (at most {limit} such open challenges each). Each game gets its own thread; under \
its ending, Rematch offers it again. `/computer` plays the bot at a level from 1 to 8.
`/move` plays a move in any notation:
• Western: `P-7f`, `P-76`, `Bx2b+`, `S*5e`, `G6i-5h`, `N-3c=` (= declines promotion)
• Japanese: `７六歩`, `76歩`, `同　銀`, `５五角打`, `４八金右`, `２二角成`, `２三歩不成`
• USI or CSA: `7g7f`, `8h2b+`, `P*5e`, `+7776FU`
Start typing and pick from the suggestions; if a move is ambiguous the bot asks.
`/board` shows a game (`style:text`: a text diagram), `/games` lists games, `/resign` \
resigns, `/abort` ends a game before both players moved, `/jishogi` shows the impasse \
count, `/export` gives the record (KIF, KI2, CSA, SFEN, \
USI, GIF) and an analysis link. `/language` sets the language of the bot's posts here, \
`/timezone` the zone its records and digests are dated in.
While you play: `/preferences` (confirm moves, direct messages, your zone), `/takeback`, \
`/forecast` (replies played for you), `/note` and `/notes` (private, in your private \
`/export`), `/vacation` (clocks paused, 14 days a year).
After a game: `/games status:finished`, `/replay`, `/analyse` (an engine marks mistakes). \
Rated games: `/rating`, `/leaderboard`, `/profile`.
**Rules in brief:** checkmate wins; a player with no legal move loses; a pawn drop may not \
give checkmate; no two unpromoted pawns of yours on one file; pieces that could never move \
again must promote. The same position four times is a draw (sennichite), unless one player \
gave check with every move: that player loses. A game can be aborted before both players \
have moved. Running out of time loses; a game whose player never made a first move is \
aborted instead.""")


def help_text(lang: str) -> str:
    """`/help`: written for each language's players, not translated word by word."""
    return gettext(lang, HELP).format(limit=MAX_OPEN_CHALLENGES)
