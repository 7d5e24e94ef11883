"""Discord misbehaving in the middle of a game: the move is stored once, the player sees an
answer, and the same bot (no restart) goes on serving the game.

Faults come from the fake (``inject_fault``): a 429 with retry-after or a 500 on the
interaction callback or on a channel message, a 500 *after* Discord already did the work (so
a retry is refused as a second answer), the gateway dropped (resumable, or the TCP
connection cut), and answers that come too late for Discord's 3-second limit.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from bot.ui import replies
from tests.e2e.fake_discord import CALLBACK, CREATE_MESSAGE, FakeChannel
from tests.e2e.harness import BotRunner, FakeDiscord, HarnessTimeout, InteractionResult

from .support import BotGame, Table, assert_replays, open_table, start_game

OPENING = ("7g7f", "3c3d", "2g2f", "8c8d", "2f2e", "8d8e", "6i7h", "4a3b")


def announcements(fake: FakeDiscord, thread: FakeChannel, ply: int) -> list[str]:
    """Public messages in the game's thread that announce the move of ``ply``."""
    return [
        m.content
        for m in fake.channel_history(thread)
        if m.author.id == fake.bot_user.id and m.content.startswith(f"{ply}. ")
    ]


async def setup(fake: FakeDiscord, bot_runner: BotRunner, tmp_path: Path) -> tuple[Table, BotGame]:
    fake.settle = 0.02
    table = await open_table(fake, bot_runner, tmp_path)
    return table, await start_game(table)


async def play(
    table: Table, game: BotGame, ply: int, *, timeout: float | None = None, wait: bool = True
) -> InteractionResult:
    """The move of ``ply`` (1-based) from OPENING, by whoever is to move."""
    view = await table.bot.service.games.get(game.id)
    assert view.to_move is not None and view.ply == ply - 1, (view.ply, ply)
    member = table.member(view.to_move.user_id)
    return await table.fake.slash(
        "move",
        {"move": OPENING[ply - 1]},
        user=member,
        channel=game.thread,
        timeout=timeout,
        wait=wait,
    )


async def settle(fake: FakeDiscord, result: InteractionResult) -> None:
    """Until the bot's answer was taken or refused, and the bot has gone quiet."""
    await fake.wait_for(
        lambda: result.response_type is not None or bool(result.rejections),
        what=f"an answer (or a refused one) to {result.interaction.label}",
        timeout=10,
    )
    await fake.wait_quiet(0.3, timeout=10)


async def check_once_and_seen(
    table: Table, game: BotGame, ply: int, result: InteractionResult
) -> list[str]:
    """What is wrong after the move of ``ply``: stored once, answered, announced once.

    discord.py sleeps before retrying a 429 or a 5xx, with no request in flight, so "quiet"
    is not enough: wait for the announcement itself (then for calm, to catch a double)."""
    with contextlib.suppress(HarnessTimeout):
        await table.fake.wait_for(
            lambda: bool(announcements(table.fake, game.thread, ply)),
            what=f"the announcement of ply {ply}",
            timeout=8,
        )
    await table.fake.wait_quiet(0.3, timeout=15)
    problems = []
    view = await table.bot.service.games.get(game.id)
    assert_replays(view)
    if view.ply != ply or view.game.moves[-1].usi() != OPENING[ply - 1]:
        problems.append(f"stored {view.ply} moves, expected {ply} ending in {OPENING[ply - 1]}")
    seen = announcements(table.fake, game.thread, ply)
    if len(seen) != 1:
        problems.append(f"the move of ply {ply} was announced {len(seen)} times in the thread")
    if result.reply is None or not result.content.strip():
        problems.append("the player got no answer to /move")
    return problems


async def check_recovered(table: Table, game: BotGame, ply: int) -> list[str]:
    """The next move goes through normally: same bot, no restart."""
    result = await play(table, game, ply)
    if result.ephemeral or not result.files:
        return [f"after the fault the next move was not answered normally: {result.content!r}"]
    return await check_once_and_seen(table, game, ply, result)


FAULTS = {
    "429 on the callback": dict(route=CALLBACK, status=429, retry_after=0.3),
    "500 on the callback": dict(route=CALLBACK, status=500),
    "429 twice on the callback": dict(route=CALLBACK, status=429, retry_after=0.2, times=2),
}


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_callback_fault(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, fault: str
) -> None:
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    fake_discord.inject_fault(**FAULTS[fault])
    result = await play(table, game, 1, timeout=10)
    problems = await check_once_and_seen(table, game, 1, result)
    problems += await check_recovered(table, game, 2)
    assert not problems, "\n".join(problems)


async def test_callback_500_after_discord_did_it(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """Discord showed the answer but the bot got a 500: its retry is a second answer (40060).
    Nothing may be stored twice and the answer must not be shown twice."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    fake_discord.expect_rejections(40060)
    fake_discord.inject_fault(CALLBACK, status=500, after_processing=True)
    result = await play(table, game, 1, timeout=10)
    problems = await check_once_and_seen(table, game, 1, result)
    problems += await check_recovered(table, game, 2)
    assert not problems, "\n".join(problems)


async def test_channel_message_faults(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """A move made outside the thread is posted there with a channel message: 429 once,
    then 500 once.  The player's ephemeral note and the thread's board both arrive."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    problems = []
    for ply, fault in ((1, dict(status=429, retry_after=0.2)), (2, dict(status=500))):
        view = await table.bot.service.games.get(game.id)
        assert view.to_move is not None
        fake_discord.inject_fault(CREATE_MESSAGE, **fault)  # type: ignore[arg-type]
        result = await fake_discord.slash(
            "move", {"move": OPENING[ply - 1], "game": str(game.id)},
            user=table.member(view.to_move.user_id), channel=table.channel, timeout=10,
        )  # fmt: skip
        problems += await check_once_and_seen(table, game, ply, result)
    problems += await check_recovered(table, game, 3)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("abort", [False, True], ids=["close-frame", "tcp-cut"])
async def test_gateway_dropped_mid_game(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path, abort: bool
) -> None:
    """The connection drops between two moves and a move is sent while it is down: the bot
    resumes, the buffered interaction is answered, and play goes on."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    first = await play(table, game, 1)
    problems = await check_once_and_seen(table, game, 1, first)
    await fake_discord.drop_gateway(resumable=True, abort=abort)
    during = await play(table, game, 2, timeout=10)  # dispatched while disconnected
    await fake_discord.wait_resumed(1, timeout=10)
    problems += await check_once_and_seen(table, game, 2, during)
    problems += await check_recovered(table, game, 3)
    assert not problems, "\n".join(problems)


async def test_gateway_session_invalidated_mid_game(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """A session that cannot be resumed: discord.py identifies again (after its 5 s wait)."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    await fake_discord.drop_gateway(resumable=False)
    await fake_discord.wait_connected(identifies=2, timeout=20)
    problems = await check_recovered(table, game, 1)
    assert not problems, "\n".join(problems)


async def test_slow_rendering_is_deferred_within_the_limit(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """Rendering takes longer than Discord's 3 s: the bot defers at 1.5 s and follows up."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    real = table.bot.boards.file

    async def slow(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(2.0)
        return await real(*args, **kwargs)  # type: ignore[arg-type]

    table.bot.boards.file = slow  # type: ignore[method-assign]
    result = await play(table, game, 1, timeout=10)
    assert result.deferred, result
    await result.wait_followups(0, timeout=10)
    problems = await check_once_and_seen(table, game, 1, result)
    table.bot.boards.file = real  # type: ignore[method-assign]
    problems += await check_recovered(table, game, 2)
    assert not problems, "\n".join(problems)


async def test_answer_refused_as_too_late_still_announces_the_move(
    fake_discord: FakeDiscord, bot_runner: BotRunner, tmp_path: Path
) -> None:
    """Discord is slow to take the answer: it arrives after the interaction's limit and is
    refused (10062).  The move is stored by then, so it must still be announced in the
    game's thread (and the opponent pinged); otherwise nobody learns it was played."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    fake_discord.interaction_timeout = 0.5
    fake_discord.expect_rejections(10062)
    fake_discord.inject_fault(CALLBACK, delay=0.8)
    view = await table.bot.service.games.get(game.id)
    assert view.to_move is not None
    result = await play(table, game, 1, wait=False)
    await settle(fake_discord, result)
    problems = []
    after = await table.bot.service.games.get(game.id)
    if after.ply != 1:
        problems.append(f"stored {after.ply} moves, expected 1")
    seen = [
        m
        for m in fake_discord.channel_history(game.thread)
        if m.author.id == fake_discord.bot_user.id and m.content.startswith("1. ")
    ]
    if len(seen) != 1:
        problems.append(f"the stored move was announced {len(seen)} times in the thread")
    elif table.bob.id not in seen[0].mentioned_user_ids:
        problems.append("the opponent was not pinged")
    fake_discord.interaction_timeout = 3.0
    problems += await check_recovered(table, game, 2)
    assert not problems, "\n".join(problems) + f"\n(the /move got: {result!r})"


async def test_slow_database_and_slow_render_still_answer_in_time(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The 3-second limit counts from the interaction, not from when the move was stored.
    Scaled down (limit 1 s, the bot's defer point 0.5 s, the same ratio as 3 s and 1.5 s):
    storing the move takes 0.6 s (a busy database) and rendering 0.6 s.  A bot that starts
    its defer timer only after storing defers at 1.1 s, too late."""
    table, game = await setup(fake_discord, bot_runner, tmp_path)
    fake_discord.interaction_timeout = 1.0
    monkeypatch.setattr(replies, "DEFER_AFTER", 0.5)
    fake_discord.expect_rejections(10062)
    service = table.bot.service
    real_play, real_render = service.moves.play, table.bot.boards.file

    async def slow_play(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.6)
        return await real_play(*args, **kwargs)  # type: ignore[arg-type]

    async def slow_render(*args: object, **kwargs: object) -> object:
        await asyncio.sleep(0.6)
        return await real_render(*args, **kwargs)  # type: ignore[arg-type]

    service.moves.play = slow_play  # type: ignore[method-assign]
    table.bot.boards.file = slow_render  # type: ignore[method-assign]
    result = await play(table, game, 1, wait=False)
    await settle(fake_discord, result)
    refused = [r for r in result.rejections if r.code == 10062]
    service.moves.play, table.bot.boards.file = real_play, real_render  # type: ignore[method-assign]
    assert not refused, f"the answer came too late for Discord: {refused[0]}"
    problems = await check_once_and_seen(table, game, 1, result)
    assert not problems, "\n".join(problems)
