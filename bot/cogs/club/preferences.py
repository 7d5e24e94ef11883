"""A player's own settings: `/preferences`, whether `/move` asks to confirm first, which
direct messages they get (each turn, a daily digest, none), their time zone and quiet
hours, and whether their finished games may become mate problems (`/tsume`).

They are the player's, in every server, so the answer is private and in the member's
language. Each use stores the member's Discord language too: a direct message answers
no interaction, so it is written in the language they had when they last chose.
"""

from __future__ import annotations

import logging

from discord import app_commands
from discord.app_commands import Choice, Range

from bot.services import Notifications, QuietHours
from bot.services.club.zones import LONGEST_NAME, matching_zones, zone_named
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import OptionError
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import MAX_CHOICES
from bot.ui.replies import Reply, reader_language

log = logging.getLogger(__name__)
SWITCHES = [Choice(name=name, value=value) for value, name in text.SWITCH_NAMES.items()]
NOTIFICATIONS = [
    Choice(name=name, value=kind.value) for kind, name in text.NOTIFICATION_NAMES.items()
]
#: Longer than any way of writing two hours ("22:00-07:00" and blanks).
LONGEST_QUIET_HOURS = 24


def _switch(value: str | None) -> bool | None:
    """An on/off option as chosen, None where it was left out."""
    return None if value is None else value == "on"


def read_quiet_hours(value: str) -> QuietHours | None:
    """Quiet hours as typed: `22-7`, `22:00-07:00`, or `off` (None: no quiet hours).
    Anything else is refused with one sentence."""
    typed = value.strip().casefold()
    if typed in ("off", "none"):
        return None
    start, dash, end = typed[:LONGEST_QUIET_HOURS].replace("〜", "-").partition("-")
    start_hour, end_hour = _hour(start), _hour(end)
    if not dash or start_hour is None or end_hour is None or start_hour == end_hour:
        raise OptionError(text.BAD_QUIET_HOURS)
    return QuietHours(start_hour, end_hour)


def _hour(part: str) -> int | None:
    """`7`, `07` or `07:00` as an hour, None if it is not one."""
    hour, _colon, minutes = part.strip().partition(":")
    if minutes not in ("", "00") or not (hour.isascii() and hour.isdigit()) or len(hour) > 2:
        return None
    return int(hour) if int(hour) <= 23 else None


class PreferencesFeature(Feature):
    """What each player chooses for themselves."""

    @command("preferences")
    @app_commands.choices(confirm=SWITCHES, notifications=NOTIFICATIONS, problems=SWITCHES)
    async def preferences(
        self,
        interaction: Interaction,
        confirm: str | None = None,
        notifications: str | None = None,
        digest_hour: Range[int, 0, 23] | None = None,
        time_zone: Range[str, 1, LONGEST_NAME] | None = None,
        quiet_hours: Range[str, 1, LONGEST_QUIET_HOURS] | None = None,
        problems: str | None = None,
    ) -> None:
        """Change what is given and show all the settings; with no option, only show."""
        lang = reader_language(interaction)
        user_id = interaction.user.id
        options = (confirm, notifications, digest_hour, time_zone, quiet_hours, problems)
        changing = any(option is not None for option in options)
        quiet = None if quiet_hours is None else read_quiet_hours(quiet_hours)
        if time_zone is None and (notifications == Notifications.DIGEST.value or quiet):
            time_zone = await self._zone_to_keep(interaction)
        chosen = await self.bot.service.preferences.change(
            user_id,
            confirm_moves=_switch(confirm),
            notifications=None if notifications is None else Notifications(notifications),
            language=lang,
            digest_hour=digest_hour,
            time_zone=time_zone,
            quiet_hours=quiet,
            loud=quiet_hours is not None and quiet is None,
        )
        if changing:
            log.info(
                "player %s: confirm moves %s, notifications %s",
                user_id,
                chosen.confirm_moves,
                chosen.notifications,
            )
        if chosen.time_zone is None:
            zone = await self.bot.server_zone(interaction.guild_id)
        else:
            zone = zone_named(chosen.time_zone)
        if problems is not None:  # mate problems from their games: theirs to refuse
            await self.bot.service.problems.opt_out(user_id, problems == "off")
        shared = not await self.bot.service.problems.opted_out(user_id)
        answer = text.preferences_text(lang, chosen, changed=changing, zone=zone)
        answer += "\n" + text.sharing_text(lang, shared)
        await Reply(interaction).send(answer, ephemeral=True)

    async def _zone_to_keep(self, interaction: Interaction) -> str | None:
        """The zone to store for a player who chooses a digest or quiet hours without one of
        their own: this server's, which the answer shows. Kept, it stays the zone of their
        hours in every server, rather than one guessed at each digest. None if they have one."""
        current = await self.bot.service.preferences.of(interaction.user.id)
        if current.time_zone is not None:
            return None
        return (await self.bot.server_zone(interaction.guild_id)).key

    @preferences.autocomplete("time_zone")
    async def zone_suggestions(self, interaction: Interaction, current: str) -> list[Choice[str]]:
        """The zone names containing what is typed."""
        return [Choice(name=name, value=name) for name in matching_zones(current, MAX_CHOICES)]


async def setup(bot: GameBot) -> None:
    await bot.add_cog(PreferencesFeature(bot))
