"""The PostgreSQL backend: an asyncpg pool, one connection per transaction.

Why asyncpg: it speaks PostgreSQL's binary protocol straight from asyncio, with no
thread in between and prepared statements cached per connection, so a move's four or
five statements cost a network round trip each and nothing more.

The repositories' SQL is shared with SQLite; the only rewrite here is of the `?`
placeholders into PostgreSQL's `$1, $2, ...` (once per distinct statement, cached).
A unique-key violation is `Conflict`, as on SQLite.

Isolation: write transactions run at PostgreSQL's default, READ COMMITTED. Every write
that must happen once (a move at a ply, an ending, a reminder, an announcement, a
challenge taken) is a conditional UPDATE (`WHERE ply = ? AND status = 'active'`) or an
INSERT on a unique key; under READ COMMITTED a second writer on the same row waits for
the first to commit, then evaluates its WHERE again on the row as committed, so it
finds nothing to change (or clashes on the key) exactly as on SQLite, where the
writers take turns.

A write that depends on a game's position without updating its row (a forecast line, a
takeback request, clearing one's lines) first holds the row (`fetch_for_update`,
`SELECT ... FOR UPDATE`): a move updates that row before it reads what was stored for
the position, so the two take turns, and whichever comes second sees the first as
committed.

Where a read decides a write that no such update guards (a rated ending reading both
players' ratings, a limit counted before a note or an open challenge is added, a
vacation's allowance), `Statements.lock` takes transaction-scoped advisory locks on keys
that name what was read (sorted within a call, so that two transactions asking for the
same keys cannot deadlock), where SQLite's single writer already excludes the other. A
shared lock lets many writers through together while excluding one that needs the key
alone (rated endings in a server, against the rebuild of its ratings).

Reads (`read()`, `run(write=False)`) are REPEATABLE READ, read only: one snapshot for
all their queries, as on SQLite.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any, TypeVar, cast

import asyncpg

from .addresses import without_password
from .base import Params, Row
from .database import Database, Session
from .errors import (
    Conflict,
    DatabaseError,
    IntegrityError,
    MigrationCheckError,
)
from .migrations import (
    MIGRATIONS,
    VERSION_TABLE,
    Migration,
    postgres_ddl,
    postgres_statements,
    refuse_newer,
)
from .reaching import CONNECT_TIMEOUT, connecting
from .rows import to_us

T = TypeVar("T")

#: The key of the advisory lock that makes migrations from several processes take turns.
MIGRATION_LOCK = 7_160_001


@functools.lru_cache(maxsize=1024)
def to_postgres(sql: str) -> str:
    """`?` placeholders as `$1, $2, ...`, outside quoted strings."""
    out: list[str] = []
    number = 0
    quoted = False
    for char in sql:
        if char == "'":
            quoted = not quoted
        elif char == "?" and not quoted:
            number += 1
            out.append(f"${number}")
            continue
        out.append(char)
    return "".join(out)


def postgres_conflict(error: Exception) -> DatabaseError:
    """A unique-key violation as `Conflict`; any other broken rule (a foreign key, a
    CHECK, a NOT NULL) as `IntegrityError`, as on SQLite."""
    if isinstance(error, asyncpg.UniqueViolationError):
        return Conflict(str(error))
    return IntegrityError(str(error))


class PostgresStatements:
    """The repositories' statements on one asyncpg connection (that of one transaction)."""

    def __init__(self, connection: Any) -> None:
        self._connection = connection

    async def fetch(self, sql: str, params: Params) -> list[Row]:
        try:
            rows = await self._connection.fetch(to_postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise postgres_conflict(error) from error
        return [tuple(row) for row in rows]

    async def fetch_for_update(self, sql: str, params: Params) -> list[Row]:
        return await self.fetch(f"{sql} FOR UPDATE", params)

    async def fetch_skipping_locked(self, sql: str, params: Params) -> list[Row]:
        return await self.fetch(f"{sql} FOR UPDATE SKIP LOCKED", params)

    async def change(self, sql: str, params: Params) -> int:
        try:
            status: str = await self._connection.execute(to_postgres(sql), *params)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise postgres_conflict(error) from error
        # "UPDATE 1", "DELETE 3", "INSERT 0 1": the last number is the rows touched.
        return int(status.rsplit(" ", 1)[-1])

    async def change_many(self, sql: str, rows: Iterable[Params]) -> None:
        batch = [tuple(row) for row in rows]
        if not batch:
            return
        try:
            await self._connection.executemany(to_postgres(sql), batch)
        except asyncpg.IntegrityConstraintViolationError as error:
            raise postgres_conflict(error) from error

    async def lock(self, keys: Iterable[str], *, shared: bool = False) -> None:
        function = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        for key in sorted(set(keys)):
            await self._connection.execute(f"SELECT {function}(hashtextextended($1, 0))", key)


class PostgresDatabase(Database):
    """The bot's database on a PostgreSQL server (see the module's docstring)."""

    backend = "postgresql"

    def __init__(self, pool: Any, location: str) -> None:
        self._pool = pool
        self.location = location

    @classmethod
    async def connect(cls, url: str, *, min_size: int = 1, max_size: int = 10) -> PostgresDatabase:
        """Open a pool on `url` and migrate; refuses a database newer than the code."""
        location = f"The database {without_password(url)}"
        # Every distinct statement of the repositories stays prepared on each connection.
        async with connecting(url):
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                statement_cache_size=1024,
                timeout=CONNECT_TIMEOUT,
            )
        try:
            async with pool.acquire() as connection:
                await migrate(connection, to_us(datetime.now(UTC)), location=location)
        except BaseException:
            await pool.close()
            raise
        return cls(pool, location)

    async def close(self) -> None:
        await self._pool.close()

    async def schema_version(self) -> int:
        async with self._pool.acquire() as connection:
            return await current_version(connection)

    async def checkpoint(self) -> None:
        """Nothing to fold: a committed transaction is in PostgreSQL's log already."""

    async def refresh_statistics(self) -> None:
        async with self._pool.acquire() as connection:
            await connection.execute("ANALYZE")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        async with self._pool.acquire() as connection, connection.transaction():
            yield Session(PostgresStatements(connection))

    @asynccontextmanager
    async def query(self) -> AsyncIterator[Session]:
        async with self._pool.acquire() as connection:
            yield Session(PostgresStatements(connection))

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        async with (
            self._pool.acquire() as connection,
            connection.transaction(isolation="repeatable_read", readonly=True),
        ):
            yield Session(PostgresStatements(connection))

    async def run(self, work: Callable[[Session], Awaitable[T]], *, write: bool = True) -> T:
        """`work(session)` as one transaction on one connection of the pool."""
        async with self._pool.acquire() as connection:
            if write:
                async with connection.transaction():
                    return await work(Session(PostgresStatements(connection)))
            async with connection.transaction(isolation="repeatable_read", readonly=True):
                return await work(Session(PostgresStatements(connection)))


async def current_version(connection: Any) -> int:
    """The newest migration recorded in the database (0 for a fresh one)."""
    if await connection.fetchval("SELECT to_regclass('schema_migrations')") is None:
        return 0
    version = await connection.fetchval("SELECT MAX(version) FROM schema_migrations")
    return 0 if version is None else int(version)


async def migrate(
    connection: Any,
    now_us: int,
    *,
    location: str = "the database",
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> int:
    """Bring the schema up to the newest migration, each in its own transaction with the
    row that records it, under an advisory lock so that processes starting together
    migrate once; returns the version reached."""
    version = await current_version(connection)
    refuse_newer(version, migrations, location)
    for migration in migrations:
        if migration.version <= version:
            continue
        async with connection.transaction():
            await connection.execute("SELECT pg_advisory_xact_lock($1)", MIGRATION_LOCK)
            await connection.execute(postgres_ddl(VERSION_TABLE))
            # Another process may have migrated while this one waited for the lock.
            if await current_version(connection) < migration.version:
                for statement in postgres_statements(migration):
                    await connection.execute(statement)
                await _check(connection, migration)
                await connection.execute(
                    "INSERT INTO schema_migrations (version, description, applied_at)"
                    " VALUES ($1, $2, $3)",
                    migration.version,
                    migration.description,
                    now_us,
                )
        version = migration.version
    return version


async def _check(connection: Any, migration: Migration) -> None:
    if migration.postgres_check is None:
        return
    problems = cast(list[Any], await connection.fetch(migration.postgres_check))
    if problems:
        raise MigrationCheckError(
            f"migration {migration.version} ({migration.description}) left problems in the "
            f"database, so it was not applied: {[tuple(p) for p in problems[:5]]}"
        )
