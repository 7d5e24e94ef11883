"""A tournament's posts in its channel: the announcement with its buttons (its entrants,
then its standings, a round robin's crosstable or a knockout's bracket, edited into the
one message on every change), a post when a round starts, and the final post with the
winners, the final standings and every game's records as a ZIP. Each game's thread, its
first post naming the tournament, round and board, is opened in the background by the
bot's `opener` (`bot.ui.event_games`), which new games wake.

Every change the service returns (`TournamentChange`) is posted by `Posts.post_change`:
from a command, a button, the ending of one of its games (`after_ending`, which the
tournaments feature registers on the bot), or the clock's own work (the service's
listener).
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import discord

from bot.services import GameSnapshot
from bot.services.records.archive import ArchivePart
from bot.services.tournaments.model import Format, State, Tournament, TournamentChange
from render.bracket import Bracket, Player, describe_bracket, render_bracket
from render.crosstable import Crosstable, describe_crosstable, render_crosstable
from render.fonts import clipped

from . import text
from .archives import Placed, event_archive, send_with_archive
from .coalesce import OneEditAtATime
from .host import GameBot
from .text.tournaments.bracket import bracket_words
from .text.tournaments.crosstable import crosstable_words

log = logging.getLogger(__name__)
#: The buttons under an announcement, for the tournament as it is, in a language (Join and
#: Leave while registration is open; None once there is nothing to press).
EntryButtons = Callable[[Tournament, str], discord.ui.View | None]
#: Discord's longest alt text of an attachment.
MAX_ALT_TEXT = 1024


class Posts:
    """The tournaments' posts of one bot. An announcement is edited by one task at a
    time: a change while it is being edited asks for one more edit, so a hundred
    presses of Join cost at most two edits at once, never a hundred."""

    def __init__(self, bot: GameBot, buttons: EntryButtons) -> None:
        self.bot = bot
        self._buttons = buttons
        self._refresh = OneEditAtATime(self._refresh_once, log_as="tournament")
        self._locks: dict[int, asyncio.Lock] = defaultdict(asyncio.Lock)

    # ------------------------------------------------------------ the announcement

    async def announce(self, tournament: Tournament) -> None:
        """Post a new tournament's announcement and remember it."""
        await self.refresh(tournament.id)

    async def refresh(self, tournament_id: int) -> None:
        """Edit the announcement to the tournament as it is now (posted anew if gone)."""
        await self._refresh(tournament_id)

    async def _refresh_once(self, tournament_id: int) -> None:
        service = self.bot.service.tournaments
        tournament = await service.get(tournament_id)
        setup = tournament.row.setup
        lang = await self.bot.post_language(setup.guild_id)
        names = await service.names([e.user_id for e in tournament.entrants])
        content = text.announcement_text(lang, tournament, names)
        files: list[discord.File] = []
        if tournament.state in (State.RUNNING, State.FINISHED):
            if tournament.format is Format.KNOCKOUT:
                files = await self.bracket_files(tournament_id, lang)
                if not files:  # past the players one image draws: the bracket as text
                    lines = await self.bracket_lines(tournament, names, lang)
                    content += "\n" + "\n".join(lines)
            else:
                files = await self.standings_files(tournament_id, lang)
        content = text.truncate(content)
        view = self._buttons(tournament, lang)
        channel = await self._channel(setup.channel_id)
        kwargs: dict[str, Any] = {"allowed_mentions": discord.AllowedMentions.none()}
        message_id = tournament.row.message_id
        if message_id is not None:
            try:
                await channel.get_partial_message(message_id).edit(
                    content=content, attachments=files, view=view, **kwargs
                )
                return
            except discord.NotFound:
                log.info("tournament %s's announcement is gone: posted anew", tournament_id)
        if view is not None:
            kwargs["view"] = view
        message = await channel.send(content, files=files, **kwargs)
        await service.set_message(tournament_id, message.id)

    async def standings_files(self, tournament_id: int, lang: str) -> list[discord.File]:
        """The round robin's crosstables as PNG files, each with its text as alt text."""
        tables = await self.bot.service.tournaments.crosstables(tournament_id)
        return [await _crosstable_file(table, lang, index) for index, table in enumerate(tables)]

    async def bracket_files(self, tournament_id: int, lang: str) -> list[discord.File]:
        """The knockout's bracket as a PNG file with its text as alt text; none before the
        start or past the players one image draws."""
        drawn = await self.bot.service.tournaments.bracket_drawing(tournament_id)
        return [] if drawn is None else [await bracket_file(drawn, lang)]

    async def bracket_lines(
        self, tournament: Tournament, names: dict[int, str], lang: str
    ) -> list[str]:
        state = await self.bot.service.tournaments.bracket(tournament.id)
        if state is None:
            return []

        def named(user_id: int | None) -> str | None:
            return None if user_id is None else text.safe(names.get(user_id, str(user_id)))

        rounds = [
            [
                (
                    named(view.match.upper) or "",
                    named(view.match.lower) or "",
                    named(view.winner),
                )
                for view in matches
                if view.match.lower is not None
            ]
            for matches in state.rounds
        ]
        return text.bracket_lines(lang, rounds)

    async def _channel(self, channel_id: int) -> discord.TextChannel:
        channel = await self.bot.channel(channel_id)
        if not isinstance(channel, discord.TextChannel):
            raise LookupError(f"channel {channel_id} is no text channel")
        return channel

    # ------------------------------------------------------------ changes

    async def after_ending(self, game: GameSnapshot) -> None:
        """Once any game's ending is posted (its thread archived, a place freed under
        Discord's cap on active threads): if it is a tournament's, act on it."""
        for change in await self.bot.service.tournaments.game_ended(game.id):
            await self.post_change(change)

    async def post_change(self, change: TournamentChange) -> None:
        """Post what one action did: the round begun, its games' threads, the standings
        edited in, the final post, or the cancellation. One tournament's changes are
        posted in turn, in the order they came."""
        async with self._locks[change.tournament_id]:
            await self._post_change(change)

    async def _post_change(self, change: TournamentChange) -> None:
        try:
            await self._post_what_changed(change)
        finally:  # new games are opened whatever became of the posts: the database lists them
            if change.games_created:
                self.bot.opener.wake()  # in the background, at Discord's pace

    async def _post_what_changed(self, change: TournamentChange) -> None:
        tournament = await self.bot.service.tournaments.get(change.tournament_id)
        setup = tournament.row.setup
        lang = await self.bot.post_language(setup.guild_id)
        channel = await self._channel(setup.channel_id)
        quiet = discord.AllowedMentions.none()
        if change.cancelled:
            await self.refresh(tournament.id)
            await channel.send(text.cancelled_text(lang, tournament), allowed_mentions=quiet)
            return
        if change.round_started is not None:
            count = len(change.games_created)
            if change.round_started == 1:
                said = text.started_text(lang, tournament, count)
            else:
                said = text.round_text(lang, tournament, change.round_started, count)
            files: list[discord.File] = []
            if change.round_started > 1 and tournament.format is Format.KNOCKOUT:
                files = await self.bracket_files(tournament.id, lang)  # who meets whom now
            await channel.send(said, files=files, allowed_mentions=quiet)
        if change.finished:
            await self.refresh(tournament.id)
            await self._final_post(tournament, change, lang, channel)
        elif change.standings_changed or change.round_started is not None:
            await self.refresh(tournament.id)

    async def _final_post(
        self,
        tournament: Tournament,
        change: TournamentChange,
        lang: str,
        channel: discord.TextChannel,
    ) -> None:
        """The winners, the final standings and the games' records as a ZIP (more than
        one when they pass the server's upload limit: the first with the post, the
        others after it)."""
        service = self.bot.service.tournaments
        names = await service.names(change.winners)
        said = text.final_text(lang, tournament, [names[w] for w in change.winners])
        if tournament.format is Format.KNOCKOUT:
            files = await self.bracket_files(tournament.id, lang)
        else:
            files = await self.standings_files(tournament.id, lang)
        limit = channel.guild.filesize_limit
        parts = await self._archive(tournament, limit)
        await send_with_archive(channel, said, files, parts)

    async def _archive(self, tournament: Tournament, limit: int) -> tuple[ArchivePart, ...]:
        """Every finished game's records (`archives.event_archive`), filed by round,
        board within the round and game of the pairing."""
        rows = await self.bot.service.tournaments.schedule_of(tournament.id)
        played = [r for r in rows if r.game_id is not None and r.result not in (None, "void")]
        zone = await self.bot.server_zone(tournament.row.setup.guild_id)
        boards: dict[tuple[int, int, int], int] = {}
        numbers: dict[tuple[int, int], int] = defaultdict(int)
        games: list[Placed] = []
        for row in sorted(played, key=lambda r: (r.game.round, r.game.group_number, r.game.board)):
            key = (row.game.round, row.game.group_number, row.game.board)
            board = boards.setdefault(key, 1 + sum(1 for k in boards if k[0] == row.game.round))
            numbers[(row.game.round, board)] += 1
            assert row.game_id is not None
            number = numbers[(row.game.round, board)]
            games.append(Placed(row.game_id, row.game.round, board, number))
        return await event_archive(
            self.bot,
            tournament.name,
            games,
            zone=zone,
            limit=limit,
            stem="tournament",
            about=f"tournament {tournament.id}",
        )


async def _crosstable_file(table: Crosstable, lang: str, index: int) -> discord.File:
    words = crosstable_words(lang)
    png = await asyncio.to_thread(render_crosstable, table, words=words)
    return _image_file(png, describe_crosstable(table, words=words), f"standings-{index + 1}.png")


async def bracket_file(drawn: Bracket, lang: str) -> discord.File:
    """A knockout's bracket as a PNG file (drawn off the event loop) with its text as alt
    text, in `lang`."""
    words = bracket_words(lang)
    png = await asyncio.to_thread(render_bracket, drawn, words=words)
    return _image_file(png, describe_bracket(drawn, words=words), "bracket.png")


def escaped_bracket(drawn: Bracket) -> Bracket:
    """The bracket with its players' names made inert (`text.safe`), for its text in a
    message's content (its alt text and image keep the names as written)."""

    def inert(player: Player) -> Player:
        return replace(player, name=text.safe(clipped(player.name)))

    rounds = tuple(
        tuple(
            replace(
                pairing,
                upper=inert(pairing.upper),
                lower=None if pairing.lower is None else inert(pairing.lower),
            )
            for pairing in pairings
        )
        for pairings in drawn.rounds
    )
    return replace(drawn, rounds=rounds)


def _image_file(png: bytes, alt: str, filename: str) -> discord.File:
    """An image with its text as alt text, cut to Discord's length (the texts put what
    matters most first)."""
    if len(alt) > MAX_ALT_TEXT:
        alt = alt[: MAX_ALT_TEXT - 1] + "…"
    return discord.File(io.BytesIO(png), filename=filename, description=alt)
