"""Robustness tests: races, bad input, authority, secrets and Discord faults.

The normal run is the short CI version (well under 90 s for the folder).  The long version
runs the counts the issue asks for::

    python -m pytest tests/robustness --long-robustness

(pytest reads an option of a sub-folder's conftest only when that folder is named on the
command line; ``ROBUSTNESS_LONG=1`` does the same from anywhere.)

The end-to-end fixtures are those of ``tests/e2e`` (:mod:`tests.support.fixtures`): a fresh
fake Discord on 127.0.0.1 and a bot runner per test, with the guard that fails a test on
discord.py ERROR logs, loop exceptions, leaked tasks, unknown routes or unexpected 4xx answers.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.support.fixtures import bot_runner, club, e2e_guard, fail_on_leaks, fake_discord

__all__ = ["bot_runner", "club", "e2e_guard", "fake_discord"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    fail_on_leaks(Path(__file__).parent, items)


@dataclass(frozen=True)
class Scale:
    """How much each robustness test does: the CI figures or the long ones."""

    long: bool
    bot_race_rounds: int  # per case (same player twice / both players)
    service_race_rounds: int  # per case
    fuzz_inputs: int  # per target (move text, service play, SFEN, records)
    bot_fuzz_inputs: int  # /move through the fake Discord
    crash_kills: int  # SIGKILLs of the bot process while games are played (test_crash.py)


CI_SCALE = Scale(False, bot_race_rounds=50, service_race_rounds=150, fuzz_inputs=5_000,
                 bot_fuzz_inputs=200, crash_kills=10)  # fmt: skip
LONG_SCALE = Scale(True, bot_race_rounds=1_000, service_race_rounds=1_000, fuzz_inputs=100_000,
                   bot_fuzz_inputs=2_000, crash_kills=200)  # fmt: skip


def _long(config: pytest.Config) -> bool:
    try:
        flag = bool(config.getoption("--long-robustness"))
    except ValueError:
        flag = False
    return flag or os.environ.get("ROBUSTNESS_LONG", "") not in ("", "0")


@pytest.fixture(scope="session")
def scale(request: pytest.FixtureRequest) -> Scale:
    return LONG_SCALE if _long(request.config) else CI_SCALE
