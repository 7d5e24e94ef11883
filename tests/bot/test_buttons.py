"""Button ids: what a restart-proof button carries, and ids of older versions still read."""

from __future__ import annotations

from typing import Any, cast

import discord
import pytest

from bot.cogs.clock.announcements import GiveTimeButton
from bot.cogs.club.challenges import ChallengeButton
from bot.cogs.play.endings import ResignButton
from bot.cogs.play.moves import ConfirmButton, MoveButton
from bot.cogs.play.takebacks import TakebackButton
from bot.cogs.records.replays import ReplayButton
from bot.ui.errors import MAX_ID, GameButton, is_ours


async def rebuilt(cls: type[GameButton], custom_id: str) -> Any:
    """The button discord.py would rebuild from `custom_id` after a restart."""
    match = cls.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None, custom_id
    return await cls.from_custom_id(cast(Any, None), cast(Any, None), match)


async def test_a_button_of_one_game_is_made_from_its_key() -> None:
    """A button that carries one game names its key and style only: its id, its label
    in the reader's language and its template follow from them."""
    made = GiveTimeButton(12, "ja")
    assert (made.custom_id, made.item.label) == ("gt:12", "期限を延ばす")
    assert made.item.style is discord.ButtonStyle.secondary
    assert GiveTimeButton.__discord_ui_compiled_template__.pattern == r"gt:(?P<game_id>\d+)"
    again = await rebuilt(GiveTimeButton, "gt:12")
    assert (again.game_id, again.custom_id, again.forged) == (12, "gt:12", False)


def test_a_button_with_neither_key_nor_template_is_refused() -> None:
    with pytest.raises(TypeError, match="Nameless needs a template or a KEY"):

        class Nameless(GameButton):
            pass


async def test_a_promotion_button_keeps_game_ply_move_and_position() -> None:
    made = MoveButton(7, 2, "8h2b+", "h0a1b2c3d")
    assert made.custom_id == "pr:7:2:8h2b+:h0a1b2c3d"
    again = await rebuilt(MoveButton, made.custom_id)
    assert (again.game_id, again.ply, again.usi, again.position) == (7, 2, "8h2b+", "h0a1b2c3d")


async def test_a_button_from_before_position_marks_still_works() -> None:
    """Buttons posted by an older version have no mark: they are judged by the ply alone."""
    old = await rebuilt(MoveButton, "pr:7:2:8h2b")
    assert (old.ply, old.usi, old.position) == (2, "8h2b", None)
    confirm = await rebuilt(ConfirmButton, "cf:play:7:0:P*5e")
    assert (confirm.action, confirm.usi, confirm.position) == ("play", "P*5e", None)


def test_a_mark_of_digits_only_stays_text() -> None:
    """Digit groups become ints; a position mark starts with `h` so it never does."""
    match = MoveButton.__discord_ui_compiled_template__.fullmatch("pr:7:2:7g7f:h12345678")
    assert match is not None and match.group("position") == "h12345678"


FORGED_NUMBERS = ("9223372036854775808", "9" * 20, "1" + "0" * 5_000, "١٢")


@pytest.mark.parametrize("number", FORGED_NUMBERS, ids=("2^63", "20 digits", "10^5000", "arabic"))
@pytest.mark.parametrize(
    ("cls", "template"),
    [
        (ResignButton, "rs:{n}"),
        (ChallengeButton, "ch:accept:{n}"),
        (TakebackButton, "tb:accept:1:2:{n}"),
        (TakebackButton, "tb:decline:{n}:2:3"),
        (ReplayButton, "rp:next:1:{n}"),
        (MoveButton, "pr:1:{n}:7g7f"),
    ],
)
async def test_an_id_no_database_holds_rebuilds_a_forged_button(
    cls: type[GameButton], template: str, number: str
) -> None:
    """A number beyond a signed 64-bit column (or not in ASCII digits) is never converted
    for a query: the button is rebuilt as forged, and its press answers as a stale one."""
    button = await rebuilt(cls, template.format(n=number))
    assert button.forged


async def test_the_largest_stored_id_is_still_an_id() -> None:
    button = await rebuilt(ResignButton, f"rs:{MAX_ID}")
    assert not button.forged and button.game_id == 2**63 - 1


def test_ids_the_bot_makes_are_its_own_and_others_are_not() -> None:
    """A press whose id is not the bot's is answered as a stale button (`is_ours` False)."""
    assert is_ours(MoveButton(7, 2, "8h2b+", "h0a1b2c3d").custom_id)
    assert is_ours(ConfirmButton("play", 7, 0, "P*5e").custom_id)
    assert is_ours("rs:" + "9" * 30)  # ours in shape: answered by the button, as forged
    assert not is_ours("ch:steal:1")
    assert not is_ours("rs:-1")
    assert not is_ours("")
