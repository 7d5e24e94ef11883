"""`/explorer` (`/定跡`): the moves played from a position in this server's finished games,
most played first, with their results, as a board with arrows and a list, privately; a
menu under it follows one of the moves, editing the same private message, so a member
walks the tree of the club's games.

The menu's id carries the position's key and each option the move (USI); a choice is
checked by the service against the server's games (a move nobody played from that
position there, forged or stale, gets one sentence), so the menu works after a restart
and shows nothing of another server.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.services import MAX_MOVES, Exploration, read_position
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameSelect, OptionError, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.options import GameArg, server_of
from bot.ui.replies import Reply, reader_language
from render.arrows import Arrow
from rules import Position

log = logging.getLogger(__name__)
#: The most arrows on the board: more would hide it.
MAX_ARROWS = 8
_KEY_BITS = 1 << 64


def _key_text(key: int) -> str:
    """A position's signed 64-bit key as the 16 hex digits a select id carries."""
    return f"{key % _KEY_BITS:016x}"


def _key_of(digits: str) -> int:
    number = int(digits, 16)
    return number - _KEY_BITS if number >= 1 << 63 else number


class ExplorerSelect(GameSelect, template=r"ex:(?P<key>[0-9a-f]{16})"):
    """The moves played from the explored position: choosing one explores the position
    it leads to."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.stand_in(f"ex:{key}")  # options: see `of`

    @classmethod
    def of(cls, lang: str, explored: Exploration) -> ExplorerSelect:
        select = cls(_key_text(explored.key))
        select.item.placeholder = text.explorer_placeholder(lang)
        select.item.options = [
            discord.SelectOption(
                label=text.explorer_option(lang, explored, move), value=move.move.usi()
            )
            for move in explored.moves[:MAX_MOVES]
        ]
        return select

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        reply = Reply(interaction)
        chosen = GameSelect.chosen(interaction)
        usi = "" if chosen is None else chosen  # none, or several: a move played nowhere
        following = bot.service.explorer.follow(server_of(interaction), _key_of(self.key), usi)
        explored = await reply.within(following, ephemeral=True)
        content, file, view = await _shown(bot, interaction, explored)
        await reply.edit(content, attachments=[file], view=view)


async def _shown(
    bot: GameBot, interaction: Interaction, explored: Exploration
) -> tuple[str, discord.File, discord.ui.View | None]:
    """The explorer's list, board and menu, in the member's language."""
    lang = reader_language(interaction)
    most = explored.moves[0].games if explored.moves else 1
    arrows = [Arrow(move.move, move.games / most) for move in explored.moves[:MAX_ARROWS]]
    alt = text.explorer_alt_text(lang, explored)
    file = await bot.boards.arrows_file(explored.position, arrows, lang, alt)
    content = text.explorer_text(lang, explored, server_of(interaction))
    view = view_of(ExplorerSelect.of(lang, explored)) if explored.moves else None
    return content, file, view


class ExplorerFeature(Feature):
    """The explorer over this server's games."""

    BUTTONS = (ExplorerSelect,)

    @command("explorer", game="explorer_game", position="explorer_position")
    async def explorer(
        self,
        interaction: Interaction,
        game: GameArg | None = None,
        at_move: app_commands.Range[int, 0, 10_000] | None = None,
        position: app_commands.Range[str, 1, 6000] | None = None,
    ) -> None:
        """From the usual start, from a game of this server after its move `at_move` (its
        last by default), or from an SFEN or pasted record (read as `/board` reads one,
        in a worker with a time limit); always privately."""
        reply = Reply(interaction)
        guild_id = server_of(interaction)
        explorer = self.bot.service.explorer
        if game is not None and position is not None:
            raise OptionError(text.GAME_OR_POSITION)
        if position is not None:
            reading = self.bot.readers.run(read_position, position, at_move)
            shown = await reply.within(reading, ephemeral=True)
            work = explorer.explore(guild_id, shown.position)
        elif game is not None:
            work = explorer.at_game(game, at_move, guild_id=guild_id)
        elif at_move is not None:
            raise OptionError(text.EXPLORER_MOVE_WITHOUT_GAME)
        else:
            work = explorer.explore(guild_id, Position.initial())
        explored = await reply.within(work, ephemeral=True)
        content, file, view = await _shown(self.bot, interaction, explored)
        if view is None:
            await reply.send(content, file=file, ephemeral=True)
        else:
            await reply.send(content, file=file, view=view, ephemeral=True)
        log.info("explorer: %s moves", len(explored.moves))


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ExplorerFeature(bot))
