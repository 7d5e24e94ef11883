"""The fake Discord checks a string select as Discord does: 1 to 25 options of distinct
values, labels and values of at most 100 characters, a select alone in its row."""

from __future__ import annotations

import pytest

from tests.fakediscord.validation import DiscordHTTPError, validate_components


def select(count: int, *, label: str = "x", value: str | None = None) -> dict[str, object]:
    options = [{"label": label, "value": value or str(i)} for i in range(count)]
    return {"type": 3, "custom_id": "pk:1:0:h00000000:b", "options": options}


def row(*children: dict[str, object]) -> list[dict[str, object]]:
    return [{"type": 1, "components": list(children)}]


def test_a_select_of_25_options_is_taken() -> None:
    validate_components(row(select(25)))


@pytest.mark.parametrize(
    "components",
    [
        row(select(26)),
        row(select(0)),
        row(select(2, value="same")),
        row(select(1, label="x" * 101)),
        row(select(1), {"type": 2, "style": 1, "label": "b", "custom_id": "b"}),
    ],
    ids=["26 options", "no option", "same values", "long label", "shares its row"],
)
def test_a_select_discord_refuses_is_refused(components: list[dict[str, object]]) -> None:
    with pytest.raises(DiscordHTTPError):
        validate_components(components)
