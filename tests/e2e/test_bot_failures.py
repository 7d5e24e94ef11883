"""What a member reads when something between the bot and Discord goes wrong after, or
while, the service does its work: never "unchanged" for a stored action, never a public
refusal, and never a lost move."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
import pytest

from bot.ui import replies, text
from tests.fakediscord import CREATE_MESSAGE, ResponseType
from tests.support.checks import without_mark
from tests.support.club import Club


async def test_a_stored_resignation_whose_post_fails_says_so(club: Club) -> None:
    """Discord refuses the post in the thread (missing permission): the resignation
    stands, and the member is told it does, not that nothing changed."""
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    question = await club.fake.slash("resign", user=alice, channel=table.thread)
    [confirm] = question.custom_ids
    club.fake.inject_fault(CREATE_MESSAGE, status=403)
    pressed = await club.fake.click(question, confirm, user=alice)
    await pressed.wait_followups(1)
    assert pressed.content == str(text.RESIGNED)
    [note] = pressed.followups
    assert note.ephemeral and note.content == str(text.NOT_POSTED)
    game = await club.game(table.game_id)
    assert game.outcome is not None and not game.is_active
    assert not club.bot_posts(table.thread, "resigned")


async def test_a_refusal_after_public_thinking_stays_private(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/board thinks in public while its image renders; if rendering then fails, the
    apology is for the member alone and the public note goes away."""
    table = await club.new_game()
    bot = club.bot
    assert bot is not None

    async def broken(*args: Any, **kwargs: Any) -> discord.File:
        await asyncio.sleep(0.3)
        raise RuntimeError("the renderer broke")

    monkeypatch.setattr(bot.boards, "file", broken)
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    club.guard.expect_error_log("unexpected error in /board")
    shown = await club.fake.slash("board", user=club.alice, channel=table.thread)  # public
    await shown.wait_followups(1)
    assert shown.deferred and shown.original is None  # the public "thinking" is gone
    [apology] = shown.followups
    assert apology.ephemeral and "went wrong" in apology.content
    assert not club.bot_posts(table.thread, "went wrong")


async def test_a_slow_button_is_acknowledged_then_its_question_answered(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pressing Promote while the database is slow: the press is acknowledged in time,
    the question is then replaced by what was played, and the board reaches the thread."""
    alice, bob = club.alice, club.bob
    table = await club.new_game(alice, bob)
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    question = await club.fake.slash("move", {"move": "Bx2b"}, user=alice, channel=table.thread)
    promote = next(c for c in question.custom_ids if without_mark(c).endswith("+"))
    moves = club.service.moves
    real_play = moves.play

    async def slow_play(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(0.3)
        return await real_play(*args, **kwargs)

    monkeypatch.setattr(moves, "play", slow_play)
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.05)
    pressed = await club.fake.click(question, promote, user=alice)
    assert pressed.response_type == ResponseType.DEFERRED_UPDATE_MESSAGE
    await club.posts(table.thread, "２二角成")
    assert question.reply is not None
    assert "２二角成" in question.reply.content and question.reply.custom_ids == []


async def test_every_command_and_button_is_logged_with_who_and_where(
    club: Club, caplog: pytest.LogCaptureFixture
) -> None:
    table = await club.new_game()
    with caplog.at_level(logging.INFO, logger="bot.ui.errors"):
        await club.fake.slash("board", user=club.carol, channel=table.thread)
        question = await club.fake.slash("resign", user=club.alice, channel=table.thread)
        await club.fake.click(question, question.custom_ids[0], user=club.alice)
    lines = [r.getMessage() for r in caplog.records]
    where = f"channel {table.thread.id})"
    assert f"/board (user {club.carol.id}, {where}" in lines
    assert f"/resign (user {club.alice.id}, {where}" in lines
    assert f"button rs:{table.game_id} (user {club.alice.id}, {where}" in lines
