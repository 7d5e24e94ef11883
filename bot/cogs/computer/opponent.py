"""Playing the computer (コンピュータ対局): `/computer`, the computer's turns, and Retry.

`/computer level:3` starts a game against the bot itself at once, in a thread of its own
like any game. Whenever the bot's turn begins (the game started, the member moved, a
forecast reply was played), `bot_turns` calls this feature, which asks the service for
the engine's move in a task of its own and posts it like a member's move: board, mention
of the member, ending and rematch. If the engine fails twice, the thread hears of it with
a Retry button; a restart also looks again at every game waiting for the computer.
Under the ending, Play again starts the next game (same level, colours swapped).
"""

from __future__ import annotations

import asyncio
import logging

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import (
    NO_ENGINE,
    Cast,
    ComputerFailed,
    Event,
    GameSnapshot,
    PlayerRef,
    ServiceError,
)
from bot.ui import text
from bot.ui.commands import command
from bot.ui.errors import GameButton, view_of
from bot.ui.host import Feature, GameBot, Interaction, host_of
from bot.ui.options import by_member, server_of
from bot.ui.replies import player_of, reader_language, send_ephemeral
from bot.ui.threads import (
    NotPosted,
    announce,
    announce_end,
    begin_game,
    post_forecast_reply,
    post_move,
    post_to_game,
)

log = logging.getLogger(__name__)


class RetryButton(GameButton):
    """Under the post saying the engine failed: ask the computer for its move again.
    Anyone may press it; it does nothing unless it is the computer's turn."""

    KEY = "cp"

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        guild_id = server_of(interaction)
        # Refused (a game between members, another server's) before anything is said.
        await bot.service.computer.seat_in(self.game_id, guild_id=guild_id)
        bot.service.computer.require_engine()  # an engine taken away since the failure
        await send_ephemeral(interaction, text.computer_thinking_text(reader_language(interaction)))
        await take_turn(bot, self.game_id)


class AgainButton(GameButton):
    """Under the ending of a game against the computer: its member plays it again (same
    level and time, colours swapped), in a new thread."""

    KEY = "ca"

    async def press(self, interaction: Interaction) -> None:
        bot = host_of(interaction)
        computer = bot.service.computer
        game = await by_member(interaction, computer.again, self.game_id)
        seat = await computer.seat(game.id)
        level = seat.level if seat is not None else 0
        reader = reader_language(interaction)
        await send_ephemeral(interaction, text.computer_start_text(reader, game, level))
        lang = await bot.post_language(game.guild_id)
        message = None
        try:  # the game has started: without its message, the board goes to the channel
            channel = await bot.channel(game.channel_id)
            if isinstance(channel, discord.abc.Messageable):
                message = await channel.send(
                    text.computer_start_text(lang, game, level),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
        except discord.HTTPException:
            log.warning("could not announce game %s in its channel", game.id, exc_info=True)
        await begin_game(bot, game, message, by=interaction.user.id)


def _as_bot(bot: GameBot) -> PlayerRef:
    user = bot.user
    assert user is not None  # logged in before any command or turn
    return PlayerRef(user.id, user.display_name, True)


async def take_turn(bot: GameBot, game_id: int) -> None:
    """The computer's move in the game, if it is its turn, posted in the thread; the
    member's turn message after it. A failed engine is reported with Retry."""
    try:
        done = await bot.service.computer.play_turn(game_id)
    except ComputerFailed:
        game = await bot.service.games.get(game_id)
        log.warning("game %s: the computer failed to move twice", game_id)
        cast = Cast.of_game(game)
        await announce(
            bot,
            Event.COMPUTER_FAILED,
            game,
            lambda lang: text.computer_failed_text(lang, game),
            cast=cast,
            view=lambda lang: view_of(RetryButton(game_id, lang)),
        )
        return
    except ServiceError as error:  # the engine was taken away since the game began
        refused = error.sentence
        game = await bot.service.games.get(game_id)
        await post_to_game(bot, game, lambda lang: text.say(lang, refused))
        return
    if done is None:
        return
    if done.resigned is not None:
        await announce_end(bot, done.resigned, by=None)
        return
    played = done.played
    assert played is not None
    log.info("game %s ply %s: %s by the computer", game_id, played.game.ply, played.move.usi)
    await post_move(bot, played)
    await post_forecast_reply(bot, played)
    bot.direct_messages.moved(played, by=None)


class ComputerFeature(Feature):
    """Games against the computer."""

    BUTTONS = (RetryButton, AgainButton)

    def __init__(self, bot: GameBot) -> None:
        super().__init__(bot)
        self._tasks: set[asyncio.Task[None]] = set()
        self._resumed = False

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.bot_turns.append(self._bot_turn)
        self.bot.ending_buttons.append(self._again_button)

    async def cog_unload(self) -> None:
        self.bot.bot_turns.remove(self._bot_turn)
        self.bot.ending_buttons.remove(self._again_button)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await super().cog_unload()

    def _again_button(self, game: GameSnapshot, lang: str) -> AgainButton | None:
        """Play again under a game against the computer, while the bot has an engine."""
        if not game.against_computer or self.bot.service.computer.engine is None:
            return None
        return AgainButton(game.id, lang)

    def _bot_turn(self, game: GameSnapshot) -> None:
        """The bot's turn began in `game`: think in a task of its own (the member's
        answer never waits for the engine)."""
        self._start(game.id)

    def _start(self, game_id: int) -> None:
        task = asyncio.get_running_loop().create_task(
            self._turn(game_id), name=f"computer-{game_id}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _turn(self, game_id: int) -> None:
        try:
            await take_turn(self.bot, game_id)
        except NotPosted:
            log.warning("game %s: the computer's move is stored but not posted", game_id)
        except Exception:
            log.exception("game %s: the computer's turn failed", game_id)

    @Feature.listener()
    async def on_ready(self) -> None:
        """After a restart: every game waiting for the computer's move gets it."""
        if self._resumed or self.bot.service.computer.engine is None:
            return
        self._resumed = True
        for game_id in await self.bot.service.computer.waiting():
            self._start(game_id)

    @command("computer", time="computer_time")
    @app_commands.choices(
        color=[Choice(name=name, value=value) for value, name in text.COLOR_NAMES.items()],
    )
    async def computer(
        self,
        interaction: Interaction,
        level: app_commands.Range[int, 1, 8],
        color: str = "random",
        time: str = "unlimited",
    ) -> None:
        """Start the game at once, open its thread, post the start board."""
        bot = self.bot
        member = player_of(interaction)
        game = await bot.service.computer.start(
            guild_id=server_of(interaction),
            channel_id=interaction.channel_id or 0,
            member=member,
            computer=_as_bot(bot),
            level=level,
            color=color,
            time_control=time,
        )
        lang = await bot.post_language(game.guild_id)
        await interaction.response.send_message(
            text.computer_start_text(lang, game, level),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        await begin_game(bot, game, await interaction.original_response(), by=member.user_id)


async def setup(bot: GameBot) -> None:
    await bot.add_cog(ComputerFeature(bot))
    if bot.service.computer.engine is None:  # nothing to offer: the command is not published
        bot.withhold("computer", NO_ENGINE)
