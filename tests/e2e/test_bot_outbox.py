"""The outbox through the real client and the fake Discord: a member's command is answered
while hundreds of the bot's own sends wait their turn, a send Discord refuses is dropped
once, and a reminder for a game whose thread is gone goes where the game went on."""

from __future__ import annotations

import asyncio
import time
from datetime import timedelta
from pathlib import Path

from bot.services import Send
from tests.fakediscord import BotRunner, E2EGuard, ErrorCode, FakeDiscord
from tests.support.club import Club, open_club
from tests.support.stall import LoopProbe

BURST = 500
RATE = 50.0


async def test_a_move_is_answered_during_a_burst_of_queued_sends(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(fake_discord, bot_runner, e2e_guard, tmp_path, outbox_rate=RATE)
    table = await club.new_game()
    assert club.bot is not None and club.bot.outbox_sender is not None
    sender = club.bot.outbox_sender
    await club.bot.sends_settled()
    before = sender.sent
    for number in range(BURST):
        await club.service.outbox.message(
            Send.MESSAGE, club.carol.user.id, f"news {number}", silent=False
        )
    async with LoopProbe() as probe:
        asked = time.monotonic()
        moved = await club.move(club.alice, "7g7f", table, fast=True)
        answered_after = time.monotonic() - asked
        sent_meanwhile = sender.sent - before
        await asyncio.wait_for(club.bot.sends_settled(), timeout=120)
    assert moved.content.startswith("1. ☗７六歩"), moved.content
    # The burst takes BURST / RATE = 10 s; the answer comes long before it is done.
    assert sent_meanwhile < BURST / 2, (sent_meanwhile, answered_after)
    assert probe.worst < 0.1, probe.report()  # the queue never holds the loop
    told = [m.content for m in club.fake.direct_messages(club.carol)]
    assert sorted(told) == sorted(f"news {number}" for number in range(BURST))  # each once


async def test_sends_queued_at_a_restart_go_out_after_it_each_once(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(fake_discord, bot_runner, e2e_guard, tmp_path, outbox_rate=RATE)
    assert club.bot is not None
    for number in range(100):
        await club.service.outbox.message(
            Send.MESSAGE, club.carol.user.id, f"news {number}", silent=False
        )
    await asyncio.sleep(0.5)  # some go out at 50 a second, then the bot stops
    bot = await club.restart()
    told_before = len(club.fake.direct_messages(club.carol))
    assert 0 < told_before < 100, told_before
    await asyncio.wait_for(bot.sends_settled(), timeout=60)
    told = [m.content for m in club.fake.direct_messages(club.carol)]
    assert sorted(told) == sorted(f"news {number}" for number in range(100))


async def test_a_refused_direct_message_is_dropped_once(club: Club) -> None:
    fake, carol = club.fake, club.carol
    fake.close_dms(carol)
    fake.expect_rejections(ErrorCode.CANNOT_MESSAGE_USER)
    assert club.bot is not None
    for number in range(3):  # all three queued before the first is refused
        await club.service.outbox.message(Send.MESSAGE, carol.user.id, f"n{number}", silent=False)
    await club.bot.sends_settled()
    await fake.wait_quiet()
    assert [(r.status, r.code) for r in fake.rejections] == [(403, 50007)]
    assert await club.service.preferences.inbox_closed(carol.user.id)
    assert await club.service.outbox.waiting() == 0
    await asyncio.sleep(0.2)
    assert len(fake.rejections) == 1  # never tried again


async def test_a_reminder_for_a_deleted_thread_is_posted_once_where_the_game_went_on(
    club: Club,
) -> None:
    fake = club.fake
    table = await club.new_game(time="3d")
    await fake.delete_thread(table.thread)
    fake.expect_rejections(ErrorCode.UNKNOWN_CHANNEL)
    club.clock.advance(timedelta(days=2, hours=12))
    club.wake_deadlines()
    assert club.bot is not None
    await club.bot.sends_settled()
    await fake.wait_quiet()
    [home] = [t for t in fake.threads(club.channel) if t.id != table.thread.id]
    [reminder] = await club.posts(home, "your move is due")  # in the game's new thread
    assert [(r.status, r.code) for r in fake.rejections] == [(404, 10003)]
    assert await club.service.outbox.waiting() == 0
    assert len(club.bot_posts(home, "your move is due")) == 1, reminder.content
    assert not club.bot_posts(club.channel, "your move is due")
