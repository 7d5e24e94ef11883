"""A server's settings: `/language` and `/timezone`, and who may change them."""

from __future__ import annotations

from rules import Sentence

from ..base import translator
from ..controls import LANGUAGE_NAMES

MANAGE_SERVER_ONLY = Sentence("Only members who may manage this server can change its language.")
ZONE_MANAGERS_ONLY = Sentence("Only members who may manage this server can change its time zone.")
#: The value of the suggestion that takes a server back to its language's zone.
DEFAULT_ZONE = "default"


def language_set(lang: str, chosen: str | None) -> str:
    """The answer to `/language`, in the language just chosen."""
    _ = translator(lang)
    if chosen is None:
        return _("The bot's posts here now follow this server's language in Discord.")
    return _("The bot's posts in this server are now in {language}.").format(
        language=LANGUAGE_NAMES[chosen]
    )


def server_zone_text(lang: str, zone: str, *, chosen: bool, changed: bool) -> str:
    """The answer to `/timezone`: the zone the server's records and digests are dated in,
    just chosen (`changed`) or as it is; `chosen` is False for its language's default."""
    _ = translator(lang)
    if changed and chosen:
        return _("This server's records and digests are now dated in `{zone}`.").format(zone=zone)
    if changed:
        return _(
            "This server's records and digests are dated in `{zone}` again, the zone of its "
            "language."
        ).format(zone=zone)
    if chosen:
        return _("This server's records and digests are dated in `{zone}`.").format(zone=zone)
    return _(
        "This server's records and digests are dated in `{zone}`, the zone of its language; "
        "choose another with the option of `/timezone`."
    ).format(zone=zone)


def default_zone_choice(lang: str, zone: str) -> str:
    """The suggestion that takes a server back to its language's zone."""
    _ = translator(lang)
    return _("The zone of the server's language ({zone})").format(zone=zone)
