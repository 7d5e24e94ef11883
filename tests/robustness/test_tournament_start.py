"""A large tournament started against the fake Discord with all of Discord's limits on
(the global limit, per-route buckets, and a cap on active threads lowered to fewer than
the tournament's games): the start is answered at once, the games' threads are opened in
the background without one 429 nor a second or bucket window over its limit, the opening
stops at the cap and resumes as games end and their threads are archived, a restart in
the middle loses no game, every game ends with its thread and first post, and another
member's `/move` is answered with its board meanwhile without the loop stalling."""

from __future__ import annotations

import asyncio

import pytest

from bot.services.tournaments.model import State
from tests.fakediscord.constants import ErrorCode
from tests.fakediscord.limits import DISCORD_ROUTE_LIMITS, Limits
from tests.support.bursts import Bursts
from tests.support.checks import assert_board
from tests.support.club import Club, Table
from tests.support.stall import LoopProbe

#: 9 players, single round robin: 36 games.
PLAYERS = 9
GAMES = PLAYERS * (PLAYERS - 1) // 2
#: Active threads the fake allows: the other members' game and fewer than half the games.
CAP = 16
STALL = 0.1
INTERVAL = 0.25


async def _threads_of(club: Club, game_ids: list[int]) -> dict[int, int]:
    found = {}
    for game_id in game_ids:
        thread_id = (await club.game(game_id)).thread_id
        if thread_id is not None:
            found[game_id] = thread_id
    return found


async def _until(club: Club, game_ids: list[int], count: int, seconds: float) -> dict[int, int]:
    for _ in range(int(seconds / 0.1)):
        found = await _threads_of(club, game_ids)
        if len(found) >= count:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"{count} threads expected, {len(found)} opened")


async def _presses_done() -> None:
    """Until the bot has done with every button pressed (the announcement's edits after
    the results wait for their channel's bucket, whose silence `wait_quiet` would take
    for the end)."""
    for _ in range(1200):
        pressed = [
            t
            for t in asyncio.all_tasks()
            if t.get_name().startswith("discord-ui-dynamic-item") and not t.done()
        ]
        if not pressed:
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"{len(pressed)} presses still running")


async def _move_answered(club: Club, table: Table, member_move: tuple[str, str]) -> None:
    member = club.alice if member_move[0] == "alice" else club.bob
    result = await club.move(member, member_move[1], table)
    assert not result.ephemeral, result.content
    assert_board(result.files)


async def test_a_big_start_opens_every_thread_at_discords_pace(
    club: Club, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.ui.openings.OPEN_INTERVAL", INTERVAL)
    players = [club.fake.add_member(club.guild, f"p{n}") for n in range(PLAYERS)]
    table = await club.new_game(club.alice, club.bob)
    club.make_manager(club.carol)
    await club.fake.slash(
        "tournament",
        {"name": "Season", "format": "round_robin", "starts": "2099-01-01 10:00"},
        user=club.carol,
        channel=club.channel,
    )
    [posted] = await club.posts(club.channel, "Season")
    join = next(c for c in posted.custom_ids if c.startswith("tj:join:"))
    for member in players:
        await club.fake.click(posted, join, user=member)
    await club.fake.wait_quiet(0.2)
    club.fake.limits = Limits(routes=dict(DISCORD_ROUTE_LIMITS), active_threads=CAP)
    club.fake.expect_rejections(ErrorCode.MAX_ACTIVE_THREADS)
    since = len(club.fake.requests)

    async with LoopProbe() as probe:
        started = await club.fake.slash("tournament_start", user=club.carol, channel=club.channel)
        assert started.ephemeral and f"{GAMES} games are being opened" in started.content
        [running] = await club.service.tournaments.in_server(club.guild.id, [State.RUNNING])
        schedule = await club.service.tournaments.schedule_of(running.id)
        game_ids = [row.game_id for row in schedule if row.game_id is not None]
        assert len(game_ids) == GAMES
        # Answered before the threads: most are still to open.
        assert len(await _threads_of(club, game_ids)) < GAMES // 2

        await _move_answered(club, table, ("alice", "7g7f"))
        first_wave = await _until(club, game_ids, 3, 30)
        async with probe.paused():  # the bot's own start-up is not a member's doing
            await club.restart()  # in the middle of the opening
        await _move_answered(club, table, ("bob", "3c3d"))
        # The cap: the members' game's thread and CAP - 1 tournament threads, no more.
        at_cap = await _until(club, game_ids, CAP - 1, 60)
        await club.fake.wait_quiet(3 * INTERVAL)
        assert len(await _threads_of(club, game_ids)) == CAP - 1
        assert set(first_wave) <= set(at_cap)

        # Games end, their threads are archived, and the rest open in their place.
        ended: set[int] = set()
        every = at_cap
        while len(every) < GAMES:
            for game_id, thread_id in every.items():
                if game_id in ended:
                    continue
                ended.add(game_id)
                row = next(r for r in schedule if r.game_id == game_id)
                loser = next(p for p in players if p.id == row.game.sente_id)
                thread = next(t for t in club.fake.threads(club.channel) if t.id == thread_id)
                start = club.fake.channel_history(thread)[0]
                await club.resign(Table(game_id, thread, start), loser)
            every = await _until(club, game_ids, min(GAMES, len(ended) + CAP - 1), 60)
        await _move_answered(club, table, ("alice", "2g2f"))
        await _presses_done()
        assert club.bot is not None
        await club.bot.sends_settled()

    for thread_id in every.values():
        [thread] = [t for t in club.fake.threads(club.channel) if t.id == thread_id]
        first = club.fake.channel_history(thread)[0]
        assert "Season" in first.content, first.content
        assert_board(first.attachments)
    bursts = Bursts.of(club.fake.requests[since:], DISCORD_ROUTE_LIMITS)
    assert bursts.refused == 0, club.fake.rate_limited
    assert bursts.global_max <= 50, bursts
    assert bursts.bucket_over == {}, bursts
    assert probe.worst < STALL, probe.worst
