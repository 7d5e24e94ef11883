"""A member who tries to hold the whole bot meets its budgets, through the real client and
the fake Discord: too many challenges naming members, challenging again the member who
just declined, withdrawing a challenge and sending it again, games against the computer,
notes and vacation starts. Each refusal is one
private sentence in the attacker's language saying the limit (and when it frees, as a
Discord timestamp); meanwhile another member's `/move` is answered with its board, the
event loop never stalls, and nothing past the budgets is stored or started."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from datetime import timedelta
from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord, FakeMember, InteractionResult
from tests.support.club import JAPANESE, Club, Table, open_club
from tests.support.engines import fake_engine
from tests.support.japanese import assert_japanese
from tests.support.stall import LoopProbe

from .inputs import sentence_problems

LIMITS = {
    "LIMIT_NAMED_CHALLENGES": "3",
    "LIMIT_COMPUTER_GAMES": "1",
    "LIMIT_NOTES": "4",
    "LIMIT_VACATION_STARTS": "2",
}
#: What each refusal says, by language: enough of the sentence to know it is that one.
SAID = {
    "en": {
        "named": "open challenges to members here as one member may (3)",
        "declined": "declined your challenge: you can challenge them again <t:{when}:R>.",
        "pinged": "without a game (3); you can challenge them again <t:{when}:R>.",
        "computer": "games against the computer in progress as one member may (1)",
        "notes": "notes over all your games as one member may (4)",
        "vacation": "vacations in the last 30 days as one member may (2)",
    },
    "ja": {
        "named": "このサーバーで相手を指定した申し込みは一人3件までで",
        "declined": "には申し込みを断られたばかりです。もう一度申し込めるのは<t:{when}:R>です。",
        "pinged": "対局にならなかった申し込みをすでに上限の3回しています。"
        "もう一度申し込めるのは<t:{when}:R>です。",
        "computer": "進行中のコンピュータ対局は一人1局までで",
        "notes": "全対局を通したメモは一人4件までで",
        "vacation": "過去30日の間に始められる休暇は一人2回までで",
    },
}
#: The longest the event loop may stall while the attacker and the other member are served.
MOST_STALL = 0.1


async def refused(attempt: Awaitable[InteractionResult], said: str, lang: str) -> None:
    result = await attempt
    assert result.ephemeral, result.content
    assert said in result.content, (said, result.content)
    assert sentence_problems(result.content) == [], result.content
    if lang == "ja":
        assert_japanese(result)


async def meanwhile(club: Club, player: FakeMember, move: str, table: Table) -> None:
    """The other member's move, answered with its board while the attacker is refused."""
    result = await club.move(player, move, table)
    assert not result.ephemeral, result.content
    assert any(message.attachments for message in result.messages), result.content


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_the_attacker_meets_every_budget_while_another_member_plays(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    lang: str,
) -> None:
    engine, _ = fake_engine(tmp_path)
    options = JAPANESE if lang == "ja" else {}
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, engine_path=engine, limits=LIMITS, **options
    )
    said = SAID[lang]
    attacker, player, other = club.alice, club.carol, club.bob
    table = await club.new_game(player, other)  # carol (sente) against bob
    targets = [club.fake.add_member(club.guild, f"member{i}") for i in range(5)]
    for target in targets:
        target.user.locale = club.alice.user.locale
    moves = iter(
        [(player, "7g7f"), (other, "3c3d"), (player, "2g2f"), (other, "8c8d"), (player, "2f2e")]
    )

    async def alongside(attack: Awaitable[None]) -> None:
        mover, move = next(moves)
        await asyncio.gather(attack, meanwhile(club, mover, move, table))

    async with LoopProbe() as probe:
        # Challenges naming members, one past the budget.
        offers = [await club.challenge(attacker, target) for target in targets[:3]]
        too_many = club.fake.slash(
            "challenge", {"opponent": targets[3]}, user=attacker, channel=club.channel
        )
        await alongside(refused(too_many, said["named"], lang))
        # The first target declines: the attacker may not challenge them again for an hour.
        [declined_id] = [c for c in offers[0].custom_ids if c.startswith("ch:decline:")]
        declined_at = club.clock()
        await club.fake.click(offers[0], declined_id, user=targets[0])
        when = int((declined_at + timedelta(hours=1)).timestamp())
        again = club.fake.slash(
            "challenge", {"opponent": targets[0]}, user=attacker, channel=club.channel
        )
        await alongside(refused(again, said["declined"].format(when=when), lang))
        # Withdrawn and sent again, pinging the same member each time.
        first_sent = club.clock()
        for _ in range(3):
            sent = await club.challenge(attacker, targets[4])
            [cancel] = [c for c in sent.custom_ids if c.startswith("ch:cancel:")]
            await club.fake.click(sent, cancel, user=attacker)
        when = int((first_sent + timedelta(hours=1)).timestamp())
        pinged = club.fake.slash(
            "challenge", {"opponent": targets[4]}, user=attacker, channel=club.channel
        )
        await refused(pinged, said["pinged"].format(when=when), lang)
        # Games against the computer (the attacker moves first: the engine is never asked).
        first = await club.fake.slash(
            "computer", {"level": 1, "color": "sente"}, user=attacker, channel=club.channel
        )
        assert not first.ephemeral, first.content
        second = club.fake.slash(
            "computer", {"level": 1, "color": "sente"}, user=attacker, channel=club.channel
        )
        await alongside(refused(second, said["computer"], lang))
        # Notes, here on the others' game as a spectator.
        for i in range(4):
            note = await club.fake.slash(
                "note", {"text": f"idea {i}"}, user=attacker, channel=table.thread
            )
            assert note.ephemeral and said["notes"] not in note.content, note.content
        fifth = club.fake.slash("note", {"text": "one more"}, user=attacker, channel=table.thread)
        await alongside(refused(fifth, said["notes"], lang))
        # Vacations started and ended, over and over.
        for _ in range(2):
            for action in ("start", "end"):
                await club.fake.slash(
                    "vacation", {"action": action}, user=attacker, channel=club.channel
                )
            club.clock.advance(timedelta(hours=2))
        toggle = club.fake.slash(
            "vacation", {"action": "start"}, user=attacker, channel=club.channel
        )
        await alongside(refused(toggle, said["vacation"], lang))
    assert probe.worst < MOST_STALL, probe.report()

    # Nothing past the budgets was stored, and no engine process was started for it.
    service = club.service
    uid = attacker.user.id
    async with service.store.db.read() as tx:
        assert await tx.computer.in_progress(uid, club.clock()) == 1
        assert await tx.notes.count_all(uid) == 4
        assert await tx.vacations.current(uid) is None
        stored = [await tx.challenges.get(number) for number in range(1, 20)]
    named = [
        ("the computer" if found.opponent.is_bot else found.opponent.name, found.status)
        for found in stored
        if found is not None and found.challenger.user_id == uid and found.opponent is not None
    ]
    assert named == [  # nothing stored past the budget, nor after the decline
        ("member0", "declined"),
        ("member1", "open"),
        ("member2", "open"),
        ("member4", "cancelled"),
        ("member4", "cancelled"),
        ("member4", "cancelled"),
        ("the computer", "accepted"),
    ]
    assert club.bot is not None and club.bot._engine is not None
    assert club.bot._engine.started == 0


ANALYSIS_SAID = {
    "en": "You already have an analysis running or waiting for the engine (one member may "
    "have 1 at a time); ask again when it is done.",
    "ja": "あなたの解析がすでに実行中か順番待ちです（一人1件まで）。"
    "終わってからもう一度お試しください。",
}


@pytest.mark.parametrize("lang", ["en", "ja"])
async def test_a_second_analysis_waits_for_the_first_while_the_engine_hangs(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    lang: str,
) -> None:
    """The engine hangs on the attacker's first analysis (it is killed after its time and
    asked again): meanwhile their second is refused at once, privately, another member
    plays on, and once the first is done the place is free again."""
    engine, _ = fake_engine(tmp_path, "hang")
    options = JAPANESE if lang == "ja" else {}
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, engine_path=engine, **options
    )
    attacker = club.alice
    finished = []
    for _ in range(2):
        table = await club.new_game(attacker, club.bob)
        await club.service.endings.resign(table.game_id, club.bob.user.id)
        finished.append(table)
    playing = await club.new_game(club.carol, club.bob)
    service = club.service

    async def claimed() -> bool:
        async with service.store.db.read() as tx:
            full = await tx.analyses.full(
                club.guild.id, attacker.user.id, club.clock(), per_member=1, per_server=99
            )
        return full is not None

    async with LoopProbe() as probe:
        first = await club.fake.slash(
            "analyse", {}, user=attacker, channel=finished[0].thread, wait=False
        )
        while not await claimed():
            await asyncio.sleep(0.02)
        second = club.fake.slash("analyse", {}, user=attacker, channel=finished[1].thread)
        await asyncio.gather(
            refused(second, ANALYSIS_SAID[lang], lang),
            meanwhile(club, club.carol, "7g7f", playing),
        )
    assert probe.worst < MOST_STALL, probe.report()
    await first.wait_final(timeout=60)
    assert not await claimed()
    again = await club.fake.slash("analyse", {}, user=attacker, channel=finished[1].thread)
    assert again.ephemeral and ANALYSIS_SAID[lang] not in again.content, again.content
    assert club.bot is not None and club.bot._engine is not None
    assert len(club.bot._engine.processes()) <= 1  # the hung one was killed, not left behind
