"""Time zones: the zone a server's records and digests are dated in, and a player's own.

A correspondence club lives by local dates: a digest at 8 in the morning, a record
started on the 27th in Tokyo even when it was still the 26th in UTC. Zones are IANA
names read through `zoneinfo`, with the `tzdata` package as the database wherever the
machine has none. A server that chose no zone gets its posts' language's: Japan has one
zone, so a Japanese server is dated in Asia/Tokyo; any other language spans many zones
and gets UTC until an administrator chooses.
"""

from __future__ import annotations

import functools
import zoneinfo

from rules import Sentence

from ..errors import BadTimeZone

#: The zone of a server that chose none, by the language of its posts.
LANGUAGE_ZONES = {"ja": "Asia/Tokyo"}
#: Longer than any IANA name; a longer one is refused before it is looked up.
LONGEST_NAME = 64


@functools.cache
def zone_names() -> frozenset[str]:
    """Every zone name the database knows (read once: listing them walks the database)."""
    return frozenset(zoneinfo.available_timezones())


def zone_named(name: str) -> zoneinfo.ZoneInfo:
    """The zone of an IANA name (`Asia/Tokyo`, `Europe/Paris`, `UTC`); letter case is
    forgiven. Anything else is refused with a sentence."""
    wanted = name.strip()
    if len(wanted) <= LONGEST_NAME:
        if wanted in zone_names():
            return zoneinfo.ZoneInfo(wanted)
        folded = wanted.casefold()
        for known in zone_names():
            if known.casefold() == folded:
                return zoneinfo.ZoneInfo(known)
    raise BadTimeZone(
        Sentence(
            "{name} is not a time zone I know. Write it as a region and a city, "
            "e.g. `Asia/Tokyo` or `Europe/Paris`.",
            name=wanted[:LONGEST_NAME],
        )
    )


def default_zone(language: str) -> zoneinfo.ZoneInfo:
    """The zone of a server that chose none, from the language of its posts."""
    return zoneinfo.ZoneInfo(LANGUAGE_ZONES.get(language, "UTC"))


def matching_zones(typed: str, limit: int = 25) -> list[str]:
    """Zone names containing what a member typed so far, for an option's suggestions:
    those that start with it first, then those with a part that does (`tok` finds
    Asia/Tokyo before Asia/Vladivostok), then by name."""
    folded = typed.strip().casefold()[:LONGEST_NAME]

    def rank(name: str) -> tuple[int, str]:
        lowered = name.casefold()
        if lowered.startswith(folded):
            return 0, name
        parts = lowered.replace("_", "/").split("/")
        return (1 if any(part.startswith(folded) for part in parts) else 2), name

    found = sorted(rank(name) for name in zone_names() if folded in name.casefold())
    return [name for _, name in found[:limit]]
