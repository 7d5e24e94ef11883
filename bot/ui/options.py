"""What commands share about their options: where a command was used, the `game`
option with its parsing and suggestions, and an attached record file."""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import Any, Protocol, TypeVar

import discord
from discord import app_commands
from discord.app_commands import Choice

from bot.services import GameSnapshot, check_record_size

from . import text
from .errors import OptionError
from .host import GameBot, host_of
from .replies import Reply, reader_language

log = logging.getLogger(__name__)
R_co = TypeVar("R_co", covariant=True)
MAX_CHOICES = 25  # Discord shows at most this many choices or suggestions

#: The commands whose `game` may be a finished game: those that only look at a game, or
#: keep the member's own notes on it. Every other command acts on a game in play, so its
#: suggestions and its default game are active games only.
FINISHED_GAMES_TOO = frozenset(
    {"board", "export", "replay", "note", "notes", "analyse", "explorer"}
)


def takes_finished(interaction: discord.Interaction[Any]) -> bool:
    """Whether the command used takes finished games (see `FINISHED_GAMES_TOO`)."""
    command = interaction.command
    return command is not None and command.name in FINISHED_GAMES_TOO


def server_of(interaction: discord.Interaction[Any]) -> int:
    """The server a command was used in. Every command is for servers only, so Discord
    never sends one from a direct message; this makes that a checked fact."""
    if interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    return interaction.guild_id


def parse_game_id(value: str) -> int:
    """`12`, `#12` or a suggestion's value, as a game id."""
    digits = value.strip().lstrip("#")
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        raise OptionError(text.BAD_GAME_OPTION)
    return int(digits)


class GameOption(app_commands.Transformer):
    """A game id typed or picked from the member's own games in this server: their
    active games, then, for a command that takes them, their latest finished ones."""

    async def transform(self, interaction: discord.Interaction[Any], value: str) -> int:
        return parse_game_id(value)

    async def autocomplete(  # type: ignore[override]  # discord.py types the value loosely
        self, interaction: discord.Interaction[Any], value: str
    ) -> list[Choice[str]]:
        try:
            games = await host_of(interaction).service.games.choices(
                interaction.user.id,
                guild_id=server_of(interaction),
                finished=takes_finished(interaction),
                limit=MAX_CHOICES,
            )
        except Exception:
            log.exception("game suggestions failed")
            return []
        typed = value.strip().lower().lstrip("#")
        choices = []
        for summary in games:
            name = text.game_choice(reader_language(interaction), summary)
            if typed in name.lower():
                choices.append(Choice(name=name, value=str(summary.id)))
        return choices[:MAX_CHOICES]


GameArg = app_commands.Transform[int, GameOption]


def shown_publicly(
    interaction: discord.Interaction[Any], game: GameSnapshot, public: bool | None
) -> bool:
    """Whether an answer about `game` is posted for everyone: as the member asked, else
    yes for the game's players and no for anyone else, so that a spectator's look does
    not fill the players' thread."""
    if public is not None:
        return public
    return game.color_of(interaction.user.id) is not None


async def answer_language(
    bot: GameBot, interaction: discord.Interaction[Any], *, public: bool
) -> str:
    """A public answer is in the server's language, a private one in the member's."""
    if public:
        return await bot.post_language(server_of(interaction))
    return reader_language(interaction)


async def game_meant(
    bot: GameBot, interaction: discord.Interaction[Any], game_id: int | None
) -> int:
    """The id of the game a command means (see `Games.resolve_id`): the `game` option,
    else the game of this thread (finished or not), else the member's only game to move
    here."""
    return await bot.service.games.resolve_id(
        interaction.user.id,
        guild_id=server_of(interaction),
        game_id=game_id,
        thread_id=interaction.channel_id,
        finished=takes_finished(interaction),
    )


class GameAction(Protocol[R_co]):
    """What a member does to a game, as the service takes it: the game, the member, and
    the server it must belong to (a game of another server is refused as not found)."""

    def __call__(self, game_id: int, user_id: int, /, *, guild_id: int) -> Awaitable[R_co]: ...


async def by_member(
    interaction: discord.Interaction[Any], action: GameAction[R_co], game_id: int
) -> R_co:
    """`action` on the game `game_id` by the member who acted, in the server they acted in
    (a button carries its game)."""
    return await action(game_id, interaction.user.id, guild_id=server_of(interaction))


async def on_game_meant(
    bot: GameBot, interaction: discord.Interaction[Any], game: int | None, action: GameAction[R_co]
) -> R_co:
    """`action` by the member who acted on the game their command means (`game_meant`):
    the opening of every command that acts on one game; a refusal is raised to the one
    error report."""
    return await by_member(interaction, action, await game_meant(bot, interaction, game))


async def record_file(reply: Reply, attachment: discord.Attachment, *, public: bool) -> bytes:
    """The bytes of a record file attached to a command (`/board`, `/challenge`), refused
    from its size before it is downloaded; a slow download defers the answer, publicly or
    not as the answer will be. Its text (UTF-8 or Shift_JIS) is the reader's to decode."""
    check_record_size(attachment.size)
    return await reply.within(attachment.read(), ephemeral=not public)
