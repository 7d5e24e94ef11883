"""Hostile members and the daily problem: a member who spams answers (at once, and
unreadable or huge ones), presses of the Answer button with forged ids (a number no
database holds, another post, a post of another server) and an answer after the reveal,
while two members play: each hostile request gets one sentence, exactly one answer is
counted, the players' move is answered with its board meanwhile, and the event loop never
stalls for 100 ms. After a restart the post still takes answers."""

from __future__ import annotations

import asyncio
from datetime import timedelta

from tests.e2e.test_bot_problems import at, mated_game
from tests.support.checks import assert_board
from tests.support.club import Club
from tests.support.stall import LoopProbe

SPAM = ["S*5b", "S*5b", "nonsense", "x" * 40, "P*5b", "R*5c", "S*5b", "5i4i"]


async def test_answer_spam_and_forged_buttons(club: Club) -> None:
    alice, bob, carol = club.alice, club.bob, club.carol
    await mated_game(club)
    club.make_manager(alice)
    chosen = await club.fake.slash(
        "tsume", {"action": "schedule", "hour": 9}, user=alice, channel=club.channel
    )
    assert chosen.ephemeral
    schedule = await club.service.daily_problems.schedule_of(club.guild.id)
    assert schedule is not None
    await at(club, club.clock.now + timedelta(days=1, hours=1))
    [post] = await club.posts(club.channel, "Problem of the day #")
    [button] = [cid for cid in post.custom_ids if cid.startswith("tz:")]
    table = await club.new_game(alice, bob)

    async with LoopProbe() as probe:
        spam = [
            club.fake.slash(
                "tsume", {"action": "answer", "move": m}, user=carol, channel=club.channel
            )
            for m in SPAM
        ]
        forged = [
            club.fake.forge_click(post, cid, user=carol, channel=club.channel)
            for cid in ("tz:99999999999999999999999", "tz:424242", f"{button}0")
        ]
        move = club.move(alice, "7g7f", table)
        *answers, played = await asyncio.gather(*spam, *forged, move)
    assert probe.worst < 0.1, probe.report()
    assert not played.ephemeral and played.content.startswith("1. ☗"), played.content
    assert_board(played.files)
    for answer in answers:
        final = await answer.wait_final()
        assert final.ephemeral and final.content and "\n" not in final.content, final.content
    async with club.service.store.db.read() as tx:
        post_id = int(button.split(":")[1])
        assert await tx.problem_posts.answered(post_id, carol.user.id)
        assert await tx.problem_posts.solvers(post_id) == []  # carol's one answer: wrong

    await club.restart()
    right = await club.fake.slash(
        "tsume", {"action": "answer", "move": "R*5b"}, user=bob, channel=club.channel
    )
    assert right.ephemeral and "is right" in right.content, right.content
    await at(club, club.clock.now + timedelta(days=1))
    await club.posts(club.channel, "Solution of problem #")
    late = await club.fake.forge_click(post, button, user=alice, channel=club.channel)
    final = await late.wait_final()
    assert final.ephemeral and "already revealed" in final.content, final.content
