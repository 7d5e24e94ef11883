"""The PostgreSQL half of the storage tests: a fresh database per test, made fast.

The server is the one `TEST_DATABASE_URL` names (`scripts/test_postgres.sh` starts a
throwaway one; `.ci/run` does so in CI). Each run gets a database of its own, and each
test a fresh schema in it (the address names it as `search_path`), dropped afterwards:
creating a schema and migrating it takes half the time of copying a migrated template
database (`CREATE DATABASE ... TEMPLATE`), and a quarter of creating a database.

Without the address, outside CI, the PostgreSQL tests are deselected and the run ends
with one line saying so; in CI (`CI` set) a missing address is an error, so the half
that needs PostgreSQL can never pass by being skipped.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest

URL_VARIABLE = "TEST_DATABASE_URL"
#: The parameter of the `db` fixtures that means PostgreSQL, and the marker of tests that
#: need the server whatever their parameters.
PARAM = "postgres"
MARKER = "postgres"
#: The marker of tests about SQLite's own machinery, run only with the SQLite parameters.
SQLITE_ONLY = "sqlite_only"

_numbers = itertools.count(1)
_DESELECTED = pytest.StashKey[int]()


def server_url() -> str | None:
    return os.environ.get(URL_VARIABLE) or None


def database_url(url: str, name: str) -> str:
    """`url` with its database replaced by `name`."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


def needs_postgres(item: pytest.Item) -> bool:
    callspec = getattr(item, "callspec", None)
    if callspec is not None and PARAM in callspec.params.values():
        return True
    return item.get_closest_marker(MARKER) is not None


def sqlite_only(item: pytest.Item) -> bool:
    """A test of SQLite's own machinery (aiosqlite's thread, WAL, the file) run with the
    PostgreSQL parameter: it has nothing to test there."""
    callspec = getattr(item, "callspec", None)
    return (
        callspec is not None
        and PARAM in callspec.params.values()
        and item.get_closest_marker(SQLITE_ONLY) is not None
    )


def select(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Drop the PostgreSQL parameter of SQLite-only tests; deselect the PostgreSQL tests
    when there is no server (and it is not CI)."""
    items[:] = [item for item in items if not sqlite_only(item)]
    if server_url() is not None:
        return
    wanted = [item for item in items if needs_postgres(item)]
    if not wanted:
        return
    if os.environ.get("CI"):
        raise pytest.UsageError(
            f"CI is set but {URL_VARIABLE} is not: {len(wanted)} storage tests need "
            "PostgreSQL in CI. Start one with scripts/test_postgres.sh (as .ci/run does)."
        )
    config.stash[_DESELECTED] = len(wanted)
    config.hook.pytest_deselected(items=wanted)
    items[:] = [item for item in items if not needs_postgres(item)]


def summary_line(config: pytest.Config) -> str | None:
    count = config.stash.get(_DESELECTED, 0)
    if not count:
        return None
    return (
        f"PostgreSQL: {count} tests not run ({URL_VARIABLE} is unset); "
        "run them with scripts/test_postgres.sh .venv/bin/python -m pytest"
    )


async def _execute(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


def _on_own_loop(work: Coroutine[object, object, None]) -> None:
    """Run `work` to the end on an event loop of its own, in a thread: session fixtures
    are first asked for from inside a test's running loop."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, work).result()


@pytest.fixture(scope="session")
def postgres_database() -> Iterator[str]:
    """The address of a database of this run's own (dropped at its end), in which each
    test gets a schema."""
    url = server_url()
    if url is None:
        pytest.skip(f"{URL_VARIABLE} is unset")
    name = f"shogi_tests_{os.getpid()}"
    _on_own_loop(_execute(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
    _on_own_loop(_execute(url, f'CREATE DATABASE "{name}"'))
    yield database_url(url, name)
    _on_own_loop(_execute(url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@asynccontextmanager
async def fresh_schema(database: str) -> AsyncIterator[str]:
    """The address of a new, empty schema in `database` (every connection opened with it
    works in that schema alone), dropped with everything in it afterwards."""
    name = f"test_{next(_numbers)}"
    await _execute(database, f"CREATE SCHEMA {name}")
    try:
        yield f"{database}?search_path={name}"
    finally:
        await _execute(database, f"DROP SCHEMA {name} CASCADE")


async def raw(url: str) -> Any:
    """A plain asyncpg connection on the schema `url` names (a test's own), for what the
    repositories do not say: the server's catalogs, hand-written rows."""
    import asyncpg

    parts = urlsplit(url)
    schema = parts.query.removeprefix("search_path=")
    plain = urlunsplit((parts.scheme, parts.netloc, parts.path, "", ""))
    return await asyncpg.connect(plain, server_settings={"search_path": schema})


@pytest.fixture
async def postgres_url(postgres_database: str) -> AsyncIterator[str]:
    """The address of a fresh, empty schema of this test's own (`open_database` on it
    migrates it: every PostgreSQL test runs the migrations)."""
    async with fresh_schema(postgres_database) as url:
        yield url
