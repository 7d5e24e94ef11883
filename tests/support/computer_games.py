"""Games against the computer through the real bot, for the tests that play them with the
real engine or a hostile one."""

from __future__ import annotations

import asyncio

from tests.fakediscord import FakeChannel

from .club import Club

#: A computer move (or an analysis) with the real engine comes within this; a move at
#: level 8 takes two seconds.
ENGINE_WAIT = 20.0


async def start(club: Club, level: int, color: str) -> tuple[int, FakeChannel]:
    """`/computer` by alice: the game's id and its new thread (with the start board)."""
    before = {thread.id for thread in club.fake.threads(club.channel)}
    result = await club.fake.slash(
        "computer", {"level": level, "color": color}, user=club.alice, channel=club.channel
    )
    assert not result.ephemeral, result.content
    assert "a game against the computer" in result.content or "コンピュータ対局" in result.content
    [thread] = [t for t in club.fake.threads(club.channel) if t.id not in before]
    await club.fake.wait_for(
        lambda: any(m.attachments for m in club.fake.channel_history(thread)),
        what="the start board",
    )
    [game] = await club.service.games.active_for(club.alice.user.id)
    return game.id, thread


async def computer_moved(club: Club, game_id: int, ply: int, *, posted: bool = True) -> None:
    """Until the game has reached `ply` (the computer's reply stored), and with `posted`
    until the bot is quiet (its board posted); a test that times the move leaves it out."""
    async with asyncio.timeout(ENGINE_WAIT):
        while (await club.game(game_id)).ply < ply:
            await asyncio.sleep(0.02)
    if posted:
        await club.fake.wait_quiet()
