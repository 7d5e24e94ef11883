"""An online backup of the SQLite database: a consistent copy while the bot runs.

Copying the file itself while the bot writes can catch a transaction half-written,
and misses what is still in the write-ahead log. `VACUUM INTO` writes a fresh,
compact database from one read transaction instead: the bot goes on writing meanwhile
(readers never block writers in WAL mode), and the copy holds exactly the commits
made before it began. The copy is then opened on its own and checked with
`PRAGMA integrity_check`, so a backup that reports success can be restored.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from pathlib import Path

from .errors import DatabaseError


class BackupError(DatabaseError):
    """The backup could not be made, or its copy is not sound; the message says why."""


@dataclass(frozen=True, slots=True)
class BackupReport:
    path: Path
    size: int  # bytes
    games: int
    moves: int


def backup(source: Path, target: Path) -> BackupReport:
    """Copy the database at `source` into a new file `target` and check the copy.
    Refuses to overwrite anything: a backup must never destroy an earlier one. The
    target's folder is made if missing (`backups/` on a fresh checkout)."""
    if not source.is_file():
        raise BackupError(f"there is no database at {source.absolute()}")
    if target.exists():
        raise BackupError(f"{target} already exists; a backup never overwrites a file")
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        reason = error.strerror or str(error)
        folder = target.parent.absolute()
        raise BackupError(f"could not make the folder {folder}: {reason}") from None
    # Read-only: the backup must not create, migrate or otherwise touch the live database.
    connection = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    try:
        connection.execute("VACUUM INTO ?", (str(target),))
    except sqlite3.Error as error:
        raise BackupError(f"could not copy {source} into {target}: {error}") from error
    finally:
        connection.close()
    return check(target)


def check(path: Path) -> BackupReport:
    """Open a copy on its own and check every page and index of it."""
    copy = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    try:
        problems = [row[0] for row in copy.execute("PRAGMA integrity_check")]
        if problems != ["ok"]:
            raise BackupError(f"the copy at {path} is damaged: {'; '.join(problems[:5])}")
        games = int(copy.execute("SELECT COUNT(*) FROM games").fetchone()[0])
        moves = int(copy.execute("SELECT COUNT(*) FROM moves").fetchone()[0])
    except sqlite3.DatabaseError as error:
        raise BackupError(f"the copy at {path} cannot be read: {error}") from error
    finally:
        copy.close()
    return BackupReport(path, path.stat().st_size, games, moves)
