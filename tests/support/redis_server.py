"""The Redis half of the shared rate limit's tests: the server `TEST_REDIS_URL` names
(`scripts/test_redis.sh` starts a throwaway one; `.ci/run` does so in CI).

Without the address, outside CI, the tests marked `redis` are deselected and the run ends
with one line saying so; in CI (`CI` set) a missing address is an error, so they can never
pass by being skipped.
"""

from __future__ import annotations

import os

import pytest

URL_VARIABLE = "TEST_REDIS_URL"
MARKER = "redis"

_DESELECTED = pytest.StashKey[int]()


def server_url() -> str | None:
    return os.environ.get(URL_VARIABLE) or None


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the Redis tests when there is no server (and it is not CI)."""
    if server_url() is not None:
        return
    wanted = [item for item in items if item.get_closest_marker(MARKER) is not None]
    if not wanted:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(
            f"CI is set but {URL_VARIABLE} is not: {len(wanted)} tests need Redis in CI. "
            "Start one with scripts/test_redis.sh (as .ci/run does)."
        )
    config.stash[_DESELECTED] = len(wanted)
    config.hook.pytest_deselected(items=wanted)
    items[:] = [item for item in items if item.get_closest_marker(MARKER) is None]


def summary_line(config: pytest.Config) -> str | None:
    count = config.stash.get(_DESELECTED, 0)
    if not count:
        return None
    return (
        f"Redis: {count} tests not run ({URL_VARIABLE} is unset); "
        "run them with scripts/test_redis.sh .venv/bin/python -m pytest"
    )


@pytest.fixture
def redis_url() -> str:
    url = server_url()
    if url is None:
        pytest.skip(f"{URL_VARIABLE} is unset")
    return url
