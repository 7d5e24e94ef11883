"""A team given as a role: the members who have it, read from Discord's list of the
server's members.

Why the list and not `Role.members`: a slash command's role option carries the role and
nothing of who has it, and the bot keeps no members (it runs without the privileged
members intent, so Discord sends it none). Discord gives the list of a server's members,
a page at a time by user id, to an application whose Server Members intent is switched on
in the developer portal, whatever its gateway session asked for; without it Discord
answers Missing Access, and the member is told to list the team by mention instead.
discord.py's own `Guild.fetch_members` insists on the gateway intent, which would make
Discord send the bot every member's every change in every server, so the pages are asked
for through its HTTP client.

What it costs is bounded whatever the server's size: one pass over the list for both
teams' roles, at most `MAX_PAGES` requests (each one of Discord's global budget), made only
for a member who may set up a match, and no role's players kept past `most` + 1: one more
than a team takes is enough to refuse the role.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import discord
from discord.http import HTTPClient

from bot.services import PlayerRef

from .errors import OptionError
from .text.tournaments.team_matches import (
    LOOKUP_TOO_SOON,
    ROLE_UNLISTED,
    role_empty,
    role_too_large,
    server_too_large,
)

#: The most members one page of Discord's list holds.
PAGE = 1000
#: The most pages one lookup reads: past this many members the server is too large to
#: look through at every command, and the team is listed by mention.
MAX_PAGES = 10
#: Seconds a server waits before its next lookup, for each page its last one read: ten
#: pages (the most) leave it half a minute, a small server's one page three seconds.
SPACING_PER_PAGE = 3.0


class RoleLookups:
    """Reads roles' members for a server, one lookup at a time per server, each spaced
    from the server's last by `SPACING_PER_PAGE` for every page that one read: a page is
    a request of the bot's global budget, which every server shares, so one server's
    organizers cannot keep it busy by asking again and again (or ten times at once). A
    lookup refused for this says so in one sentence, at once, and asks Discord nothing.

    In the memory of the process, as a server's commands all reach the one process of its
    shard; a server's entry is dropped once its spacing has passed."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        #: The clock the spacing is counted on (a test may move it).
        self.clock = clock
        self._busy: set[int] = set()
        self._next: dict[int, float] = {}

    async def teams(
        self, http: HTTPClient, guild_id: int, roles: Sequence[discord.Role], most: int
    ) -> list[list[PlayerRef]]:
        """`role_teams`, unless the server is looking up already or looked up too lately."""
        now = self.clock()
        if guild_id in self._busy or now < self._next.get(guild_id, now):
            raise OptionError(LOOKUP_TOO_SOON)
        self._busy.add(guild_id)
        reading = Reading()
        try:
            return await role_teams(http, guild_id, roles, most, reading)
        finally:
            self._busy.discard(guild_id)
            done = self.clock()
            self._next = {g: t for g, t in self._next.items() if t > done}
            self._next[guild_id] = done + SPACING_PER_PAGE * reading.pages


class Reading:
    """How many pages a lookup has read so far (counted when it is refused too)."""

    def __init__(self) -> None:
        self.pages = 0


async def role_teams(
    http: HTTPClient,
    guild_id: int,
    roles: Sequence[discord.Role],
    most: int,
    reading: Reading | None = None,
) -> list[list[PlayerRef]]:
    """The members with each of `roles` who can play (bots are left out), in the order of
    their ids, all read in one pass over the list; @everyone is every member. Raises
    `OptionError` with the sentence to show when Discord will not list the members, when a
    role has nobody who can play or more than `most`, and when the server has more than
    `MAX_PAGES` pages of members."""
    wanted = [(role.is_default(), str(role.id)) for role in roles]
    found: list[list[PlayerRef]] = [[] for _ in roles]
    after: int | None = None
    for _ in range(MAX_PAGES):
        if reading is not None:
            reading.pages += 1
        try:
            page: list[Any] = await http.get_members(guild_id, PAGE, after)
        except discord.Forbidden:
            raise OptionError(ROLE_UNLISTED) from None
        for member in page:
            user = member["user"]
            if user.get("bot"):
                continue
            held = member.get("roles", ())
            for (everyone, role_id), team, role in zip(wanted, found, roles, strict=True):
                if everyone or role_id in held:
                    team.append(PlayerRef(int(user["id"]), _shown_name(member), False))
                    if len(team) > most:
                        raise OptionError(role_too_large(role.name, most))
        if len(page) < PAGE:
            break
        after = int(page[-1]["user"]["id"])
    else:
        raise OptionError(server_too_large(MAX_PAGES * PAGE))
    for team, role in zip(found, roles, strict=True):
        if not team:
            raise OptionError(role_empty(role.name))
    return found


def _shown_name(member: Mapping[str, Any]) -> str:
    """The name a member shows in the server, as discord.py's `display_name` reads it:
    their nickname here, else their display name, else their username."""
    user = member["user"]
    return str(member.get("nick") or user.get("global_name") or user["username"])
