"""Replays: `/replay` shows a game at one move, privately, with buttons to step through it.

Every answer is private: it is the member's own study, so it fills nobody's thread and
may be pressed as much as they like. Each button carries the game and the move it goes
to, so a replay left open keeps working after a restart; a press is answered by editing
the same message. Any game of the server may be replayed, an active one too: every
position it shows was posted in the game's thread already.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.services import ReplayStep
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.options import GameArg, game_meant, server_of
from bot.ui.replies import Reply, reader_language
from rules import Color

log = logging.getLogger(__name__)
FARTHEST_MOVE = 10_000  # beyond any game: asking for more shows the last move

#: The replay's buttons: their key, their symbol, and how many moves they go (None: to
#: the start or the end).
STEPS: tuple[tuple[str, str, int | None], ...] = (
    ("first", "⏮", None),
    ("back10", "◀◀", -10),
    ("back", "◀", -1),
    ("next", "▶", 1),
    ("next10", "▶▶", 10),
    ("last", "⏭", None),
)
_SYMBOLS = {key: symbol for key, symbol, _ in STEPS}


class ReplayButton(
    GameButton,
    template=r"rp:(?P<step>first|back10|back|next|next10|last):(?P<game_id>\d+):(?P<ply>\d+)",
):
    """Show the replay's game at move `ply` (where this button goes), in the same message."""

    def __init__(self, step: str, game_id: int, ply: int, *, here: bool = False) -> None:
        self.show(f"rp:{step}:{game_id}:{ply}", _SYMBOLS[step], discord.ButtonStyle.secondary)
        self.item.disabled = here  # it would go where the replay already is
        self.game_id = game_id
        self.ply = ply

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        reply = Reply(interaction)
        step = await bot.service.games.at_ply(
            self.game_id, self.ply, guild_id=server_of(interaction)
        )
        content, file, view = await _shown(bot, interaction, reply, step)
        await reply.edit(content, attachments=[file], view=view)


def replay_buttons(step: ReplayStep) -> discord.ui.View:
    """The six buttons under a replay at `step`; those that would go nowhere are greyed."""
    buttons = []
    for key, _, moves in STEPS:
        if moves is None:
            target = 0 if key == "first" else step.last
        else:
            target = max(0, min(step.ply + moves, step.last))
        buttons.append(ReplayButton(key, step.board.id, target, here=target == step.ply))
    return view_of(*buttons)


async def _shown(
    bot: GameBot, interaction: Interaction, reply: Reply, step: ReplayStep
) -> tuple[str, discord.File, discord.ui.View]:
    """The replay's text, board and buttons, in the member's language and facing them if
    they play the game."""
    lang = reader_language(interaction)
    own = step.board.color_of(interaction.user.id)
    facing = Color.SENTE if own is None else own
    file = await reply.within(bot.boards.file(step.board, lang, perspective=facing), ephemeral=True)
    return text.replay_text(lang, step), file, replay_buttons(step)


class ReplayFeature(Feature):
    """Stepping through games."""

    BUTTONS = (ReplayButton,)

    @command("replay")
    async def replay(
        self,
        interaction: Interaction,
        game: GameArg | None = None,
        from_move: app_commands.Range[int, 0, FARTHEST_MOVE] | None = None,
    ) -> None:
        """The game at `from_move`, privately, with the buttons to step through it.
        `from_move` is the move number the thread shows (a game set up after move 30
        starts at 30), its start when not given; the buttons carry plies."""
        reply = Reply(interaction)
        game_id = await game_meant(self.bot, interaction, game)
        games, guild_id = self.bot.service.games, server_of(interaction)
        if from_move is None:
            step = await games.at_ply(game_id, 0, guild_id=guild_id)
        else:
            step = await games.at_move(game_id, from_move, guild_id=guild_id)
        content, file, view = await _shown(self.bot, interaction, reply, step)
        await reply.send(content, file=file, view=view, ephemeral=True)
        log.info("game %s replayed from move %s", game_id, step.ply)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ReplayFeature(bot))
