"""The checks Discord makes on what a bot sends, and the errors it answers with.

Why here, apart from the routes: these rules are where a bot goes wrong without noticing
against a lenient fake (a 2,001-character reply, a 26th autocomplete choice, a custom_id of
101 characters, a required option after an optional one).  Discord answers them with 400 and
code 50035, nested ``errors`` naming the field; discord.py prints that, so the fake does too.

What the fake does not model (selects but string selects, components v2, modals with other
than short or paragraph text inputs) is refused
with a 400 that says so: the test fails and names what to add, instead of the fake nodding it
through.
"""

from __future__ import annotations

import re
from typing import Any, Final

from .constants import (
    MAX_ACTION_ROWS,
    MAX_CHOICES,
    MAX_CONTENT,
    MAX_CUSTOM_ID,
    MAX_EMBED_TOTAL,
    MAX_EMBEDS,
    MAX_OPTION_TEXT,
    MAX_PLACEHOLDER,
    MAX_ROW_BUTTONS,
    MAX_SELECT_OPTIONS,
    ButtonStyle,
    ComponentType,
    ErrorCode,
    OptionType,
)
from .models import JSON, walk_components

#: Components v2: a flag the fake refuses as not modelled.
IS_COMPONENTS_V2: Final = 1 << 15
_COMMAND_NAME: Final = re.compile(r"^[-_'\w]{1,32}$")
_USER_MENTION: Final = re.compile(r"<@!?(\d{1,20})>")
_ROLE_MENTION: Final = re.compile(r"<@&(\d{1,20})>")
_EVERYONE_MENTION: Final = re.compile(r"@(everyone|here)\b")


class DiscordHTTPError(Exception):
    """A Discord-shaped error reply: HTTP status, JSON code, message and nested form errors."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def form_error(path: str, message: str, kind: str = "BASE_TYPE_BAD") -> DiscordHTTPError:
    """The 400/50035 error for one bad field, nested as Discord nests it.

    ``path`` is dotted, e.g. ``"data.components.0.components.1.custom_id"``.
    """
    errors: JSON = {}
    node = errors
    for part in path.split("."):
        node = node.setdefault(part, {})
    node["_errors"] = [{"code": kind, "message": message}]
    return DiscordHTTPError(400, ErrorCode.INVALID_FORM_BODY, "Invalid Form Body", errors)


def not_modelled(what: str) -> DiscordHTTPError:
    """A request Discord would take but the fake cannot answer faithfully: refused, so that
    the test fails and says which part of Discord the fake needs to learn."""
    return DiscordHTTPError(400, ErrorCode.GENERAL, f"the fake Discord does not model {what}")


def check_length(value: Any, path: str, *, low: int, high: int) -> None:
    if not isinstance(value, str):
        raise form_error(path, "Must be a string.", "BASE_TYPE_REQUIRED")
    if not low <= len(value) <= high:
        raise form_error(
            path, f"Must be between {low} and {high} in length.", "BASE_TYPE_BAD_LENGTH"
        )


def validate_message(payload: JSON, *, allowed_flags: int, path: str = "") -> None:
    """Content, flags, embeds, components and allowed_mentions of a message the bot sends."""
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            raise form_error(f"{path}content", "Must be a string.")
        if len(content) > MAX_CONTENT:
            raise form_error(
                f"{path}content", "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH"
            )
    flags = int(payload.get("flags") or 0)
    if flags & IS_COMPONENTS_V2:
        raise not_modelled("components v2 (flag IS_COMPONENTS_V2)")
    if flags & ~allowed_flags:
        raise form_error(
            f"{path}flags",
            f"Flags {flags & ~allowed_flags} cannot be set here.",
            "MESSAGE_INVALID_FLAGS",
        )
    if payload.get("embeds") is not None:
        validate_embeds(payload["embeds"], f"{path}embeds")
    if payload.get("components") is not None:
        validate_components(payload["components"], f"{path}components")
    validate_allowed_mentions(payload.get("allowed_mentions"), f"{path}allowed_mentions")


def _validate_button(button: JSON, path: str) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, ButtonStyle.LINK, ButtonStyle.PREMIUM):
        raise form_error(f"{path}.style", "Value must be one of (1, 2, 3, 4, 5, 6).")
    if style == ButtonStyle.PREMIUM:
        raise not_modelled("premium buttons")
    if style == ButtonStyle.LINK:
        if not button.get("url") or "custom_id" in button:
            raise form_error(
                path, "A link button needs a url and no custom_id.", "COMPONENT_LAYOUT"
            )
    else:
        if "url" in button:
            raise form_error(f"{path}.url", "Only link buttons may have a url.")
        check_length(button.get("custom_id"), f"{path}.custom_id", low=1, high=MAX_CUSTOM_ID)
    label = button.get("label")
    if label is not None:
        check_length(label, f"{path}.label", low=0, high=80)
    if not label and not button.get("emoji"):
        raise form_error(path, "A button needs a label or an emoji.", "COMPONENT_LAYOUT")


def _validate_select(select: JSON, path: str) -> None:
    """A string select: its id, 1 to 25 options of distinct values, one value chosen."""
    check_length(select.get("custom_id"), f"{path}.custom_id", low=1, high=MAX_CUSTOM_ID)
    placeholder = select.get("placeholder")
    if placeholder is not None:
        check_length(placeholder, f"{path}.placeholder", low=0, high=MAX_PLACEHOLDER)
    options = select.get("options")
    if not isinstance(options, list) or not 1 <= len(options) <= MAX_SELECT_OPTIONS:
        raise form_error(
            f"{path}.options", "Must be between 1 and 25 in length.", "BASE_TYPE_BAD_LENGTH"
        )
    values: set[str] = set()
    for o, option in enumerate(options):
        opath = f"{path}.options.{o}"
        check_length(option.get("label"), f"{opath}.label", low=1, high=MAX_OPTION_TEXT)
        check_length(option.get("value"), f"{opath}.value", low=1, high=MAX_OPTION_TEXT)
        if option.get("description") is not None:
            check_length(option["description"], f"{opath}.description", low=0, high=MAX_OPTION_TEXT)
        if option["value"] in values:
            raise form_error(f"{opath}.value", "Select values must be unique.", "COMPONENT_LAYOUT")
        values.add(option["value"])
    if select.get("min_values", 1) != 1 or select.get("max_values", 1) != 1:
        raise not_modelled("selects of several values")


def validate_components(components: Any, path: str = "components") -> None:
    """Action rows of buttons (at most 5 rows of 5) or of one string select each, valid
    buttons and selects, unique custom_ids."""
    if not isinstance(components, list):
        raise form_error(path, "Must be an array.")
    if len(components) > MAX_ACTION_ROWS:
        raise form_error(path, "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for r, row in enumerate(components):
        rpath = f"{path}.{r}"
        if not isinstance(row, dict) or row.get("type") != ComponentType.ACTION_ROW:
            raise form_error(f"{rpath}.type", "Top-level components must be action rows.")
        children = row.get("components")
        if not isinstance(children, list) or not 1 <= len(children) <= MAX_ROW_BUTTONS:
            raise form_error(
                f"{rpath}.components",
                "Must be between 1 and 5 in length.",
                "BASE_TYPE_BAD_LENGTH",
            )
        for c, child in enumerate(children):
            if child.get("type") == ComponentType.STRING_SELECT:
                if len(children) != 1:
                    raise form_error(
                        f"{rpath}.components", "A select fills its row.", "COMPONENT_LAYOUT"
                    )
                _validate_select(child, f"{rpath}.components.{c}")
                continue
            if child.get("type") != ComponentType.BUTTON:
                raise not_modelled(f"component type {child.get('type')} (only buttons)")
            _validate_button(child, f"{rpath}.components.{c}")
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            raise form_error(
                path, f"custom_id {custom_id!r} is duplicated.", "COMPONENT_CUSTOM_ID_DUPLICATED"
            )
        seen.add(custom_id)


#: A modal's limits: its title, its rows (one text input each), an input's label and text.
MAX_MODAL_TITLE: Final = 45
MAX_MODAL_ROWS: Final = 5
MAX_INPUT_LABEL: Final = 45
MAX_INPUT_LENGTH: Final = 4000
_TEXT_INPUT = 4


def validate_modal(modal: JSON) -> None:
    """A modal the bot answers with (callback type 9): a custom_id, a title, and one to
    five action rows, each holding one text input with a custom_id and a label."""
    check_length(modal.get("custom_id"), "data.custom_id", low=1, high=MAX_CUSTOM_ID)
    check_length(modal.get("title"), "data.title", low=1, high=MAX_MODAL_TITLE)
    rows = modal.get("components")
    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_MODAL_ROWS:
        raise form_error("data.components", "Must be between 1 and 5 in length.")
    for index, row in enumerate(rows):
        path = f"data.components.{index}"
        inputs = row.get("components") if isinstance(row, dict) else None
        if row.get("type") != 1 or not isinstance(inputs, list) or len(inputs) != 1:
            raise not_modelled(f"a modal row other than one text input ({path})")
        field = inputs[0]
        if not isinstance(field, dict) or field.get("type") != _TEXT_INPUT:
            raise not_modelled(f"a modal component other than a text input ({path})")
        check_length(
            field.get("custom_id"), f"{path}.components.0.custom_id", low=1, high=MAX_CUSTOM_ID
        )
        check_length(field.get("label"), f"{path}.components.0.label", low=1, high=MAX_INPUT_LABEL)
        longest = field.get("max_length", MAX_INPUT_LENGTH)
        if not isinstance(longest, int) or not 1 <= longest <= MAX_INPUT_LENGTH:
            raise form_error(f"{path}.components.0.max_length", "Must be between 1 and 4000.")


def validate_embeds(embeds: Any, path: str = "embeds") -> None:
    """Embed count and text limits, including the 6,000-character total."""
    if not isinstance(embeds, list):
        raise form_error(path, "Must be an array.")
    if len(embeds) > MAX_EMBEDS:
        raise form_error(path, "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    for i, embed in enumerate(embeds):
        texts = [
            (f"{path}.{i}.title", embed.get("title"), 256),
            (f"{path}.{i}.description", embed.get("description"), 4096),
            (f"{path}.{i}.footer.text", (embed.get("footer") or {}).get("text"), 2048),
            (f"{path}.{i}.author.name", (embed.get("author") or {}).get("name"), 256),
        ]
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise form_error(f"{path}.{i}.fields", "Must be 25 or fewer in length.")
        for f, fld in enumerate(fields):
            check_length(fld.get("name"), f"{path}.{i}.fields.{f}.name", low=1, high=256)
            check_length(fld.get("value"), f"{path}.{i}.fields.{f}.value", low=1, high=1024)
            total += len(fld["name"]) + len(fld["value"])
        for field_path, text, high in texts:
            if text is not None:
                check_length(text, field_path, low=0, high=high)
                total += len(text)
    if total > MAX_EMBED_TOTAL:
        raise form_error(path, "Embed size exceeds maximum size of 6000", "BASE_TYPE_MAX_LENGTH")


def validate_allowed_mentions(allowed: Any, path: str = "allowed_mentions") -> None:
    """Discord refuses ``parse: ["users"]`` together with a ``users`` list (and roles)."""
    if allowed is None:
        return
    if not isinstance(allowed, dict):
        raise form_error(path, "Must be an object.")
    parse = allowed.get("parse", [])
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            raise form_error(
                f"{path}.parse",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            )
        if len(allowed.get(kind) or []) > 100:
            raise form_error(f"{path}.{kind}", "Must be 100 or fewer in length.")
    for kind in parse:
        if kind not in ("users", "roles", "everyone"):
            raise form_error(f"{path}.parse", f"Unknown mention type {kind!r}.")


def validate_choices(choices: Any, option_type: int | None) -> None:
    """Autocomplete results: at most 25, names 1-100 characters, values of the option's type."""
    path = "data.choices"
    if not isinstance(choices, list):
        raise form_error(path, "Must be an array.")
    if len(choices) > MAX_CHOICES:
        raise form_error(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, choice in enumerate(choices):
        check_length(choice.get("name"), f"{path}.{i}.name", low=1, high=100)
        value = choice.get("value")
        if option_type == OptionType.STRING:
            check_length(value, f"{path}.{i}.value", low=0, high=100)
        elif option_type == OptionType.INTEGER and (
            not isinstance(value, int) or isinstance(value, bool)
        ):
            raise form_error(f"{path}.{i}.value", "Value is not int.", "NUMBER_TYPE_COERCE")
        elif option_type == OptionType.NUMBER and (
            not isinstance(value, int | float) or isinstance(value, bool)
        ):
            raise form_error(f"{path}.{i}.value", "Value is not a number.", "NUMBER_TYPE_COERCE")


def validate_commands(commands: Any) -> None:
    """What a bulk overwrite must satisfy: names, descriptions, option shapes and counts."""
    if not isinstance(commands, list) or not all(isinstance(c, dict) for c in commands):
        raise form_error("_root", "Must be an array of objects.")
    seen: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = command.get("type", 1)
        name = command.get("name")
        if kind == 1:
            _check_name(name, f"{i}.name", "Command")
            check_length(command.get("description"), f"{i}.description", low=1, high=100)
            _validate_options(command.get("options") or [], f"{i}.options", depth=0)
        else:
            check_length(name, f"{i}.name", low=1, high=32)
        if (kind, name) in seen:
            raise form_error(
                f"{i}.name",
                "Application command names must be unique",
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
            )
        seen.add((kind, str(name)))
    if sum(1 for c in commands if c.get("type", 1) == 1) > 100:
        raise form_error("_root", "Must be 100 or fewer slash commands.")


def _check_name(name: Any, path: str, what: str) -> None:
    if not isinstance(name, str) or not _COMMAND_NAME.match(name) or name != name.lower():
        raise form_error(
            path, f"{what} name {name!r} is invalid.", "APPLICATION_COMMAND_INVALID_NAME"
        )


def _validate_options(options: list[JSON], path: str, *, depth: int) -> None:
    if len(options) > 25:
        raise form_error(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    names: set[str] = set()
    optional_seen = False
    for i, option in enumerate(options):
        opath = f"{path}.{i}"
        name = option.get("name")
        _check_name(name, f"{opath}.name", "Option")
        if name in names:
            raise form_error(
                f"{opath}.name",
                "Option names must be unique.",
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
            )
        names.add(str(name))
        check_length(option.get("description"), f"{opath}.description", low=1, high=100)
        kind = option.get("type")
        if kind in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP):
            if depth >= 2 or (kind == OptionType.SUB_COMMAND_GROUP and depth >= 1):
                raise form_error(f"{opath}.type", "Subcommands nest too deep.")
            _validate_options(option.get("options") or [], f"{opath}.options", depth=depth + 1)
            continue
        if not option.get("required"):
            optional_seen = True
        elif optional_seen:
            raise form_error(
                f"{opath}.required",
                "Required options must be placed before non-required options",
                "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
            )
        choices = option.get("choices") or []
        if len(choices) > 25:
            raise form_error(f"{opath}.choices", "Must be 25 or fewer in length.")
        if choices and option.get("autocomplete"):
            raise form_error(f"{opath}.autocomplete", "Autocomplete cannot be set with choices.")


def compute_mentions(content: str, allowed: JSON | None) -> tuple[set[int], set[int], bool]:
    """Who a message really pings: (user ids, role ids, @everyone) after ``allowed_mentions``.

    With no ``allowed_mentions`` everything written is pinged, as on Discord.
    """
    users = {int(m) for m in _USER_MENTION.findall(content)}
    roles = {int(m) for m in _ROLE_MENTION.findall(content)}
    everyone = bool(_EVERYONE_MENTION.search(content))
    if allowed is None:
        return users, roles, everyone
    parse = allowed.get("parse", [])
    listed_users = {int(u) for u in allowed.get("users") or []}
    listed_roles = {int(r) for r in allowed.get("roles") or []}
    return (
        {u for u in users if "users" in parse or u in listed_users},
        {r for r in roles if "roles" in parse or r in listed_roles},
        everyone and "everyone" in parse,
    )
