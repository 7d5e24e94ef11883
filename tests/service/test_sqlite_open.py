"""Opening a SQLite file that another process is setting up: shard processes and an
overlapping deploy start together on one file."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

from bot.db import open_database


async def test_a_new_file_opens_once_another_process_lets_go_of_its_write_lock(
    tmp_path: Path,
) -> None:
    """Turning a new file to write-ahead logging needs the write lock, and SQLite answers
    "database is locked" at once, without its busy timeout, while another connection
    holds it: the open waits instead, and then migrates the file as usual."""
    path = tmp_path / "shared.db"
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN IMMEDIATE")
        opening = asyncio.create_task(open_database(path))
        await asyncio.sleep(0.3)
        assert not opening.done(), opening.exception()
        other.execute("COMMIT")
    finally:
        other.close()
    db = await asyncio.wait_for(opening, timeout=10)
    try:
        assert await db.schema_version() > 0
    finally:
        await db.close()
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    finally:
        check.close()
