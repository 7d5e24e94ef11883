"""A member who uses the bot to reach another member's direct messages: challenging and
withdrawing over and over, under a name written to look like a mention. The target hears
of each challenge and each withdrawal once, within the budget of challenges to one member,
the name is shown as written and pings nobody, and another member's move is answered with
its board meanwhile without the loop stalling."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord
from tests.support.club import JAPANESE, open_club
from tests.support.stall import LoopProbe

#: The longest the event loop may stall while the attacker and the other member are served.
MOST_STALL = 0.1
PER_MEMBER = 3  # the default budget of challenges to one member without a game, per hour


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_challenge_and_withdraw_reach_the_target_within_the_budget(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    lang: str,
) -> None:
    options = JAPANESE if lang == "ja" else {}
    club = await open_club(fake_discord, bot_runner, e2e_guard, tmp_path, **options)
    attacker, target, player = club.alice, club.bob, club.carol
    attacker.user.global_name = f"<@{target.user.id}> @everyone **big**"
    await club.prefer(target, notifications="each")
    table = await club.new_game(player, target)  # carol (sente) against bob
    await club.fake.wait_quiet()
    before = len(club.fake.direct_messages(target))

    async def attack() -> None:
        for _ in range(PER_MEMBER):
            sent = await club.challenge(attacker, target)
            assert sent.reply is not None and sent.reply.mentioned_user_ids == [target.user.id]
            [cancel] = [c for c in sent.custom_ids if c.startswith("ch:cancel:")]
            await club.fake.click(sent, cancel, user=attacker)
        refused = await club.fake.slash(
            "challenge", {"opponent": target}, user=attacker, channel=club.channel
        )
        assert refused.ephemeral, refused.content

    async def meanwhile() -> None:
        moved = await club.move(player, "7g7f", table)
        assert not moved.ephemeral and moved.reply is not None, moved.content
        assert moved.reply.attachments

    async with LoopProbe() as probe:
        await asyncio.gather(attack(), meanwhile())
        await club.fake.wait_quiet()
    assert probe.worst < MOST_STALL, probe.report()

    messages = club.fake.direct_messages(target)[before:]
    challenges = [m for m in messages if "https://discord.com/channels/" in m.content]
    # each challenge and each withdrawal once, and the turn carol's move began
    assert len(messages) == 2 * PER_MEMBER + 1, [m.content for m in messages]
    assert len(challenges) == len(messages)
    named = [m for m in messages if "\\*\\*big\\*\\*" in m.content]  # shown as written
    assert len(named) == 2 * PER_MEMBER, [m.content for m in messages]
    for message in messages:
        assert message.mentions == [] and not message.mention_everyone
        assert f"<@{target.user.id}>" not in message.content, message.content
        assert "@everyone" not in message.content.replace("@\u200beveryone", ""), message.content
