"""A hostile engine through the real bot: one that hangs, floods its output or hides behind a
wrapper script whose child holds the pipes. The member playing the computer gets one
sentence with Retry, the engine's job comes back (Retry plays once the engine behaves),
another member's `/move` is answered with its board meanwhile, the event loop never
stalls, and no engine process is left. And with the real engine: one member's queued
analyses delay another member's computer move by one analysis search at most."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from bot.engine import EnginePool, usi
from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord, InteractionResult
from tests.support.club import open_club
from tests.support.computer_games import ENGINE_WAIT, computer_moved, start
from tests.support.engines import (
    all_gone,
    engine_pids,
    fairy_stockfish,
    fake_engine,
    wrapper_engine,
)
from tests.support.stall import LoopProbe

#: The time a killed search was given beyond its own: long enough that the other member's
#: move is surely answered while the computer's engine still misbehaves.
GRACE = 1.0

HOSTILE: dict[str, Callable[[Path], str]] = {
    "silent": lambda folder: fake_engine(folder, "hang hang")[0],
    "flooding": lambda folder: fake_engine(folder, "flood flood")[0],
    "wrapper whose child holds the pipes": lambda folder: wrapper_engine(folder, "hang hang")[0],
}


def answered(analysis: InteractionResult) -> Callable[[], bool]:
    return lambda: "Analysis of game" in analysis.content


@pytest.mark.parametrize("name", HOSTILE)
async def test_a_hostile_engine_costs_its_player_one_sentence_and_nobody_else_anything(
    name: str,
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(usi, "GRACE_SECONDS", GRACE)
    monkeypatch.setattr(usi, "QUIT_SECONDS", 0.3)
    monkeypatch.setattr(usi, "REAP_SECONDS", 1.0)
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, engine_path=HOSTILE[name](tmp_path)
    )
    table = await club.new_game(club.bob, club.carol)
    async with LoopProbe() as probe:
        game_id, thread = await start(club, level=1, color="gote")
        answer = await club.move(club.bob, "7g7f", table, fast=True)
        assert not answer.ephemeral and answer.files, answer.content
        assert not club.bot_posts(thread, "could not find a move"), "bob waited for the engine"
        [failed] = await club.posts(thread, "could not find a move")
    assert probe.worst < 0.1, probe.report()
    assert failed.custom_ids == [f"cp:{game_id}"] and "Retry" in failed.content
    assert (await club.game(game_id)).ply == 0
    hostile = engine_pids(tmp_path)
    assert hostile and await all_gone(tmp_path) == [], "the hostile processes are killed"

    retry = await club.fake.click(failed, f"cp:{game_id}", user=club.alice)
    assert retry.ephemeral and "thinking" in retry.content
    await computer_moved(club, game_id, 1, posted=False)  # the plan is used up: the engine behaves
    await club.fake.wait_quiet()
    assert club.bot_posts(thread, "1. ☗")
    assert club.bot is not None
    await club.runner.stop(club.bot)
    club.bot = None
    assert await all_gone(tmp_path) == [] and len(engine_pids(tmp_path)) > len(hostile)


#: Analyses one member queues at once, and the engine's time for each of their positions.
ANALYSES = 6
ANALYSIS_MS = 600


async def test_one_members_analyses_delay_anothers_computer_move_by_one_search_at_most(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    club = await open_club(
        fake_discord, bot_runner, e2e_guard, tmp_path, engine_path=fairy_stockfish()
    )
    analyses_service = club.service.analyses
    analyses_service.movetime_ms = ANALYSIS_MS
    # The scheduling is what is measured, not the budgets: room for every analysis queued.
    analyses_service.budgets = replace(
        analyses_service.budgets, analyses_per_member=ANALYSES, analyses_per_server=ANALYSES
    )
    pool = club.service.computer.engine
    assert isinstance(pool, EnginePool) and pool.jobs == 1
    finished = []
    for _ in range(ANALYSES):
        table = await club.new_game(club.bob, club.carol)
        # Both players move first: a game resigned before that is aborted, with nothing to analyse.
        await club.play(table, [(club.bob, "7g7f"), (club.carol, "3c3d")])
        await club.resign(table, club.bob)
        finished.append(table)
    game_id, thread = await start(club, level=1, color="sente")

    analyses: list[InteractionResult] = []
    for table in finished:
        game = {"game": str(table.game_id)}
        analyses.append(
            await club.fake.slash("analyse", game, user=club.bob, channel=table.thread, wait=False)
        )
    async with asyncio.timeout(ENGINE_WAIT):
        while pool.turns.waiting < ANALYSES - 1:  # one searching, the others waiting
            await asyncio.sleep(0.01)
    legal = (await club.service.games.legal_moves(game_id, club.alice.user.id))[0].usi
    began = time.monotonic()
    moved = await club.fake.slash(
        "move", {"move": legal}, user=club.alice, channel=thread, wait=False
    )
    await computer_moved(club, game_id, 2, posted=False)
    took = time.monotonic() - began
    # Served first come first served, it would wait for every queued analysis search
    # (five more, 3 s).
    one_search = ANALYSIS_MS / 1000
    assert took < one_search + 0.1 + 1.3, f"{took:.2f} s for the computer's move"
    assert pool.turns.waiting > 0, "the analyses were still queued when the computer moved"

    await moved.wait_response(ENGINE_WAIT)
    for asked in analyses:
        await club.fake.wait_for(answered(asked), what="the analysis", timeout=ENGINE_WAIT * 2)
    await club.fake.wait_quiet()
