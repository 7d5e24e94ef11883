"""Bringing a SQLite database up to the newest migration, on its aiosqlite connection."""

from __future__ import annotations

import aiosqlite

from ..errors import MigrationCheckError
from .history import MIGRATIONS
from .migration import VERSION_TABLE, Migration, refuse_newer


async def current_version(connection: aiosqlite.Connection) -> int:
    """The newest migration recorded in the database (0 for a fresh one)."""
    async with connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'"
    ) as cursor:
        if await cursor.fetchone() is None:
            return 0
    async with connection.execute("SELECT MAX(version) FROM schema_migrations") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row is not None and row[0] is not None else 0


async def _check(connection: aiosqlite.Connection, migration: Migration) -> None:
    """Refuse to record `migration` if its check finds a problem."""
    if migration.check is None:
        return
    async with connection.execute(migration.check) as cursor:
        problems = list(await cursor.fetchall())
    if problems:
        raise MigrationCheckError(
            f"migration {migration.version} ({migration.description}) left problems in the "
            f"database, so it was not applied: {problems[:5]}"
        )


async def migrate(
    connection: aiosqlite.Connection,
    now_us: int,
    *,
    location: str = "the database",
    migrations: tuple[Migration, ...] = MIGRATIONS,
) -> int:
    """Bring the schema up to the newest migration; returns the version reached.

    The connection must be in autocommit mode (transactions are explicit here).
    """
    version = await current_version(connection)
    refuse_newer(version, migrations, location)
    await connection.execute(VERSION_TABLE)
    for migration in migrations:
        if migration.version <= version:
            continue
        await connection.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while this one waited for the lock.
            if await current_version(connection) >= migration.version:
                await connection.execute("ROLLBACK")
                version = migration.version
                continue
            for statement in migration.statements:
                await connection.execute(statement)
            await _check(connection, migration)
            await connection.execute(
                "INSERT INTO schema_migrations (version, description, applied_at) VALUES (?, ?, ?)",
                (migration.version, migration.description, now_us),
            )
        except BaseException:
            await connection.execute("ROLLBACK")
            raise
        await connection.execute("COMMIT")
        version = migration.version
    return version
