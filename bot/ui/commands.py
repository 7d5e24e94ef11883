"""How a feature declares a slash command: by its name alone, its description and every
option's looked up in the wording (`text.COMMANDS`, `text.OPTIONS`) in one place.

An option is described by the `OPTIONS` entry of its own name unless the declaration
names another (`public="show_all"`), and `game` by the entry that says whether finished
games count (`FINISHED_GAMES_TOO`, which also chooses its suggestions), so a new command
is one line over its handler, and an option nobody described fails when the module loads
instead of reaching Discord as "…". The English texts are what discord.py publishes;
the command translator gives Discord their Japanese.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

from discord import app_commands
from discord.app_commands.commands import CommandCallback, GroupT

from . import text
from .options import FINISHED_GAMES_TOO

P = ParamSpec("P")
T = TypeVar("T")
#: A feature's handler takes `self` and the interaction before its options.
_BEFORE_OPTIONS = 2


def command(
    name: str, /, *, everywhere: bool = False, **described_as: str
) -> Callable[[CommandCallback[GroupT, P, T]], app_commands.Command[GroupT, P, T]]:
    """The slash command `/name` of a feature's method, for servers only unless it works
    `everywhere` (in direct messages too); `described_as` maps an option to the `OPTIONS`
    key describing it where that is not the option's own name. Other decorators
    (`choices`, `rename`, `default_permissions`) go below it, as under discord.py's own.

    >>> class Feature:
    ...     @command("resign")
    ...     async def resign(self, interaction, game: int | None = None) -> None: ...
    >>> Feature.resign.name, Feature.resign.description == text.COMMANDS["resign"]
    ('resign', True)
    """

    def declare(callback: CommandCallback[GroupT, P, T]) -> app_commands.Command[GroupT, P, T]:
        options = list(inspect.signature(callback).parameters)[_BEFORE_OPTIONS:]
        unknown = described_as.keys() - set(options)
        if unknown:
            raise TypeError(f"/{name} has no option {', '.join(sorted(unknown))}")
        keys = {option: option for option in options}
        if "game" in keys and name in FINISHED_GAMES_TOO:
            keys["game"] = "finished_game"
        keys.update(described_as)
        descriptions = {option: text.OPTIONS[key] for option, key in keys.items()}
        described: Any = app_commands.describe(**descriptions)(callback)
        if not everywhere:
            described = app_commands.guild_only(described)
        declared: app_commands.Command[GroupT, P, T] = app_commands.command(
            name=name, description=text.COMMANDS[name]
        )(described)
        return declared

    return declare
