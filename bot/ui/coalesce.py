"""One message edited by one task at a time: a change while it is being edited asks for
one more edit, so a hundred changes at once cost at most two edits, never a hundred. The
tournaments' announcements and the team matches' scoreboards are edited so."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

log = logging.getLogger(__name__)


class OneEditAtATime:
    """Calls `edit(key)` for a key (a tournament's, a match's), never twice at once for
    one key, and once more after the last call that came while it ran. An edit Discord
    refuses (or whose channel is gone) is logged: the next change edits again."""

    def __init__(self, edit: Callable[[int], Awaitable[None]], *, log_as: str) -> None:
        self._edit = edit
        self._what = log_as
        self._editing: set[int] = set()
        self._again: set[int] = set()

    async def __call__(self, key: int) -> None:
        if key in self._editing:
            self._again.add(key)
            return
        self._editing.add(key)
        try:
            while True:
                self._again.discard(key)
                try:
                    await self._edit(key)
                except (discord.HTTPException, LookupError):
                    log.warning("could not edit %s %s's post", self._what, key, exc_info=True)
                if key not in self._again:
                    return
        finally:
            self._editing.discard(key)
