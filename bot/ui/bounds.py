"""The bounds a command declares for its options, checked before the command runs.

Discord enforces an option's type, range, length and choices in its own client, and
discord.py trusts what arrives; a modified client can send `at_move: 10**18`, a level
of -1 or a colour that is not offered. Each command declares its bounds once
(`app_commands.Range`, `choices`), so they are checked here once, for every command,
before any conversion or query: a value outside them gets one sentence (and a request for
suggestions, which cannot show one, an empty list).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import app_commands
from discord.enums import AppCommandOptionType

from rules import Sentence

from . import text

#: What Discord itself allows where a command sets no bound: integers of JavaScript's
#: safe range, strings of 6,000 characters.
_SAFE_INTEGER = 2**53
_LONGEST_STRING = 6_000
#: Where Discord sends the object an option of each kind names (by its id).
_RESOLVED = {
    AppCommandOptionType.user: ("users",),
    AppCommandOptionType.mentionable: ("users", "roles"),
    AppCommandOptionType.channel: ("channels",),
    AppCommandOptionType.role: ("roles",),
    AppCommandOptionType.attachment: ("attachments",),
}
_GROUPS = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)
_NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)


def _options(options: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The options given to the command run, inside any sub-command."""
    for option in options:
        if option.get("type") in _GROUPS:
            yield from _options(option.get("options") or [])
        else:
            yield option


def out_of_bounds(interaction: discord.Interaction[Any]) -> Sentence | None:
    """What is wrong with an option outside the bounds its command declares, else None.

    For example `/board at_move:-1`, where Discord offers 0 to 10,000, is refused with
    "That number is out of range: give one from 0 to 10000." While suggestions are asked,
    the option being typed is text of any length Discord allows.
    """
    command = interaction.command
    data: Mapping[str, Any] = interaction.data or {}
    if not isinstance(command, app_commands.Command):
        return None
    parameters = {parameter.display_name: parameter for parameter in command.parameters}
    resolved: Mapping[str, Any] = data.get("resolved") or {}
    for option in _options(list(data.get("options") or [])):
        parameter = parameters.get(str(option.get("name")))
        if parameter is None:
            continue
        value = option.get("value")
        if option.get("focused"):  # what is typed so far, always sent as text
            if not isinstance(value, str) or len(value) > _LONGEST_STRING:
                return text.BAD_OPTION
            continue
        problem = _problem(parameter, value, resolved)
        if problem is not None:
            return problem
    return None


def _problem(
    parameter: app_commands.Parameter, value: object, resolved: Mapping[str, Any]
) -> Sentence | None:
    if parameter.type in _RESOLVED:
        kinds = _RESOLVED[parameter.type]
        if not isinstance(value, str) or not any(value in (resolved.get(k) or {}) for k in kinds):
            return text.BAD_OPTION  # an id Discord did not send the member, role or file of
    elif parameter.type in _NUMBERS:
        if isinstance(value, bool) or not isinstance(value, int | float):
            return text.BAD_OPTION
        if parameter.type is AppCommandOptionType.integer and not isinstance(value, int):
            return text.BAD_OPTION
        low = -_SAFE_INTEGER if parameter.min_value is None else parameter.min_value
        high = _SAFE_INTEGER if parameter.max_value is None else parameter.max_value
        if not low <= value <= high:
            return text.out_of_range(low, high)
    elif parameter.type is AppCommandOptionType.string:
        if not isinstance(value, str):
            return text.BAD_OPTION
        low = 0 if parameter.min_value is None else int(parameter.min_value)
        high = _LONGEST_STRING if parameter.max_value is None else int(parameter.max_value)
        if not low <= len(value) <= high:
            return text.text_length(low, high)
    if parameter.choices and value not in [choice.value for choice in parameter.choices]:
        return text.BAD_OPTION
    return None
