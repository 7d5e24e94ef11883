"""Moving a club: copy a SQLite database into an empty PostgreSQL one, then check the copy.

Both databases are first opened as the bot opens them, so each is migrated to this code's
version (an older SQLite file is brought up to date in place) and one written by a newer
bot is refused. The target must hold no row at all: a copy never merges. Every table of
the source is copied, parents before the tables that refer to them (the order comes from
the foreign keys, so a table added by a later migration is copied without a change here),
with its ids as they were, in one transaction; PostgreSQL's identity counters are then
set past the highest id, so the next game gets the next number.

The check afterwards: each table holds as many rows as in the source, and every game
replays from its start position through its stored moves to the ply and position its row
records (`rules.Game.replay`, the replay the service loads games with).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules import Game

from .addresses import without_password
from .errors import DatabaseError
from .opening import is_postgres_url, open_database
from .sqlite import sqlite_path

#: Rows sent to PostgreSQL per COPY.
BATCH = 20_000
#: Kept by each database for itself, never copied: its migrations, and the bucket of
#: Discord's global limit (worth a second, and used only where the processes share it).
OWN_TABLES = frozenset({"schema_migrations", "rate_limits"})


class CopyRefused(DatabaseError):
    """The copy cannot start (an unsupported pair of databases, a target with data)."""


class CopyFailed(DatabaseError):
    """The copy was made but does not check out; the message says what differs."""


@dataclass
class CopyReport:
    """What was copied: rows per table, games replayed, and the seconds it took."""

    rows: dict[str, int] = field(default_factory=dict)
    games_replayed: int = 0
    copy_seconds: float = 0.0
    check_seconds: float = 0.0

    def lines(self) -> list[str]:
        total = sum(self.rows.values())
        return [
            *(f"{table:>24} {count:>10,}" for table, count in self.rows.items()),
            f"{'rows':>24} {total:>10,} copied in {self.copy_seconds:.1f} s",
            f"{'games':>24} {self.games_replayed:>10,} replayed in {self.check_seconds:.1f} s",
        ]


async def copy_database(source: str, target: str) -> CopyReport:
    """Copy the SQLite database `source` into the empty PostgreSQL database `target`,
    then check the copy; `CopyRefused` before anything is written, `CopyFailed` if the
    copy does not check out."""
    if is_postgres_url(source) or not is_postgres_url(target):
        raise CopyRefused(
            "copy goes from a SQLite file to a PostgreSQL database: "
            "python -m bot.db copy sqlite:///data/shogi.db postgresql://user@host/name"
        )
    path = existing_sqlite(source)
    for where in (path, target):
        await (await open_database(where)).close()  # migrated, or refused as too new
    import asyncpg

    from .reaching import CONNECT_TIMEOUT, connecting

    report = CopyReport()
    with closing(_read_only(path)) as lite:
        tables = _parents_first(lite)
        async with connecting(target):
            connection = await asyncpg.connect(target, timeout=CONNECT_TIMEOUT)
        try:
            started = time.perf_counter()
            await _refuse_data(connection, target)
            async with connection.transaction():
                for table in tables:
                    report.rows[table] = await _copy_table(lite, connection, table)
                await _reset_identities(connection, tables)
            # Statistics now, not when autovacuum gets round to it: the planner would
            # otherwise read the freshly filled tables as empty and pick scans for the
            # first hours of the club's new home.
            await connection.execute("ANALYZE")
            report.copy_seconds = time.perf_counter() - started
            started = time.perf_counter()
            await _check_counts(connection, report.rows)
            report.games_replayed = await _check_replays(connection)
            report.check_seconds = time.perf_counter() - started
        finally:
            await connection.close()
    return report


def existing_sqlite(source: str) -> Path:
    """The SQLite file `source` names, absolute, which must exist: a mistyped or relative
    path is refused with the path looked at, never created (an empty file would be
    "copied" as an empty club)."""
    text = sqlite_path(source)
    path = Path(text).absolute()
    if text == ":memory:" or not path.is_file():
        raise CopyRefused(
            f"there is no SQLite database at {path}: give the file's path, relative to "
            f"{Path.cwd()} (sqlite:///data/shogi.db) or absolute (sqlite:////srv/shogi.db)."
        )
    try:
        _read_only(path).close()
    except sqlite3.Error as error:
        raise CopyRefused(f"{path} cannot be opened as a SQLite database: {error}.") from None
    return path


def _read_only(path: Path) -> sqlite3.Connection:
    """The file opened read-only (never created), whatever characters its path holds."""
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)


def _parents_first(lite: sqlite3.Connection) -> list[str]:
    """The source's tables, each after every table its foreign keys refer to."""
    names = [
        row[0]
        for row in lite.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        if row[0] not in OWN_TABLES
    ]
    parents = {
        name: {row[2] for row in lite.execute(f'PRAGMA foreign_key_list("{name}")')} - {name}
        for name in names
    }
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise CopyRefused(f"the tables' foreign keys form a cycle: {sorted(parents)}")
        ordered += ready
    return ordered


async def _refuse_data(connection: Any, target: str) -> None:
    tables = await connection.fetch(
        "SELECT table_name FROM information_schema.tables"
        " WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'"
    )
    for (table,) in tables:
        if table in OWN_TABLES:
            continue
        if await connection.fetchval(f'SELECT EXISTS (SELECT 1 FROM "{table}")'):
            raise CopyRefused(
                f"{without_password(target)} is not empty (table {table} has rows): "
                "copy only into a new, empty database."
            )


def _batches(cursor: sqlite3.Cursor) -> Iterator[list[tuple[Any, ...]]]:
    while rows := cursor.fetchmany(BATCH):
        yield rows


async def _copy_table(lite: sqlite3.Connection, connection: Any, table: str) -> int:
    columns = [row[1] for row in lite.execute(f'PRAGMA table_info("{table}")')]
    known = {
        row[0]
        for row in await connection.fetch(
            "SELECT column_name FROM information_schema.columns"
            " WHERE table_schema = current_schema() AND table_name = $1",
            table,
        )
    }
    if missing := [column for column in columns if column not in known]:
        raise CopyRefused(f"the target has no {table}.{', '.join(missing)}")
    quoted = ", ".join(f'"{column}"' for column in columns)
    copied = 0
    for rows in _batches(lite.execute(f'SELECT {quoted} FROM "{table}"')):
        await connection.copy_records_to_table(table, records=rows, columns=columns)
        copied += len(rows)
    return copied


async def _reset_identities(connection: Any, tables: list[str]) -> None:
    """Each identity counter past its table's highest id."""
    identities = await connection.fetch(
        "SELECT table_name, column_name FROM information_schema.columns"
        " WHERE table_schema = current_schema() AND is_identity = 'YES'"
    )
    for table, column in identities:
        if table in tables:
            await connection.execute(
                f"SELECT setval(pg_get_serial_sequence('\"{table}\"', '{column}'),"
                f' COALESCE(MAX("{column}"), 0) + 1, false) FROM "{table}"'
            )


async def _check_counts(connection: Any, rows: dict[str, int]) -> None:
    for table, expected in rows.items():
        found = await connection.fetchval(f'SELECT COUNT(*) FROM "{table}"')
        if found != expected:
            raise CopyFailed(f"table {table}: {expected} rows in the source, {found} copied")


async def _check_replays(connection: Any) -> int:
    """Every game replayed from its moves to its stored ply and position; how many."""
    games = {
        row[0]: (row[1], row[2], row[3])
        for row in await connection.fetch("SELECT id, start_sfen, ply, sfen FROM games")
    }
    moves: dict[int, list[str]] = {game_id: [] for game_id in games}
    async with connection.transaction(isolation="repeatable_read", readonly=True):
        async for game_id, usi in connection.cursor(
            "SELECT game_id, usi FROM moves ORDER BY game_id, ply", prefetch=BATCH
        ):
            moves[game_id].append(usi)
    for game_id, (start, ply, sfen) in games.items():
        try:
            game = Game.replay(start, moves[game_id])
        except ValueError as error:
            raise CopyFailed(f"game {game_id} does not replay: {error}") from error
        if len(game.moves) != ply or game.position.sfen() != sfen:
            raise CopyFailed(f"game {game_id}: its moves do not lead to its stored position")
    return len(games)
