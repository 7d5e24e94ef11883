"""Moves by mention: the one sentence answering a move typed as a message that mentions
the bot, when it cannot be played that way (the service's refusals arrive as its own
sentences)."""

from __future__ import annotations

from rules import Sentence

#: A player who confirms their moves (`/preferences confirm`) sees the board first, which
#: only a private answer to a command can show.
CONFIRM_WITH_COMMAND = Sentence(
    "You confirm your moves before they count: play this one with `/move`, which shows "
    "you the board first."
)
#: A move-like mention outside any game's thread: the thread is what names the game.
MENTION_OUTSIDE_GAME = Sentence(
    "A move by mention is read only in its game's thread; here, use `/move`."
)
