"""Restarts and time: buttons from before a restart, timeouts while the bot was down, reminders.

Each restart stops the bot and starts a new one on the same database file; the clock is the
test's, so days pass in an instant.
"""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from bot.client import ShogiBot
from bot.services.clock.deadlines import Deadlines
from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord
from tests.support.checks import assert_board, button_id
from tests.support.club import Club, open_club


class DeadlineChecks:
    """Counts the deadline checks of every bot (the scheduler's start-up check included).

    A check that finds nothing makes no call to Discord, so the fake has no event to wait for;
    this wraps ``Deadlines.check`` to announce each finished check instead.
    """

    def __init__(self) -> None:
        self.done = 0
        self.changed = asyncio.Condition()

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = Deadlines.check

        async def counted(deadlines: Deadlines) -> datetime | None:
            try:
                return await original(deadlines)
            finally:
                self.done += 1
                async with self.changed:
                    self.changed.notify_all()

        monkeypatch.setattr(Deadlines, "check", counted)

    async def wait_beyond(self, count: int) -> None:
        async with self.changed:
            await asyncio.wait_for(self.changed.wait_for(lambda: self.done > count), 5)


@pytest.fixture
def checks(monkeypatch: pytest.MonkeyPatch) -> DeadlineChecks:
    counter = DeadlineChecks()
    counter.install(monkeypatch)
    return counter


@pytest.fixture
async def club(
    checks: DeadlineChecks,
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
) -> Club:
    club = await open_club(fake_discord, bot_runner, e2e_guard, tmp_path)
    await checks.wait_beyond(0)  # the start-up check
    return club


async def check_now(club: Club, checks: DeadlineChecks) -> None:
    """Wake the bot's deadline task and wait until its check is done."""
    done = checks.done
    club.wake_deadlines()
    await checks.wait_beyond(done)


async def restart_and_settle(club: Club, checks: DeadlineChecks) -> ShogiBot:
    """Restart, and return once the new bot's start-up deadline check is done and it is quiet."""
    done = checks.done
    bot = await club.restart()
    await checks.wait_beyond(done)
    await club.fake.wait_quiet()
    return bot


async def test_buttons_posted_before_a_restart_still_work(
    club: Club, checks: DeadlineChecks
) -> None:
    alice, bob = club.alice, club.bob
    # A challenge posted by the first bot, accepted after a restart.
    challenge = await club.challenge(alice, bob, color="sente")
    await restart_and_settle(club, checks)
    table = await club.accept(challenge, bob)
    assert table.start.mentioned_user_ids == [alice.user.id]

    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    # A promotion question and a resign confirmation, both asked before a restart.
    question = await club.move(alice, "２二角", table)
    assert question.ephemeral and len(question.custom_ids) == 2
    resign = await club.fake.slash("resign", user=bob, channel=table.thread)
    assert resign.ephemeral and resign.custom_ids == [f"rs:{table.game_id}"]
    posted = len(club.fake.channel_history(table.thread))

    await restart_and_settle(club, checks)
    assert len(club.fake.channel_history(table.thread)) == posted, "a restart posted something"
    assert (await club.game(table.game_id)).ply == 2

    promote = await club.fake.click(
        question, button_id(question.custom_ids, f"pr:{table.game_id}:2:8h2b+"), user=alice
    )
    assert "２二角成" in promote.content

    [board] = await club.posts(table.thread, "２二角成")
    assert board.id > promote.interaction.id, "the board came after the click"
    assert_board(board.attachments)
    assert board.mentioned_user_ids == [bob.user.id]

    # The game goes on after the restart, in every notation.
    await club.play(table, [(bob, "同　銀"), (alice, "B*4e")])
    assert (await club.game(table.game_id)).ply == 5

    # Another restart, then the old confirmation ends the game.
    await restart_and_settle(club, checks)
    confirmed = await club.fake.click(resign, f"rs:{table.game_id}", user=bob)
    assert confirmed.ephemeral and "resigned" in confirmed.content
    [ending] = await club.posts(table.thread, "resigned")
    assert "☗alice wins" in ending.content
    final = await club.game(table.game_id)
    assert final.status == "finished" and final.outcome is not None
    assert final.outcome.termination.value == "resignation"

    # The confirmation is gone, and resigning a finished game is refused at once.
    assert confirmed.custom_ids == []
    again = await club.fake.slash("resign", user=alice, channel=table.thread)
    assert again.ephemeral and "ended" in again.content, again.content
    assert again.custom_ids == [], "no confirmation for a game that is over"
    assert len(club.bot_posts(table.thread, "resigned")) == 1


async def test_a_timeout_while_the_bot_was_down_is_reported_once(
    club: Club, checks: DeadlineChecks
) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game(time="1d")
    await club.play(table, [(alice, "7g7f"), (bob, "3c3d")])
    assert club.bot is not None
    await club.runner.stop(club.bot)

    club.clock.advance(timedelta(days=2))  # alice's day ran out while nobody was watching
    await club.start()
    await club.fake.wait_for(
        lambda: bool(club.bot_posts(table.thread, "ran out of time")),
        what="the timeout in the game's thread",
    )
    [report] = club.bot_posts(table.thread, "ran out of time")
    assert "☗alice ran out of time" in report.content and "☖bob wins" in report.content
    assert_board(report.attachments)
    final = await club.game(table.game_id)
    assert final.outcome is not None and final.outcome.termination.value == "time"

    await restart_and_settle(club, checks)
    late = await club.move(alice, "2g2f", table)
    assert late.ephemeral and "ended on time" in late.content
    assert len(club.bot_posts(table.thread, "ran out of time")) == 1


async def test_a_game_nobody_started_is_aborted_not_lost(
    club: Club, checks: DeadlineChecks
) -> None:
    """bob accepted and never made his first move: nobody loses a game never played."""
    table = await club.new_game(time="1d")
    await club.play(table, [(club.alice, "7g7f")])
    club.clock.advance(timedelta(days=1, minutes=1))
    await check_now(club, checks)
    [ending] = await club.posts(table.thread, "did not make a first move in time")
    assert f"<@{club.bob.user.id}>" in ending.content and "without a result" in ending.content
    assert set(ending.mentioned_user_ids) == {club.alice.user.id, club.bob.user.id}
    final = await club.game(table.game_id)
    assert final.outcome is not None and final.outcome.winner is None
    await restart_and_settle(club, checks)  # posted once, not again after a restart
    assert len(club.bot_posts(table.thread, "did not make a first move")) == 1


async def test_a_reminder_is_sent_once_and_time_can_be_given(
    club: Club, checks: DeadlineChecks
) -> None:
    alice, bob = club.alice, club.bob
    table = await club.new_game(time="1d")
    await club.play(table, [(alice, "7g7f")])

    club.clock.advance(timedelta(hours=12))  # not yet 80 % of bob's day
    await check_now(club, checks)
    await club.fake.wait_quiet()
    assert club.bot_posts(table.thread, "your move is due") == []

    club.clock.advance(timedelta(hours=8))  # 20 of 24 hours used
    club.wake_deadlines()
    [reminder] = await club.posts(table.thread, "your move is due")
    assert reminder.mentioned_user_ids == [bob.user.id]
    assert reminder.content.startswith(f"<@{bob.user.id}>, your move is due <t:")
    assert "alice can give you more time with the button" in reminder.content
    assert reminder.custom_ids == [f"gt:{table.game_id}"]

    # Never again for this deadline: not on the next check, not after a restart.
    await check_now(club, checks)
    await restart_and_settle(club, checks)
    assert len(club.bot_posts(table.thread, "your move is due")) == 1

    # "Give more time" is the waiting player's to give.
    own_clock = await club.fake.click(reminder, f"gt:{table.game_id}", user=bob)
    assert own_clock.ephemeral and "your move" in own_clock.content.lower()
    before = (await club.game(table.game_id)).deadline
    given = await club.fake.click(reminder, f"gt:{table.game_id}", user=alice)
    assert given.ephemeral
    after = await club.game(table.game_id)
    assert before is not None and after.deadline is not None
    assert after.deadline == club.clock.now + timedelta(days=1) > before
    [note] = await club.posts(table.thread, "gave you more time")
    assert note.mentioned_user_ids == [bob.user.id]
    again = await club.fake.click(reminder, f"gt:{table.game_id}", user=alice)
    assert again.ephemeral and "would not move" in again.content
    await club.fake.wait_quiet()
    assert len(club.bot_posts(table.thread, "gave you more time")) == 1  # stated once

    # The move still comes in time, and the game goes on.
    reply = await club.move(bob, "3c3d", table)
    assert not reply.ephemeral and "３四歩" in reply.content
    assert (await club.game(table.game_id)).ply == 2


async def test_a_challenge_that_expired_while_the_bot_was_down_is_closed_once(
    club: Club, checks: DeadlineChecks
) -> None:
    challenge = await club.challenge(club.alice, club.bob)
    message = challenge.reply
    assert message is not None and len(message.custom_ids) == 4
    assert club.bot is not None
    await club.runner.stop(club.bot)
    club.clock.advance(timedelta(days=7, minutes=1))
    await club.start()
    await club.fake.wait_for(lambda: "expired" in message.content, what="the expired challenge")
    assert message.custom_ids == [] and message.mentions == []  # the edit allows none
    edits = len(message.history)
    await restart_and_settle(club, checks)
    assert len(message.history) == edits, "the expiry was reported again"
    late = await club.fake.slash(
        "challenge", {"opponent": club.bob}, user=club.alice, channel=club.channel
    )
    assert not late.ephemeral, "the expired challenge should not block a new one"
