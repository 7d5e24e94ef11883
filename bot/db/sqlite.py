"""The SQLite backend: one file behind one aiosqlite connection, with explicit transactions.

Why one connection and a lock around everything: aiosqlite runs every call of a
connection on one worker thread, so two coroutines sharing it would otherwise
share its transaction too; a read by one coroutine could see another's
half-written move, and a rollback by one could undo the other's work. The lock
makes each `transaction()` or `read()` block exclusive within the process.
Between processes (several shards on one file) SQLite's own locking and the
busy timeout take over, and the conditional writes in the repositories make a
racing second writer fail cleanly instead of overwriting.

Pragmas: foreign keys on (SQLite leaves them off by default), WAL so readers in
other processes never block on the writer, `synchronous=NORMAL` (in WAL mode a
commit survives a crash of the process; only a power cut can lose the last
commits, never corrupt the file), and a busy timeout so that a second process
waits for the lock instead of failing at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import TypeVar, cast

import aiosqlite

from .base import DirectStatements, HoppingStatements
from .database import Database, Session
from .errors import DatabaseUnreachable
from .migrations import current_version, migrate
from .rows import to_us

BUSY_TIMEOUT_MS = 5_000
T = TypeVar("T")


def sqlite_path(where: str | Path) -> str:
    """The file (or `:memory:`) a SQLite location names, with or without `sqlite:///`."""
    text = str(where)
    return text.removeprefix("sqlite:///") if text.startswith("sqlite:///") else text


async def _enter_wal(connection: aiosqlite.Connection) -> None:
    """Put the file in write-ahead-log mode, waiting for another process doing the same.

    Turning a new file to WAL upgrades a read lock to a write lock, and SQLite answers
    "database is locked" at once, without the busy timeout, when another connection holds
    the write lock: two processes starting together on a new file (shard processes, an
    overlapping deploy) would have one of them stop. So this waits as the busy timeout
    would, then gives up with SQLite's own error."""
    deadline = asyncio.get_running_loop().time() + BUSY_TIMEOUT_MS / 1000
    pause = 0.005
    while True:
        try:
            await connection.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as error:
            if "locked" not in str(error) or asyncio.get_running_loop().time() >= deadline:
                raise
        await asyncio.sleep(pause)
        pause = min(pause * 2, 0.1)


class SqliteDatabase(Database):
    """One SQLite file behind one aiosqlite connection (see the module's docstring).
    `run` executes a whole transaction in one round trip to aiosqlite's thread."""

    backend = "sqlite"

    def __init__(self, connection: aiosqlite.Connection, location: str) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self._session = Session(HoppingStatements(connection))
        # The same repositories on the sqlite3 connection, for `run` (used in its thread only).
        self._direct = Session(DirectStatements(_sqlite3_of(connection)))
        self.location = location

    @classmethod
    async def open_file(cls, path: str | Path) -> SqliteDatabase:
        """Open (creating if needed) and migrate; refuses a database newer than the code.

        `":memory:"` gives a private in-memory database (tests).
        """
        in_memory = str(path) == ":memory:"
        try:
            if not in_memory:
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise _unopened(path, error) from None
        try:
            try:
                await connection.execute("PRAGMA foreign_keys = ON")
                await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
                if not in_memory:
                    await _enter_wal(connection)
                    await connection.execute("PRAGMA synchronous = NORMAL")
            except sqlite3.Error as error:
                raise _unopened(path, error) from None
            location = "the in-memory database" if in_memory else f"The database {path}"
            await migrate(connection, to_us(datetime.now(UTC)), location=location)
        except BaseException:
            await connection.close()
            raise
        return cls(connection, str(path))

    async def close(self) -> None:
        async with self._lock:
            await self._connection.close()

    async def schema_version(self) -> int:
        async with self._lock:
            return await current_version(self._connection)

    async def checkpoint(self) -> None:
        """Fold the write-ahead log into the main file (before a backup or measuring size)."""
        async with self._lock:
            await self._connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")

    async def refresh_statistics(self) -> None:
        async with self._lock:
            await self._connection.execute("ANALYZE")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        """A write transaction: committed when the block ends, rolled back if it raises.

        `BEGIN IMMEDIATE` takes SQLite's write lock at the start, so a transaction
        that reads and then writes can never fail halfway on another process's lock.
        """
        async with self._lock:
            try:
                await self._connection.execute("BEGIN IMMEDIATE")
                yield self._session
            except BaseException:
                await self._end_begun()
                raise
            await self._connection.execute("COMMIT")

    @asynccontextmanager
    async def query(self) -> AsyncIterator[Session]:
        """For one read statement: no transaction around it (a single statement sees
        a consistent snapshot by itself), which saves the BEGIN and ROLLBACK round trips."""
        async with self._lock:
            yield self._session

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Session]:
        """A read-only transaction: several queries see one consistent snapshot."""
        async with self._lock:
            try:
                await self._connection.execute("BEGIN")
                yield self._session
            finally:
                await self._end_begun()

    async def _end_begun(self) -> None:
        """Roll back the transaction a block began, whichever await it left at. aiosqlite
        runs a statement in its thread even when the task awaiting it is cancelled, so a
        block cancelled while its BEGIN was on the way has a transaction all the same: left
        open, every later block would fail to begin its own. A BEGIN that failed left none."""
        with contextlib.suppress(sqlite3.OperationalError):  # no transaction is active
            await self._connection.execute("ROLLBACK")

    async def run(self, work: Callable[[Session], Awaitable[T]], *, write: bool = True) -> T:
        """`work(session)` as one transaction, in one round trip to the database's thread.

        `work` is an async function of a `Session`, like the body of a `transaction()`
        block, but it runs whole in aiosqlite's thread: `BEGIN IMMEDIATE`, its statements,
        then `COMMIT` (or `ROLLBACK` if it raises, and the error comes back here). With
        `write=False` it is a read that sees one snapshot, as `read()` gives. Each
        statement of a `transaction()` block is a round trip of its own, a wake-up of
        the event loop each; a move stores four or five statements.

        `work` may await only the session's repositories (they never suspend there);
        awaiting anything else raises `RuntimeError` and rolls back. Keep it to the
        statements and the arithmetic between them: while it runs, the database serves
        no one else.

            async def store(tx: Session) -> bool:
                if not await tx.games.advance(change):
                    return False
                await tx.moves.insert(move)
                return True

            stored = await db.run(store)
        """
        async with self._lock:
            return await _in_thread(self._connection, partial(self._run_here, work, write))

    def _run_here(self, work: Callable[[Session], Awaitable[T]], write: bool) -> T:
        """`run`'s transaction, in aiosqlite's thread."""
        connection = _sqlite3_of(self._connection)
        connection.execute("BEGIN IMMEDIATE" if write else "BEGIN")
        try:
            result = _complete(work(self._direct))
        except BaseException:
            connection.execute("ROLLBACK")
            raise
        connection.execute("COMMIT" if write else "ROLLBACK")
        return result


def _unopened(path: str | Path, error: OSError | sqlite3.Error) -> DatabaseUnreachable:
    """A SQLite file that cannot be opened (a folder that cannot be made, a file that is
    not a database or may not be written), said with its absolute path."""
    reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
    return DatabaseUnreachable(
        f"Could not open the SQLite database {Path(path).absolute()} ({reason}): check "
        "DATABASE_PATH, and that this user may write there."
    )


def _complete(awaitable: Awaitable[T]) -> T:
    """The result of an awaitable that never suspends (the repositories on
    `DirectStatements`), without an event loop."""
    steps = awaitable.__await__()
    try:
        steps.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    steps.close()
    raise RuntimeError(
        "Database.run: the work awaited something other than the database's repositories"
    )


# aiosqlite has no public way to run a function in its thread or to reach the sqlite3
# connection that lives there; both are needed by `run` and kept to these two helpers.


def _sqlite3_of(connection: aiosqlite.Connection) -> sqlite3.Connection:
    return connection._conn


async def _in_thread(connection: aiosqlite.Connection, function: Callable[[], T]) -> T:
    execute: Callable[[Callable[[], T]], Awaitable[T]] = connection._execute
    return await execute(function)
