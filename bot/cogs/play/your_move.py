"""Your move: `/next` shows the game where it is the member's move with the nearest deadline,
privately, with its board, its deadline, a link to its thread, and a Next button that
shows the following one; and the daily digest, a direct message listing every such game,
which the service's `Digests` sends through this feature while it is loaded.

Every server's games count: a member playing in three servers asks once. The order is the
service's (`Games.to_move`): nearest deadline first as the clock counts it, untimed games
last. The Next button carries the member, the game it sits under and that game's move, so
it keeps working after a restart; pressed by anyone else, or after that game moved (it is
no longer where the list was), it answers with one sentence instead of guessing.
"""

from __future__ import annotations

import logging
from datetime import tzinfo
from typing import Any

import discord

from bot.services import Digest, GameList, GameSnapshot, GameSummary
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, OptionError, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.i18n import SOURCE_LANGUAGE
from bot.ui.notify import game_link
from bot.ui.replies import Reply, reader_language
from rules import Color

log = logging.getLogger(__name__)


class NextButton(GameButton, template=r"nx:(?P<user_id>\d+):(?P<game_id>\d+):(?P<ply>\d+)"):
    """Under `/next`'s answer: the game after the one shown (`game_id` at `ply`), for the
    member `user_id` only; after the last, the first again."""

    def __init__(self, user_id: int, game_id: int, ply: int, lang: str = SOURCE_LANGUAGE) -> None:
        label = text.button_label(lang, "nx")
        self.show(f"nx:{user_id}:{game_id}:{ply}", label, discord.ButtonStyle.primary)
        self.user_id = user_id
        self.game_id = game_id
        self.ply = ply

    async def press(self, interaction: Interaction) -> None:
        if interaction.user.id != self.user_id:
            raise OptionError(text.NOT_YOUR_NEXT)
        bot = host_of(interaction)
        reply = Reply(interaction)
        listed = await reply.within(bot.service.games.to_move(self.user_id), ephemeral=True)
        shown = [(game.id, game.ply) for game in listed.games]
        if (self.game_id, self.ply) not in shown:
            raise OptionError(text.moved_since(self.game_id))
        following = shown.index((self.game_id, self.ply)) + 1
        found = await reply.within(_playable(bot, self.user_id, listed, following), ephemeral=True)
        if found is None:
            raise OptionError(text.NOTHING_TO_MOVE)
        content, file, view = await _shown(bot, interaction, reply, listed, *found)
        await reply.edit(content, attachments=[file], view=view)


async def _playable(
    bot: GameBot, user_id: int, listed: GameList, start: int
) -> tuple[int, GameSnapshot] | None:
    """The first game of `listed` from `start` on (then from its beginning) where it is
    still `user_id`'s move once loaded (loading ends a game whose time ran out), and its
    place in the list; None if none is."""
    games = listed.games
    for step in range(len(games)):
        index = (start + step) % len(games)
        game = await bot.service.games.get(games[index].id)
        if game.to_move is not None and game.to_move.user_id == user_id:
            return index, game
    return None


async def _shown(
    bot: GameBot,
    interaction: Interaction,
    reply: Reply,
    listed: GameList,
    index: int,
    game: GameSnapshot,
) -> tuple[str, discord.File, discord.ui.View | None]:
    """The answer for the game at `index` of `listed`: its text, its board from the
    member's side, and the Next button when another game waits."""
    lang = reader_language(interaction)
    user_id = interaction.user.id
    own = game.color_of(user_id)
    facing = Color.SENTE if own is None else own
    board = bot.boards.file(game, lang, perspective=facing)
    file = await reply.within(board, ephemeral=True)
    content = text.next_text(lang, game, index + 1, listed, game_link(game))
    view = None
    if len(listed.games) > 1:
        view = view_of(NextButton(user_id, game.id, game.ply, lang))
    return content, file, view


def summary_link(summary: GameSummary) -> str:
    """The link that opens a listed game's thread (its server, without a thread)."""
    where = f"{summary.guild_id}/{summary.thread_id}" if summary.thread_id else summary.guild_id
    return f"https://discord.com/channels/{where}"


class YourMoveFeature(Feature):
    """Where the member is to move."""

    BUTTONS = (NextButton,)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.service.digests.deliver_with(self.send_digest, self.server_zone)

    async def cog_unload(self) -> None:
        self.bot.service.digests.deliver_with(None, None)
        await super().cog_unload()

    async def server_zone(self, guild_id: int) -> tzinfo:
        """A server's zone once the bot knows its servers: before, a server's language in
        Discord is unknown, and a Japanese server's zone would read as UTC."""
        await self.bot.wait_until_ready()
        return await self.bot.server_zone(guild_id)

    async def send_digest(self, digest: Digest) -> None:
        """A player's daily digest, in the language of their preferences."""
        lang = digest.language or SOURCE_LANGUAGE
        links = {summary.id: summary_link(summary) for summary in digest.games.games}
        content = text.digest_text(lang, digest.games, links)
        await self.bot.direct_messages.digest(digest.user_id, content)

    @command("next")
    async def next_game(self, interaction: Interaction) -> None:
        """The member's game to play first, privately, in any server."""
        reply = Reply(interaction)
        user_id = interaction.user.id
        listed = await reply.within(self.bot.service.games.to_move(user_id), ephemeral=True)
        found = await reply.within(_playable(self.bot, user_id, listed, 0), ephemeral=True)
        if found is None:
            await reply.send(
                text.say(reader_language(interaction), text.NOTHING_TO_MOVE), ephemeral=True
            )
            return
        content, file, view = await _shown(self.bot, interaction, reply, listed, *found)
        kwargs: dict[str, Any] = {} if view is None else {"view": view}
        await reply.send(content, file=file, ephemeral=True, **kwargs)
        log.info("next for %s: game %s of %s", user_id, found[1].id, len(listed.games))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(YourMoveFeature(bot))
