"""Mate problems end to end, through the real bot and the fake Discord, in an English and
a Japanese server: a game played to a mate in 3 from a set-up position becomes a problem;
an administrator chooses the channel and the hour; the daily post appears at that hour
(the movable clock) with the board and an Answer button; a right and a wrong answer are
judged privately in the member's language; the next day's post reveals the solution with
the mate's board and who solved it."""

from __future__ import annotations

import asyncio
import io
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any, cast

import pytest
from PIL import Image

from bot.cogs.problems.tsume import TsumeFeature
from tests.fakediscord import CREATE_MESSAGE, BotRunner, E2EGuard, FakeDiscord, FakeMessage
from tests.support.clock import FakeClock
from tests.support.club import JAPANESE, Club, Table

#: Sente mates in 3 with a unique first move: R*5b, K-6a, R-6b+.
MATE_IN_3 = "4k4/9/3S5/9/9/9/9/9/4K4 b RS 1"
START = datetime(2026, 3, 2, 1, 0, tzinfo=UTC)

#: What each language's server shows: the post, a right and a wrong answer, the reveal.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "post": "Problem of the day #",
        "length": "mate in 3 (Sente to move)",
        "right": "☗５二飛 (R*5b) is right",
        "wrong": "is wrong: the king escapes",
        "reveal": "Solution of problem #",
        "line": "☗５二飛 (R*5b) ☖６一玉 (K-6a) ☗６二飛成 (R-6b+)",
        "solved": "Solved by <@{bob}>",
        "streak": "You have solved 0 daily problems in a row.",
    },
    "ja": {
        "post": "今日の詰将棋 第",
        "length": "3手詰（先手番）",
        "right": "☗５二飛、正解です",
        "wrong": "は不正解です",
        "reveal": "の正解：",
        "line": "☗５二飛 ☖６一玉 ☗６二飛成",
        "solved": "正解者：<@{bob}>",
        "streak": "毎日の詰将棋を0問連続で正解しています。",
    },
}


def cog(club: Club) -> TsumeFeature:
    assert club.bot is not None
    feature = club.bot.get_cog("TsumeFeature")  # loaded by name: another module object
    assert feature is not None and type(feature).__name__ == "TsumeFeature"
    return cast(TsumeFeature, feature)


async def at(club: Club, moment: datetime) -> None:
    """Move the clock to `moment` and let the daily task look."""
    club.clock.now = moment
    cog(club).days.wake()
    await club.fake.wait_quiet()


async def mated_game(club: Club) -> Table:
    """Alice challenges Bob from `MATE_IN_3` and mates him in three; the game's scan done.
    The challenge is accepted on its message in the channel: a start read slowly is
    answered after a "thinking" note, and the challenge then comes as a post of its own."""
    alice, bob = club.alice, club.bob
    await club.challenge(alice, bob, color="sente", start=MATE_IN_3)

    def offers() -> list[FakeMessage]:
        return [
            m
            for m in club.fake.channel_history(club.channel)
            if any(c.startswith("ch:accept:") for c in m.custom_ids)
        ]

    await club.fake.wait_for(lambda: bool(offers()), what="the challenge's message")
    table = await club.accept(offers()[-1], bob)
    await club.play(table, [(alice, "R*5b"), (bob, "5a6a"), (alice, "5b6b+")])
    for _ in range(600):  # the scan runs in a worker process: nothing the fake sees
        if club.service.problems.scanned:
            break
        await asyncio.sleep(0.05)
    return table


def png_size(message: FakeMessage) -> tuple[int, int]:
    (attachment,) = message.attachments
    with Image.open(io.BytesIO(attachment.data)) as png:
        assert png.format == "PNG"
        return png.size


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_mate_becomes_the_daily_problem_answered_and_revealed(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    language: str,
) -> None:
    options: dict[str, Any] = JAPANESE if language == "ja" else {}
    club = Club(fake_discord, bot_runner, e2e_guard, tmp_path, clock=FakeClock(START), **options)
    await club.start()
    words = WORDS[language]
    alice, bob, carol = club.alice, club.bob, club.carol
    table = await mated_game(club)
    progress = await club.service.problems.progress(club.guild.id)
    assert (progress.scanned, progress.problems) == (1, 1)

    refused = await club.fake.slash(
        "tsume", {"action": "schedule", "hour": 9}, user=bob, channel=club.channel
    )
    assert refused.ephemeral and club.bot_posts(club.channel, words["post"]) == []
    club.make_manager(alice)
    chosen = await club.fake.slash(
        "tsume", {"action": "schedule", "hour": 9}, user=alice, channel=club.channel
    )
    assert chosen.ephemeral, chosen.content
    found = re.search(r"<t:(\d+):f>", chosen.content or "")
    assert found is not None, chosen.content
    first = datetime.fromtimestamp(int(found.group(1)), UTC)
    assert first.minute == 0 and first > START

    await at(club, first - timedelta(minutes=1))
    assert club.bot_posts(club.channel, words["post"]) == []  # a minute early: nothing
    await at(club, first)
    [post] = await club.posts(club.channel, words["post"])
    assert words["length"] in post.content
    assert f"/channels/{club.guild.id}/{table.thread.id}" in post.content
    assert png_size(post)[0] > 300

    today = await club.fake.slash("tsume", user=carol, channel=club.channel)
    assert today.ephemeral and words["post"] in today.content and words["streak"] in today.content
    assert len(today.files) == 1
    [button] = [cid for cid in post.custom_ids if cid.startswith("tz:")]
    box = await club.fake.click(post, button, user=bob)  # the Answer button: a box to type in
    right = await club.fake.submit(box, {"move": "R*5b"}, user=bob)
    assert right.ephemeral and words["right"] in (right.content or ""), right.content
    wrong = await club.fake.slash(
        "tsume", {"action": "answer", "move": "S*5b"}, user=carol, channel=club.channel
    )
    assert wrong.ephemeral and words["wrong"] in (wrong.content or ""), wrong.content
    again = await club.fake.slash(
        "tsume", {"action": "answer", "move": "R*5b"}, user=carol, channel=club.channel
    )
    assert again.ephemeral and words["wrong"] not in (again.content or "")

    await at(club, first + timedelta(days=1))
    [reveal] = await club.posts(club.channel, words["reveal"])
    assert words["line"] in reveal.content, reveal.content
    assert words["solved"].format(bob=bob.user.id) in reveal.content
    assert f"<@{carol.user.id}>" not in reveal.content
    assert png_size(reveal)[0] > 300
    late = await club.fake.slash(
        "tsume", {"action": "answer", "move": "R*5b"}, user=carol, channel=club.channel
    )
    assert late.ephemeral and words["right"] not in (late.content or "")


async def test_a_player_who_opts_out_in_preferences_keeps_their_games_out(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = Club(fake_discord, bot_runner, e2e_guard, tmp_path, clock=FakeClock(START))
    await club.start()
    shown = await club.prefer(club.bob, problems="off")
    assert "mate problems (`/tsume`): off" in (shown.content or ""), shown.content
    await mated_game(club)
    progress = await club.service.problems.progress(club.guild.id)
    assert (progress.scanned, progress.problems) == (1, 0)
    shown = await club.prefer(club.bob)
    assert "mate problems (`/tsume`): off" in (shown.content or "")


async def test_a_reveal_discord_refuses_does_not_cost_the_days_new_problem(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """The second day's delivery reveals the first problem, then posts the second: when
    Discord refuses the reveal (a permission taken away, say), the new problem is posted
    all the same, instead of being skipped and revealed the day after unseen."""
    club = Club(fake_discord, bot_runner, e2e_guard, tmp_path, clock=FakeClock(START))
    await club.start()
    await mated_game(club)
    await mated_game(club)
    for _ in range(600):  # the second scan, in its worker process
        if (await club.service.problems.progress(club.guild.id)).problems == 2:
            break
        await asyncio.sleep(0.05)
    assert (await club.service.problems.progress(club.guild.id)).problems == 2
    club.make_manager(club.alice)
    chosen = await club.fake.slash(
        "tsume", {"action": "schedule", "hour": 9}, user=club.alice, channel=club.channel
    )
    found = re.search(r"<t:(\d+):f>", chosen.content or "")
    assert found is not None, chosen.content
    first = datetime.fromtimestamp(int(found.group(1)), UTC)
    await at(club, first)
    assert len(await club.posts(club.channel, "Problem of the day #")) == 1

    club.fake.inject_fault(CREATE_MESSAGE, status=403)  # the reveal, sent first
    club.guard.expect_error_log("could not reveal daily problem")
    await at(club, first + timedelta(days=1))
    posts = await club.posts(club.channel, "Problem of the day #")
    assert len(posts) == 2, [p.content for p in posts]
    assert club.bot_posts(club.channel, "Solution of problem #") == []
