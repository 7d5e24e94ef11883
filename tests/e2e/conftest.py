"""The end-to-end tests' fixtures (see :mod:`tests.support.fixtures`): a fresh fake Discord,
bot runner and guard per test, and the club with its bot."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.fixtures import (
    bot_runner,
    club,
    e2e_guard,
    fail_on_leaks,
    fake_discord,
    japanese_club,
)

__all__ = ["bot_runner", "club", "e2e_guard", "fake_discord", "japanese_club"]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    fail_on_leaks(Path(__file__).parent, items)
