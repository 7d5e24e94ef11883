"""Opening the bot's database: the address picks the backend.

A `postgresql://` (or `postgres://`) address opens PostgreSQL (`bot.db.postgres`, through
asyncpg, imported only then: it is an optional extra); anything else is a SQLite file
(`sqlite:///path` or a bare path), or `:memory:` (`bot.db.sqlite`). The choice lives here,
above both backends and the `Database` they share, so that no backend imports another
and `Database` imports neither.
"""

from __future__ import annotations

from pathlib import Path

from .database import Database
from .errors import DatabaseUnreachable
from .sqlite import SqliteDatabase, sqlite_path


def is_postgres_url(where: str | Path) -> bool:
    return str(where).startswith(("postgresql://", "postgres://"))


async def open_database(where: str | Path) -> Database:
    """Open (creating if needed) and migrate; refuses a database newer than the code.

    db = await open_database("data/shogi.db")  # or "postgresql://host/shogi"
    """
    if is_postgres_url(where):
        try:
            from .postgres import PostgresDatabase
        except ModuleNotFoundError as error:
            if error.name != "asyncpg":
                raise
            raise DatabaseUnreachable(
                "The address names a PostgreSQL database, but its driver asyncpg is not "
                "installed: install the bot with the README's first command "
                "(requirements/bot.lock holds it)."
            ) from None
        return await PostgresDatabase.connect(str(where))
    return await SqliteDatabase.open_file(sqlite_path(where))
