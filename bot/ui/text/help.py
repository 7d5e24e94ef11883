"""`/help`: how to play, written for each language's players."""

from __future__ import annotations

from ..i18n import N_, gettext

HELP = N_("""\
**Correspondence shogi**
`/challenge @member` starts a game (colour, time per move, handicap, impasse rule). \
The challenged member accepts with a button; the game gets its own thread. Without a \
member, anyone here may accept; under every ending, Rematch offers the game again.
`/move` plays a move in any notation:
• Western: `P-7f`, `P-76`, `Bx2b+`, `S*5e`, `G6i-5h`, `N-3c=` (= declines promotion)
• Japanese: `７六歩`, `76歩`, `同　銀`, `５五角打`, `４八金右`, `２二角成`, `２三歩不成`
• USI or CSA: `7g7f`, `8h2b+`, `P*5e`, `+7776FU`
Start typing and pick from the suggestions. If a move is ambiguous the bot asks.
`/board` shows a game, `/games` lists your games, `/resign` resigns (with confirmation), \
`/jishogi` shows the impasse count, `/export` gives the record (KIF, KI2, CSA, SFEN, USI) \
and an analysis link. `/language` sets the language of the bot's posts in this server.
`/preferences`: confirm each move on its board first, and a direct message on your turn. \
`/takeback` asks your opponent to take back your last move. \
`/note` keeps a private note on any game, `/notes` lists them; your private `/export` \
carries them. `/vacation` pauses your clocks while you are away (14 days a year). \
`/forecast` stores replies to the moves you expect, played for you when they come.
Finished games: `/games status:finished`, `/replay`, `/export format:gif` (an animation). \
`/board style:text` gives a text diagram. Rated games: `/rating`, `/leaderboard`, `/profile`.
**Rules in brief:** checkmate wins; a player with no legal move loses; a pawn drop may not \
give checkmate; no two unpromoted pawns of yours on one file; pieces that could never move \
again must promote. The same position four times is a draw (sennichite), unless one player \
gave check with every move: that player loses. A game can be aborted before both players \
have moved. Running out of time loses; a game whose player never made a first move is \
aborted instead.""")


def help_text(lang: str) -> str:
    """`/help`: written for each language's players, not translated word by word."""
    return gettext(lang, HELP)
