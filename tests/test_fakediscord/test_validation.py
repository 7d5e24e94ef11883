"""The fake's payload checks alone: each limit Discord enforces, just inside and just over."""

from __future__ import annotations

from typing import Any

import pytest

from tests.fakediscord.constants import Intent, MessageFlag, OptionType
from tests.fakediscord.gateway import wants
from tests.fakediscord.validation import (
    IS_COMPONENTS_V2,
    DiscordHTTPError,
    compute_mentions,
    validate_allowed_mentions,
    validate_choices,
    validate_commands,
    validate_components,
    validate_embeds,
    validate_message,
    validate_modal,
)

JSON = dict[str, Any]


def button(custom_id: str = "b", **extra: Any) -> JSON:
    return {"type": 2, "style": 1, "label": "ok", "custom_id": custom_id, **extra}


def row(*buttons: JSON) -> JSON:
    return {"type": 1, "components": list(buttons)}


def refused(check: Any, *args: Any, **kwargs: Any) -> DiscordHTTPError:
    with pytest.raises(DiscordHTTPError) as caught:
        check(*args, **kwargs)
    return caught.value


def test_message_content_and_flags() -> None:
    validate_message({"content": "x" * 2000}, allowed_flags=0)
    too_long = refused(validate_message, {"content": "x" * 2001}, allowed_flags=0)
    assert too_long.code == 50035 and "content" in str(too_long.errors)
    nested = refused(validate_message, {"content": "x" * 2001}, allowed_flags=0, path="data.")
    assert nested.errors is not None and "content" in nested.errors["data"]
    ephemeral = {"content": "x", "flags": MessageFlag.EPHEMERAL}
    validate_message(ephemeral, allowed_flags=MessageFlag.EPHEMERAL)
    assert "flags" in str(refused(validate_message, ephemeral, allowed_flags=0).errors)
    v2 = refused(validate_message, {"flags": IS_COMPONENTS_V2}, allowed_flags=IS_COMPONENTS_V2)
    assert "does not model" in v2.message


def test_components_are_rows_of_buttons() -> None:
    validate_components([row(*(button(str(i)) for i in range(5)))])
    validate_components([row(button(f"r{r}")) for r in range(5)])
    validate_components([row({"type": 2, "style": 5, "label": "site", "url": "https://x"})])
    bad: list[list[JSON]] = [
        [row(button("x" * 101))],  # custom_id over 100 characters
        [row(button(f"r{r}")) for r in range(6)],  # six rows
        [row(*(button(str(i)) for i in range(6)))],  # six buttons in a row
        [button("bare")],  # a button outside a row
        [row(button("same"), button("same"))],  # a custom_id twice
        [row({"type": 2, "style": 1, "custom_id": "c"})],  # no label, no emoji
        [row({"type": 2, "style": 5, "label": "l", "url": "u", "custom_id": "c"})],
    ]
    for components in bad:
        assert refused(validate_components, components).code == 50035, components
    select = refused(validate_components, [row({"type": 3, "custom_id": "s", "options": []})])
    assert select.code == 50035  # a string select needs options (see test_selects)
    user_select = refused(validate_components, [row({"type": 5, "custom_id": "u"})])
    assert "does not model component type 5" in user_select.message


def test_a_modal_holds_rows_of_one_text_input() -> None:
    def text_input(custom_id: str = "f", label: str = "Label") -> JSON:
        return {"type": 4, "custom_id": custom_id, "label": label, "style": 1}

    validate_modal({"custom_id": "m", "title": "T", "components": [row(text_input())]})
    bad: list[JSON] = [
        {"custom_id": "m", "title": "x" * 46, "components": [row(text_input())]},
        {"custom_id": "m", "title": "T", "components": []},
        {"custom_id": "m", "title": "T", "components": [row(text_input(str(i))) for i in range(6)]},
        {"custom_id": "m", "title": "T", "components": [row(text_input(label=""))]},
    ]
    for modal in bad:
        assert refused(validate_modal, modal).code == 50035, modal
    select = {"custom_id": "m", "title": "T", "components": [row({"type": 3, "custom_id": "s"})]}
    assert "does not model a modal component" in refused(validate_modal, select).message


def test_embeds() -> None:
    validate_embeds([{"title": "t" * 256, "description": "d" * 4096}])
    bad: list[list[JSON]] = [
        [{"title": "t" * 257}],
        [{}] * 11,
        [{"description": "d" * 4000}, {"description": "d" * 2001}],  # 6,001 in all
        [{"fields": [{"name": "n", "value": ""}]}],
    ]
    for embeds in bad:
        assert refused(validate_embeds, embeds).code == 50035


def test_allowed_mentions_and_who_is_pinged() -> None:
    validate_allowed_mentions({"parse": [], "users": ["1"]})
    refused(validate_allowed_mentions, {"parse": ["users"], "users": ["1"]})
    refused(validate_allowed_mentions, {"parse": ["channels"]})
    text = "<@1> <@!2> <@&3> @everyone"
    assert compute_mentions(text, None) == ({1, 2}, {3}, True)
    assert compute_mentions(text, {"parse": [], "users": ["2"]}) == ({2}, set(), False)
    assert compute_mentions(text, {"parse": ["roles", "everyone"]}) == (set(), {3}, True)


def test_autocomplete_choices() -> None:
    validate_choices([{"name": str(i), "value": str(i)} for i in range(25)], OptionType.STRING)
    refused(validate_choices, [{"name": str(i), "value": str(i)} for i in range(26)], 3)
    refused(validate_choices, [{"name": "", "value": "x"}], OptionType.STRING)
    refused(validate_choices, [{"name": "n", "value": "1"}], OptionType.INTEGER)
    validate_choices([{"name": "n", "value": 1.5}], OptionType.NUMBER)


def test_registered_commands() -> None:
    option = {"name": "move", "description": "The move", "type": 3, "required": True}
    good = {"name": "move", "description": "Play a move", "options": [option]}
    validate_commands([good])
    optional = {**option, "name": "game", "required": False}
    for commands in (
        [{**good, "name": "Move"}],  # names are lower case
        [{**good, "description": ""}],
        [good, good],  # names are unique
        [{**good, "options": [optional, option]}],  # required before optional
        [{**good, "options": [{**option, "choices": [{}] * 26}]}],
        [{**good, "options": [{**option, "autocomplete": True, "choices": [{"name": "a"}]}]}],
        [{"name": f"c{i}", "description": "d"} for i in range(101)],
    ):
        assert refused(validate_commands, commands).code == 50035


def test_intents_decide_which_events_a_session_gets() -> None:
    assert wants(Intent.GUILDS, "GUILD_CREATE") and wants(Intent.GUILDS, "THREAD_CREATE")
    assert wants(Intent.GUILDS, "INTERACTION_CREATE")
    assert not wants(Intent.GUILDS, "MESSAGE_CREATE")
    assert wants(Intent.GUILDS | Intent.GUILD_MESSAGES, "MESSAGE_UPDATE")
    assert not wants(0, "GUILD_CREATE")
