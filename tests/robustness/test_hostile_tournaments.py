"""A hostile member at a tournament through the real client and the fake Discord, while two
others play: Join pressed a hundred times at once, then Leave and Join again a hundred
times, a name of 6,000 characters, a start that is no date, and ids the bot never made.
Each answer is one sentence, the entry is stored once, the announcement is edited a few
times, not a hundred, the players' moves are answered with their boards meanwhile, and
the event loop never stalls more than 100 ms."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from dataclasses import replace
from datetime import timedelta

from bot.services import PlayerRef
from tests.fakediscord import Choice, FakeMessage, InteractionResult
from tests.support.club import Club
from tests.support.stall import LoopProbe

STALL = 0.1
PRESSES = 100
MOVES = ("7g7f", "3c3d", "2g2f", "8c8d")


def one_sentence(result: InteractionResult) -> str:
    assert result.ephemeral, result.content
    said = result.content
    assert said and "\n" not in said and len(said) <= 400, said
    return said


def edits_of(club: Club, message: FakeMessage) -> int:
    return sum(
        1
        for r in club.fake.requests
        if r.method == "PATCH" and r.path.endswith(f"/messages/{message.id}")
    )


async def test_a_hostile_entrant_gets_one_sentence_and_stalls_nothing(club: Club) -> None:
    attacker = club.carol
    club.make_manager(club.alice)
    starts = (club.clock.now + timedelta(days=2)).strftime("%Y-%m-%d %H:%M")
    async with LoopProbe() as probe:
        table = await club.new_game()
        long_name = await club.fake.slash(
            "tournament",
            {"name": "x" * 6000, "format": "round_robin", "starts": starts},
            user=club.alice,
            channel=club.channel,
        )
        assert "100 characters" in one_sentence(long_name)
        no_date = await club.fake.slash(
            "tournament",
            {"name": "Cup", "format": "round_robin", "starts": "tomorrow-ish"},
            user=club.alice,
            channel=club.channel,
        )
        assert "2026-12-01 20:00" in one_sentence(no_date)
        not_allowed = await club.fake.slash(
            "tournament",
            {"name": "Mine", "format": "knockout", "starts": starts},
            user=attacker,
            channel=club.channel,
        )
        assert "organizer" in one_sentence(not_allowed)

        await club.fake.slash(
            "tournament",
            {"name": "Cup", "format": "round_robin", "starts": starts},
            user=club.alice,
            channel=club.channel,
        )
        [posted] = await club.posts(club.channel, "Tournament #1: Cup")
        join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
        leave = next(c for c in posted.custom_ids if c.startswith("tj:leave:"))
        before = edits_of(club, posted)

        presses = [
            await club.fake.click(posted, join, user=attacker, wait=False) for _ in range(PRESSES)
        ]
        moved = asyncio.ensure_future(club.play(table, [(club.alice, MOVES[0])]))
        answers = [one_sentence(await press.wait_final()) for press in presses]
        await moved
        assert sum("You have entered" in said for said in answers) == 1, set(answers)
        assert sum("already entered" in said for said in answers) == PRESSES - 1
        await club.fake.wait_for(lambda: "1 of 32 player:" in posted.content, what="one entrant")

        toggles = [
            await club.fake.click(posted, leave if n % 2 == 0 else join, user=attacker, wait=False)
            for n in range(PRESSES)
        ]
        reply = await club.move(club.bob, MOVES[1], table)
        assert not reply.ephemeral and reply.files, reply.content
        for press in toggles:
            one_sentence(await press.wait_final())
        await club.fake.wait_quiet(0.2)
        tournament = await club.service.tournaments.get(1)
        entered = [e.user_id for e in tournament.entrants]
        assert entered in ([], [attacker.id])
        assert (f"{len(entered)} of 32 player" in posted.content) and edits_of(
            club, posted
        ) - before < PRESSES // 2  # changes while an edit is under way wait for one more

        elsewhere = await club.fake.slash(
            "tournament_standings", {"tournament": 2**53 - 1}, user=attacker, channel=club.channel
        )
        assert "no such tournament" in one_sentence(elsewhere)
        for forged in ("tj:join:99999999999999999999999", "tj:join:12", "tj:explode:1"):
            result = await club.fake.forge_click(
                posted, forged, user=attacker, channel=club.channel
            )
            await result.wait_final()
            one_sentence(result)
    assert probe.worst < STALL, f"the event loop stalled {probe.worst * 1000:.0f} ms"


async def stored_tournaments(club: Club, count: int) -> int:
    """`count` tournaments stored at once as a server that ran a tournament a day for
    years would have them: all finished but every tenth, cancelled, then one taking
    entries. Returns the newest finished one's number."""
    first = await club.service.tournaments.create(
        guild_id=club.guild.id,
        channel_id=club.channel.id,
        organizer=PlayerRef(club.alice.id, "alice"),
        may_manage=True,
        name="Cup 0",
        format="round_robin",
        start_at=club.clock.now + timedelta(days=2),
    )
    newest = 0
    at = club.clock.now
    async with club.service.store.db.transaction() as tx:
        for n in range(1, count + 1):
            setup = replace(first.row.setup, name=f"Cup {n} " + "杯" * 80)
            made = await tx.tournaments.create(setup)
            if n % 10 == 0:
                await tx.tournaments.change_state(made, "registration", "cancelled", at)
                continue
            await tx.tournaments.change_state(made, "registration", "running", at)
            await tx.tournaments.change_state(made, "running", "finished", at)
            newest = made
        await tx.tournaments.change_state(first.id, "registration", "cancelled", at)
    await club.service.tournaments.create(
        guild_id=club.guild.id,
        channel_id=club.channel.id,
        organizer=PlayerRef(club.alice.id, "alice"),
        may_manage=True,
        name="Open " + "x" * 95,
        format="round_robin",
        start_at=club.clock.now + timedelta(days=2),
    )
    return newest


async def test_suggestions_stay_bounded_on_a_server_with_thousands_of_tournaments(
    club: Club,
) -> None:
    """A hundred requests for suggestions at once, each a 6,000-character value or an
    empty one, on a server with 4,000 tournaments: each answer is within Discord's limits
    (the fake refuses a 26th choice or a 101-character name), the newest first, another
    member's move is answered with its board meanwhile, and the loop never stalls."""
    attacker = club.carol
    newest = await stored_tournaments(club, 4000)
    table = await club.new_game()

    def asked(typed: str) -> Awaitable[list[Choice]]:
        return club.fake.autocomplete(
            "tournament_standings",
            {"tournament": typed},
            focused="tournament",
            user=attacker,
            channel=club.channel,
        )

    async with LoopProbe() as probe:
        typed = ["杯" * 6000 if n % 2 else "" for n in range(PRESSES)]
        asks = asyncio.gather(*(asked(value) for value in typed))
        reply = await club.move(club.alice, MOVES[0], table)
        answers = await asks
        assert not reply.ephemeral and reply.files, reply.content
    assert probe.worst < STALL, f"the event loop stalled {probe.worst * 1000:.0f} ms"
    for value, answer in zip(typed, answers, strict=True):
        if value:
            assert answer == [], answer[:1]
            continue
        assert len(answer) == 25
        values = [int(choice.value) for choice in answer]
        assert values[1] == newest and values == sorted(values, reverse=True)
        assert "registration open" in answer[0].name and "finished" in answer[1].name
    by_number = await asked(str(newest - 3000))
    assert [int(c.value) for c in by_number][:1] == [newest - 3000]
