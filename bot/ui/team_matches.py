"""A team match's posts in its channel: the announcement with the lineup and the live
scoreboard (its image, with the whole score as the image's text for screen readers),
edited into the one message after every result; a post when a result decides the match
early (its games still played out), and the final post with the winner. Each game's
thread, its first post naming the match, the board and the game, is opened in the
background by the bot's `opener` (`bot.ui.event_games`), as a tournament's games are.

The team matches feature calls `TeamPosts.after_ending` after every game's ending (via
`GameBot.after_endings`), as the tournaments' posts do.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import Any

import discord

from bot.services import GameSnapshot
from bot.services.tournaments.team_matches import TeamMatch, TeamMatchChange
from render.team_match import describe_scoreboard, render_scoreboard

from .archives import Placed, event_archive, send_with_archive
from .coalesce import OneEditAtATime
from .host import GameBot
from .text import truncate
from .text.tournaments.team_matches import (
    scoreboard_of,
    scoreboard_words,
    team_announcement_text,
    team_decided_text,
    team_event_name,
    team_final_text,
)

log = logging.getLogger(__name__)
#: Discord's longest alt text of an attachment.
MAX_ALT_TEXT = 1024


class TeamPosts:
    """The team matches' posts of one bot."""

    def __init__(self, bot: GameBot) -> None:
        self.bot = bot
        self._refresh = OneEditAtATime(self._refresh_once, log_as="team_match")
        self._locks: dict[int, asyncio.Lock] = {}

    async def announce(self, match: TeamMatch) -> None:
        """Post a new match's announcement; its games' threads are opened in the
        background, at Discord's pace and under its cap, as a tournament's are."""
        await self.refresh(match.id)
        self.bot.opener.wake()

    async def refresh(self, match_id: int) -> None:
        """Edit the announcement to the match as it is now (posted anew if gone)."""
        await self._refresh(match_id)

    async def _refresh_once(self, match_id: int) -> None:
        match = await self.bot.service.team_matches.get(match_id)
        setup = match.row.setup
        lang = await self.bot.post_language(setup.guild_id)
        content = truncate(team_announcement_text(lang, match))
        files = [await scoreboard_file(match, lang)]
        channel = await self._channel(setup.channel_id)
        quiet: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        message_id = match.row.message_id
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(
                    content=content, attachments=files, **quiet
                )
                return
            except discord.NotFound:
                log.info("team match %s's announcement is gone: posted anew", match_id)
        message = await channel.send(content, files=files, **quiet)
        await self.bot.service.team_matches.set_message(match_id, message.id)

    async def after_ending(self, game: GameSnapshot) -> None:
        """Once any game's ending is posted: if it is a team match's, act on it."""
        change = await self.bot.service.team_matches.game_ended(game.id)
        if change is not None:
            if change.games_created:  # tournament games, in the room this game left
                self.bot.opener.wake()
            await self.post_change(change)

    async def post_change(self, change: TeamMatchChange) -> None:
        """The scoreboard edited in; the match decided early, or its final post."""
        match = change.match
        async with self._locks.setdefault(match.id, asyncio.Lock()):
            await self.refresh(match.id)
            lang = await self.bot.post_language(match.row.setup.guild_id)
            channel = await self._channel(match.row.setup.channel_id)
            quiet = discord.AllowedMentions.none()
            if change.finished_now:
                await self._final_post(match, lang, channel)
            elif change.decided_now:
                await channel.send(team_decided_text(lang, match), allowed_mentions=quiet)

    async def _final_post(self, match: TeamMatch, lang: str, channel: discord.TextChannel) -> None:
        """The winner, the final scoreboard and the games' records as a ZIP, as a
        tournament's final post has them (more than one past the server's upload limit:
        the first with the post, the others after it)."""
        said = team_final_text(lang, match)
        files = [await scoreboard_file(match, lang)]
        played = [
            Placed(game.game_id, 1, game.board, game.game_number)
            for game in sorted(match.games, key=lambda g: (g.board, g.game_number))
            if game.game_id is not None and game.result not in (None, "void")
        ]
        setup = match.row.setup
        parts = await event_archive(
            self.bot,
            team_event_name(lang, match),
            played,
            zone=await self.bot.server_zone(setup.guild_id),
            limit=channel.guild.filesize_limit,
            stem="team-match",
            about=f"team_match {match.id}",
        )
        await send_with_archive(channel, said, files, parts)

    async def _channel(self, channel_id: int) -> discord.TextChannel:
        channel = await self.bot.channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise LookupError(f"channel {channel_id} is no text channel")
        return channel


async def scoreboard_file(match: TeamMatch, lang: str) -> discord.File:
    """The scoreboard as a PNG drawn in a thread, its text for screen readers as the
    image's alt text."""
    words = scoreboard_words(lang)
    board = scoreboard_of(match)
    png = await asyncio.to_thread(render_scoreboard, board, words=words)
    alt = describe_scoreboard(board, words=words)
    if len(alt) > MAX_ALT_TEXT:
        alt = alt[: MAX_ALT_TEXT - 1] + "…"
    return discord.File(io.BytesIO(png), filename="scoreboard.png", description=alt)
