"""`/preferences`: a player's settings (confirming moves, direct messages, time zone,
quiet hours) as saved or as they are."""

from __future__ import annotations

from datetime import tzinfo

from bot.services import Notifications, Preferences
from rules import Sentence

from ..base import translator

BAD_QUIET_HOURS = Sentence("Write quiet hours as two hours from 0 to 23, e.g. 22-7, or off.")


def preferences_text(lang: str, preferences: Preferences, *, changed: bool, zone: tzinfo) -> str:
    """`/preferences`: the player's settings, just saved (`changed`) or as they are. `zone`
    is the one their hours are read in: theirs, or the server's while they chose none."""
    _ = translator(lang)
    on, off = _("on"), _("off")
    lines = [_("Your preferences are saved:") if changed else _("Your preferences:")]
    lines.append(
        _("• Confirm each move on its board before it is played: {state}").format(
            state=on if preferences.confirm_moves else off
        )
    )
    if preferences.notifications is Notifications.EACH_TURN:
        messages = _("• Direct messages: at each turn, and when a game ends or an offer waits")
    elif preferences.notifications is Notifications.DIGEST:
        messages = _(
            "• Direct messages: a digest of your games to move every day at {hour}:00, "
            "and when a game ends or an offer waits"
        ).format(hour=preferences.digest_hour)
    else:
        messages = _("• Direct messages: none (the game threads mention you)")
    lines.append(messages)
    if preferences.time_zone is None:
        where = _("• Time zone: `{zone}` (this server's; choose yours with `time_zone`)")
    else:
        where = _("• Time zone: `{zone}`")
    lines.append(where.format(zone=zone_name(zone)))
    if preferences.quiet_hours is not None:
        lines.append(
            _("• Quiet hours: {start}:00 to {end}:00, messages arrive without a sound").format(
                start=preferences.quiet_hours.start, end=preferences.quiet_hours.end
            )
        )
    if preferences.direct_messages:
        lines.append(
            _(
                "The messages are written in the language your Discord is in now. If none "
                "arrives, allow direct messages from this server's members in its privacy "
                "settings; the game's thread still mentions you."
            )
        )
    if not changed:
        lines.append(_("Change them with the options of `/preferences`."))
    return "\n".join(lines)


def zone_name(zone: tzinfo) -> str:
    """A zone as members write it: its IANA name (`Asia/Tokyo`)."""
    return str(getattr(zone, "key", zone))
