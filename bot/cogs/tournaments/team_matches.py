"""Team matches: `/team_match` (`/団体戦`) sets two teams against each other in this
channel, each given by a role or by a list of members mentioned with @; the service lines
them up by rating and creates every game at once; `bot.ui.team_matches.TeamPosts` posts
the announcement with the lineup and the live scoreboard and the final post, and acts on
every ending of a match's game; the games' threads are opened in the background by the
bot's `opener`, which the command wakes.

Who may create a match is the service's decision, as for a tournament: the command
passes whether the member may manage the server and their roles.
"""

from __future__ import annotations

import logging
import re

import discord
from discord import app_commands
from discord.app_commands import Range

from bot.services import ImpasseRule, PlayerRef
from bot.services.tournaments.teams import MAX_TEAM
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import OptionError
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import server_of
from bot.ui.replies import Reply, as_player, player_of, reader_language, send_ephemeral
from bot.ui.role_teams import RoleLookups
from bot.ui.team_matches import TeamPosts
from bot.ui.text.tournaments.team_matches import (
    SAME_ROLE_TWICE,
    TEAM_GIVEN_TWICE,
    TEAM_MISSING,
    not_a_member,
    team_created_text,
)

log = logging.getLogger(__name__)
#: A member's mention as Discord writes it into text (`<@id>`, `<@!id>` from older
#: clients); bounded digits keep the search linear.
_MENTION = re.compile(r"<@!?(\d{1,20})>")
#: The longest list of members typed: 64 mentions of 20 digits with room to spare.
MAX_MEMBER_LIST = 2000


class TeamMatchesFeature(Feature):
    """`/team_match` and the posts of every match."""

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self.posts = TeamPosts(bot)
        #: Teams given by role, read one server at a time and spaced (`RoleLookups`).
        self.lookups = RoleLookups()

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.after_endings.append(self.posts.after_ending)

    async def cog_unload(self) -> None:
        self.bot.after_endings.remove(self.posts.after_ending)
        await super().cog_unload()

    @command(
        "team_match",
        first_team="first_team_name",
        second_team="second_team_name",
        rated="team_match_rated",
    )
    @app_commands.choices(
        impasse=[app_commands.Choice(name=text.rule_choice(r), value=r.value) for r in ImpasseRule]
    )
    async def team_match(
        self,
        interaction: Interaction,
        first_team: Range[str, 1, 6000],
        second_team: Range[str, 1, 6000],
        first_role: discord.Role | None = None,
        second_role: discord.Role | None = None,
        first_members: Range[str, 1, MAX_MEMBER_LIST] | None = None,
        second_members: Range[str, 1, MAX_MEMBER_LIST] | None = None,
        time: Range[str, 1, 100] = "3d",
        rated: bool = True,
        impasse: str = "27",
    ) -> None:
        """Set two teams against each other here: boards paired by rating, each pair
        playing both colours, every game in its own thread, the scoreboard kept live."""
        guild = interaction.guild
        if guild is None:
            raise OptionError(text.NOT_IN_TOURNAMENT_CHANNEL)
        member = interaction.user
        roles = frozenset(r.id for r in member.roles) if isinstance(member, discord.Member) else ()
        reply = Reply(interaction)
        await reply.defer(ephemeral=True)
        may_manage = interaction.permissions.manage_guild
        matches = self.bot.service.team_matches
        await matches.require_organizer(server_of(interaction), may_manage, roles)
        first, second = await self._teams(
            guild, (first_role, second_role), (first_members, second_members)
        )
        match = await matches.create(
            guild_id=server_of(interaction),
            channel_id=interaction.channel_id or 0,
            organizer=player_of(interaction),
            may_manage=may_manage,
            role_ids=roles,
            first_team=first_team,
            second_team=second_team,
            first=first,
            second=second,
            time_control=time,
            impasse_rule=impasse,
            rated=rated,
        )
        log.info("team match %s created by %s", match.id, interaction.user.id)
        await send_ephemeral(interaction, team_created_text(reader_language(interaction), match))
        await self.posts.announce(match)

    async def _teams(
        self,
        guild: discord.Guild,
        roles: tuple[discord.Role | None, discord.Role | None],
        members: tuple[str | None, str | None],
    ) -> tuple[list[PlayerRef], list[PlayerRef]]:
        """Both teams as the command gave them, each a role's members who can play, as
        Discord lists them (both roles read in one pass, `RoleLookups`), or the members
        mentioned in a list."""
        for role, listed in zip(roles, members, strict=True):
            if role is not None and listed is not None:
                raise OptionError(TEAM_GIVEN_TWICE)
            if role is None and listed is None:
                raise OptionError(TEAM_MISSING)
        if roles[0] is not None and roles[0] == roles[1]:
            raise OptionError(SAME_ROLE_TWICE)
        given = [role for role in roles if role is not None]
        found = iter(
            await self.lookups.teams(self.bot.http, guild.id, given, MAX_TEAM) if given else []
        )
        teams = []
        for role, listed in zip(roles, members, strict=True):
            if role is not None:
                teams.append(next(found))
            elif listed is not None:
                teams.append(await _listed(guild, listed))
        return teams[0], teams[1]


async def _listed(guild: discord.Guild, members: str) -> list[PlayerRef]:
    """The members mentioned in a list, each looked up in the server (at most `MAX_TEAM`
    + 1 lookups: one more than a team takes is enough for the service to refuse it)."""
    ids = list(dict.fromkeys(int(m) for m in _MENTION.findall(members)))
    if not ids:
        raise OptionError(TEAM_MISSING)
    team = []
    for user_id in ids[: MAX_TEAM + 1]:
        found_member = guild.get_member(user_id)
        if found_member is None:
            try:
                found_member = await guild.fetch_member(user_id)
            except discord.NotFound:
                raise OptionError(not_a_member(user_id)) from None
        team.append(as_player(found_member))
    return team


async def setup(bot: GameBot) -> None:
    await bot.add_cog(TeamMatchesFeature(bot))
