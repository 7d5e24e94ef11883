"""One SQLite file behind one aiosqlite connection, with explicit transactions.

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
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite

from .challenges import ChallengeRepository, PlayerRepository
from .games import DeadlineRepository, GameRepository, MoveRepository
from .migrations import current_version, migrate
from .publications import PublicationRepository
from .rows import to_us

BUSY_TIMEOUT_MS = 5_000


class Session:
    """The repositories of one open transaction (or read), bound to its connection."""

    def __init__(self, connection: aiosqlite.Connection) -> None:
        self.players = PlayerRepository(connection)
        self.challenges = ChallengeRepository(connection)
        self.games = GameRepository(connection)
        self.moves = MoveRepository(connection)
        self.deadlines = DeadlineRepository(connection)
        self.publications = PublicationRepository(connection)


class Database:
    """The bot's database. `db = await Database.open("data/shogi.db")`, then
    `async with db.transaction() as tx: await tx.games.get(1)`."""

    def __init__(self, connection: aiosqlite.Connection, location: str) -> None:
        self._connection = connection
        self._lock = asyncio.Lock()
        self._session = Session(connection)
        self.location = location

    @classmethod
    async def open(cls, path: str | Path) -> Database:
        """Open (creating if needed) and migrate; refuses a database newer than the code.

        `":memory:"` gives a private in-memory database (tests).
        """
        in_memory = str(path) == ":memory:"
        if not in_memory:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        connection = await aiosqlite.connect(str(path), isolation_level=None)
        try:
            await connection.execute("PRAGMA foreign_keys = ON")
            await connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if not in_memory:
                await connection.execute("PRAGMA journal_mode = WAL")
                await connection.execute("PRAGMA synchronous = NORMAL")
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

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Session]:
        """A write transaction: committed when the block ends, rolled back if it raises.

        `BEGIN IMMEDIATE` takes SQLite's write lock at the start, so a transaction
        that reads and then writes can never fail halfway on another process's lock.
        """
        async with self._lock:
            await self._connection.execute("BEGIN IMMEDIATE")
            try:
                yield self._session
            except BaseException:
                await self._connection.execute("ROLLBACK")
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
            await self._connection.execute("BEGIN")
            try:
                yield self._session
            finally:
                await self._connection.execute("ROLLBACK")
