"""Shared pytest configuration: markers and the command-line switches of the long tests.

* ``--perft-full`` also runs the depth-4 perft entries whose counts run into the millions
  (minutes, not seconds, in pure Python).
* ``--cshogi-positions N`` sets how many positions the differential test against cshogi
  compares (default 60,000, about 20 seconds; ``--cshogi-positions 1000000`` for the
  long run).
* ``--mate-positions N`` sets how many positions reached by seeded check-seeking playouts
  from the records' positions the mate solver's comparison with cshogi adds to the records'
  own (default 300, about 8 seconds); ``--mate-plies P`` sets the length limit of that
  comparison (default 7; ``--mate-positions 3000 --mate-plies 11`` for the long run).

Tests marked ``slow`` still run by default; ``-m "not slow"`` skips them when iterating.

The storage tests run on SQLite and on PostgreSQL; the PostgreSQL half needs a server
(``TEST_DATABASE_URL``, see ``tests/support/postgres.py``); the shared rate limit's Redis
tests need a Redis server (``TEST_REDIS_URL``, see ``tests/support/redis_server.py``).
"""

from __future__ import annotations

import pytest

from tests.support import postgres, redis_server
from tests.support.postgres import postgres_database, postgres_url
from tests.support.redis_server import redis_url

__all__ = ["postgres_database", "postgres_url", "redis_url"]

DEFAULT_CSHOGI_POSITIONS = 60_000
DEFAULT_MATE_PLIES = 7
DEFAULT_MATE_POSITIONS = 300


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("shogi rules")
    group.addoption(
        "--perft-full",
        action="store_true",
        default=False,
        help="also run the depth-4 perft entries above 2,000,000 nodes (several minutes)",
    )
    group.addoption(
        "--cshogi-positions",
        action="store",
        type=int,
        default=DEFAULT_CSHOGI_POSITIONS,
        metavar="N",
        help=f"positions compared with cshogi in the differential test "
        f"(default {DEFAULT_CSHOGI_POSITIONS:,})",
    )
    group.addoption(
        "--mate-positions",
        action="store",
        type=int,
        default=DEFAULT_MATE_POSITIONS,
        metavar="N",
        help=f"playout positions added to the mate solver's comparison with cshogi "
        f"(default {DEFAULT_MATE_POSITIONS})",
    )
    group.addoption(
        "--mate-plies",
        action="store",
        type=int,
        default=DEFAULT_MATE_PLIES,
        metavar="P",
        help=f"length limit of the mate solver's comparison (default {DEFAULT_MATE_PLIES})",
    )
    # Declared here, in the root conftest, so that it is accepted from the repository
    # root as well as with tests/robustness named on the command line.
    parser.getgroup("robustness").addoption(
        "--long-robustness",
        action="store_true",
        default=False,
        help="run the long robustness versions: 1,000 racing rounds, 100,000 fuzz inputs "
        "per target (many minutes)",
    )


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "slow: a slower test (seconds); still runs by default, deselect with -m 'not slow'",
    )
    config.addinivalue_line(
        "markers", "postgres: needs the PostgreSQL server named by TEST_DATABASE_URL"
    )
    config.addinivalue_line("markers", "redis: needs the Redis server named by TEST_REDIS_URL")
    config.addinivalue_line(
        "markers", "sqlite_only: about SQLite's own machinery; not run with the postgres `db`"
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    postgres.select(config, items)
    redis_server.select(config, items)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    for line in (
        postgres.summary_line(terminalreporter.config),
        redis_server.summary_line(terminalreporter.config),
    ):
        if line is not None:
            terminalreporter.write_line(line, yellow=True)


@pytest.fixture(scope="session")
def perft_full(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--perft-full"))


@pytest.fixture(scope="session")
def cshogi_positions(request: pytest.FixtureRequest) -> int:
    return int(request.config.getoption("--cshogi-positions"))


@pytest.fixture(scope="session")
def mate_positions(request: pytest.FixtureRequest) -> int:
    return int(request.config.getoption("--mate-positions"))


@pytest.fixture(scope="session")
def mate_plies(request: pytest.FixtureRequest) -> int:
    return int(request.config.getoption("--mate-plies"))
