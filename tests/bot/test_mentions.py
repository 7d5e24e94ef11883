"""Moves by mention, without Discord: what text a message gives as a move, and the gate
that keeps a flood of mentions to one refusal."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.cogs.play.mentions import REMEMBERED, MentionGate, move_typed

ME = SimpleNamespace(id=1)


def message(content: str, *, mentions: tuple[int, ...] = (1,), **author: Any) -> discord.Message:
    """A stand-in for what discord.py gives a listener: only what `move_typed` reads."""
    return cast(
        discord.Message,
        SimpleNamespace(
            content=content,
            guild=object(),
            webhook_id=None,
            author=SimpleNamespace(id=7, bot=author.get("bot", False)),
            mentions=[SimpleNamespace(id=user) for user in mentions],
        ),
    )


def test_the_move_is_what_is_left_once_mentions_are_out() -> None:
    me = cast(discord.abc.User, ME)
    assert move_typed(message("<@1> ７六歩"), me) == "７六歩"
    assert move_typed(message("<@!1>  P-7f <@&5>"), me) == "P-7f"
    assert move_typed(message("<@1> <@9>"), me) is None  # nothing but mentions
    assert move_typed(message("P-7f", mentions=()), me) is None  # the bot not mentioned
    assert move_typed(message("<@1> P-7f", bot=True), me) is None  # another bot
    assert move_typed(message("<@1> P-7f"), None) is None  # not connected yet


def test_one_mention_at_a_time_and_one_refusal_per_window() -> None:
    now = [0.0]
    gate = MentionGate(window=10.0, clock=lambda: now[0])
    assert gate.enter(7) and not gate.enter(7) and gate.enter(8)
    gate.leave(7)
    assert gate.enter(7) and gate.handling == 2
    assert gate.may_refuse(7) and not gate.may_refuse(7) and gate.may_refuse(8)
    now[0] = 9.9
    assert not gate.may_refuse(7)
    now[0] = 10.0
    assert gate.may_refuse(7) and gate.remembered == 1  # 8's window passed too: forgotten


def test_the_refusals_remembered_are_bounded() -> None:
    gate = MentionGate(window=1e9, clock=lambda: 0.0)
    for member in range(REMEMBERED + 50):
        assert gate.may_refuse(member)
    assert gate.remembered <= REMEMBERED + 1
