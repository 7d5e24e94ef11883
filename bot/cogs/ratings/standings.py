"""Ratings (レーティング): `/rating`, `/leaderboard` and `/profile`.

Ratings change only when rated games end (the service does it with the ending); these
commands look. Their answers are private unless the member asks to post them for
everyone, so a curious look does not fill the channel.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.ui import text
from bot.ui.commands import command
from bot.ui.host import Feature, GameBot, Interaction
from bot.ui.options import answer_language, server_of
from bot.ui.replies import Reply, as_player
from bot.ui.text.tournaments.team_matches import profile_team_matches

log = logging.getLogger(__name__)


class RatingsFeature(Feature):
    """Ratings per server: a member's, the best, and a member's profile."""

    @command("rating", member="rated_member", public="show_all")
    async def rating(
        self, interaction: Interaction, member: discord.Member | None = None, public: bool = False
    ) -> None:
        """A member's rating in this server, their place and how many rated games."""
        who = as_player(member or interaction.user)  # the asker by default
        found = await self.bot.service.ratings.of(server_of(interaction), who.user_id)
        lang = await answer_language(self.bot, interaction, public=public)
        await Reply(interaction).send(text.rating_text(lang, who.name, found), ephemeral=not public)

    @command("leaderboard", public="show_all")
    async def leaderboard(self, interaction: Interaction, public: bool = False) -> None:
        """The server's best ratings."""
        lines = await self.bot.service.ratings.leaderboard(server_of(interaction))
        lang = await answer_language(self.bot, interaction, public=public)
        await Reply(interaction).send(text.leaderboard_text(lang, lines), ephemeral=not public)

    @command("profile", member="rated_member", public="show_all")
    async def profile(
        self, interaction: Interaction, member: discord.Member | None = None, public: bool = False
    ) -> None:
        """A member's games, rating with its chart, favourite openings and tournaments."""
        reply = Reply(interaction)
        who = as_player(member or interaction.user)  # the asker by default
        user_id, name = who.user_id, who.name
        guild_id = server_of(interaction)
        found = await self.bot.service.ratings.profile(guild_id, user_id)
        played = await self.bot.service.openings.results(guild_id, user_id)
        entered = await self.bot.service.tournaments.of_member(guild_id, user_id)
        matches = await self.bot.service.team_matches.of_member(guild_id, user_id)
        lang = await answer_language(self.bot, interaction, public=public)
        extra: dict[str, Any] = {}
        if found.history:
            chart = self.bot.boards.rating_chart(found, name, lang)
            extra["file"] = await reply.within(chart, ephemeral=not public)
        said = text.profile_text(lang, name, found, openings=played)
        said += text.profile_tournaments(lang, entered)
        said += profile_team_matches(lang, matches)
        await reply.send(said, ephemeral=not public, **extra)
        log.info("profile of %s shown", user_id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(RatingsFeature(bot))
