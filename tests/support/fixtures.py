"""Fixtures of the bot tests: a fresh fake Discord, bot runner and guard per test, and the
club.  A folder's conftest imports the ones it uses.

Why per test: a fake server and a bot cost tens of milliseconds, and sharing them would let
one test's leftovers (messages, views, tasks) leak into the next.

Teardown order is bot runner -> fake -> guard, so the guard sees every task and log record
the other two left behind.  The test fails (as an error at teardown) on any discord.py ERROR
log, exception in the event loop, leaked task, unknown route or unexpected 4xx answer.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.fakediscord import BotRunner, E2EGuard, FakeDiscord

from .club import JAPANESE, Club, open_club


def fail_on_leaks(folder: Path, items: list[pytest.Item]) -> None:
    """Unclosed sessions and transports and never-awaited coroutines fail the tests of
    ``folder`` (for a conftest's ``pytest_collection_modifyitems``)."""
    for item in items:
        if folder in Path(str(item.path)).parents:
            item.add_marker(pytest.mark.filterwarnings("error::ResourceWarning"))
            item.add_marker(pytest.mark.filterwarnings("error::RuntimeWarning"))


@pytest.fixture
async def e2e_guard() -> AsyncIterator[E2EGuard]:
    """Installed first, checked last: see :class:`tests.fakediscord.E2EGuard`."""
    guard = E2EGuard()
    guard.install()
    yield guard
    problems = await guard.finish()
    if problems:
        pytest.fail("end-to-end teardown found problems:\n  " + "\n  ".join(problems))


@pytest.fixture
async def fake_discord(e2e_guard: E2EGuard) -> AsyncIterator[FakeDiscord]:
    """A started fake Discord on 127.0.0.1, with discord.py pointed at it for the whole test."""
    fake = FakeDiscord()
    await fake.start()
    try:
        with fake.patched_discord():
            yield fake
    finally:
        await fake.stop()
    e2e_guard.extra_problems.extend(fake.problems())


@pytest.fixture
async def bot_runner(fake_discord: FakeDiscord, e2e_guard: E2EGuard) -> AsyncIterator[BotRunner]:
    """``await bot_runner.start(bot_or_factory)``; every bot started is closed at teardown."""
    runner = BotRunner(fake_discord, e2e_guard)
    yield runner
    await runner.close_all()


@pytest.fixture
async def club(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> Club:
    """The :class:`Club` with its bot started."""
    return await open_club(fake_discord, bot_runner, e2e_guard, tmp_path)


@pytest.fixture
async def japanese_club(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> Club:
    """A club whose server and members are in Japanese, with Japanese names (one with
    an emoji), started."""
    return await open_club(fake_discord, bot_runner, e2e_guard, tmp_path, **JAPANESE)
