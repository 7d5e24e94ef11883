"""Playing: `/move`, its suggestions, and the Promote / Don't promote buttons.

The board after a move goes publicly into the game's thread with a mention of
the player to move; the mover gets a private note wherever else they typed.
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import AmbiguousMove, PlayedMove
from bot.ui import text
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, host_of
from bot.ui.options import MAX_CHOICES, GameArg, parse_game_id
from bot.ui.replies import Reply, mentions, player_of, send_ephemeral
from bot.ui.suggestions import rank_moves
from bot.ui.threads import post_to_game

log = logging.getLogger(__name__)


class PromotionButton(
    GameButton,
    template=r"pr:(?P<game_id>\d+):(?P<ply>\d+):(?P<usi>[1-9][a-i][1-9][a-i]\+?)",
):
    """Promote / Don't promote, for a move that left the choice open. The ply in the id
    makes a late click on an old question fail cleanly instead of playing a move into a
    position that has changed."""

    def __init__(self, game_id: int, ply: int, usi: str) -> None:
        promote = usi.endswith("+")
        super().__init__(
            f"pr:{game_id}:{ply}:{usi}",
            text.BUTTON_LABELS["promote" if promote else "keep"],
            discord.ButtonStyle.primary if promote else discord.ButtonStyle.secondary,
        )
        self.game_id, self.ply, self.usi = game_id, ply, usi

    async def press(self, interaction: discord.Interaction[Any]) -> None:
        await play(host_of(interaction), interaction, self.game_id, self.usi, expected_ply=self.ply)


async def play(
    bot: GameBot,
    interaction: discord.Interaction[Any],
    game_id: int | None,
    move: str,
    *,
    expected_ply: int | None = None,
) -> None:
    """Play and announce a move, answering Discord in time however slow the database or
    the renderer is today."""
    reply = Reply(interaction)
    service = bot.service
    user = player_of(interaction)
    guild_id = interaction.guild_id or 0

    async def work() -> PlayedMove:
        resolved = await service.games.resolve_id(
            user.user_id, guild_id=guild_id, game_id=game_id, thread_id=interaction.channel_id
        )
        return await service.moves.play(
            resolved,
            user.user_id,
            move,
            expected_ply=expected_ply,
            guild_id=guild_id,
            name=user.name,
        )

    try:
        played = await reply.within(work(), private=True)
    except AmbiguousMove as question:
        if question.promotion_choice is None:
            raise
        buttons = [
            PromotionButton(question.game_id, question.ply, choice.usi)
            for choice in question.promotion_choice
        ]
        await send_ephemeral(interaction, text.safe(question.message), view=view_of(*buttons))
        return
    log.info("game %s ply %s: %s", played.game.id, played.game.ply, played.move.usi)
    await _announce(bot, reply, played)


async def _announce(bot: GameBot, reply: Reply, played: PlayedMove) -> None:
    """The board publicly in the game's thread, a private note elsewhere.

    In the thread, a quick answer is the board itself. A slow one was deferred privately,
    and the board is posted as a new message: the edit that replaces "thinking…" would
    not notify the player it mentions. The move is stored by now, so the thread hears of
    it even when Discord has given up on the interaction.
    """
    interaction, game = reply.interaction, played.game
    content = text.move_text(played)
    note = text.played_note(played.move)
    board: discord.File | bool = True
    if interaction.type is discord.InteractionType.component:
        await reply.edit(f"{note}.", view=None)
    elif interaction.channel_id == game.thread_id and not interaction.response.is_done():
        try:
            board = await reply.within(bot.boards.file(game), private=True)
            if not interaction.response.is_done():
                await reply.send(content, file=board, allowed_mentions=mentions(played.next_player))
                await _note_ending(bot, played)
                return
            await reply.send(f"{note}.", ephemeral=True)
        except discord.NotFound:
            log.warning("interaction %s expired; posting game %s's move", interaction.id, game.id)
            board = True
    else:
        await send_ephemeral(interaction, text.played_elsewhere(played.move, game.thread_id))
    await post_to_game(bot, game, content, board=board, ping=played.next_player)
    await _note_ending(bot, played)


async def _note_ending(bot: GameBot, played: PlayedMove) -> None:
    """A move that ended the game (mate, repetition) announced the ending with its board."""
    if played.outcome is not None:
        await bot.service.store.mark_end_announced(played.game.id)


class Play(Feature):
    """Moves."""

    BUTTONS = (PromotionButton,)

    @app_commands.command(name="move", description="Play a move: P-7f, ７六歩, 7g7f, ...")
    @app_commands.describe(
        move="Your move in Western (P-7f), Japanese (７六歩) or USI (7g7f) notation",
        game=text.GAME_OPTION,
    )
    async def move(
        self, interaction: discord.Interaction[Any], move: str, game: GameArg | None = None
    ) -> None:
        await play(self.bot, interaction, game, move)

    @move.autocomplete("move")
    async def move_suggestions(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        """Legal moves matching what is typed, for the player to move only."""
        games = self.bot.service.games
        try:
            typed_game = getattr(interaction.namespace, "game", None)
            game_id = await games.resolve_id(
                interaction.user.id,
                guild_id=interaction.guild_id or 0,
                game_id=parse_game_id(str(typed_game)) if typed_game else None,
                thread_id=interaction.channel_id,
            )
            moves = await games.legal_moves(game_id, interaction.user.id)
        except Exception as error:
            log.debug("no move suggestions: %s", error)
            return []
        return [
            Choice(name=text.move_choice(m), value=m.usi)
            for m in rank_moves(moves, current, MAX_CHOICES)
        ]


async def setup(bot: GameBot) -> None:
    await bot.add_cog(Play(bot))
