"""`python -m bot.db`: the database tools an operator runs beside the bot.

    python -m bot.db backup PATH     an online copy of the SQLite database, checked
    python -m bot.db copy sqlite:///data/shogi.db postgresql://user:password@host/name
    python -m bot.db name-openings [--limit N]   name finished games' openings (戦型, 囲い)

`backup` copies the database the bot uses (`DATABASE_PATH` from the environment or
`.env`, else `data/shogi.db`; `--database` names another) while the bot runs.
`copy` moves a club from its SQLite file to an empty PostgreSQL database (see
`bot.db.copying`): every table with its ids, then a check that the counts agree and
every game replays. Run it with the bot stopped, so nothing changes during the copy.
`name-openings` names the openings and castles of finished games not named yet (those
that finished before the bot named them), the oldest first, at most `--limit` (default
1000) in one run; the bot names them too, a few at a time, when `/games` or `/profile`
lists them. It may run while the bot runs.
Each tool says what it did, or why it could not in one sentence, and exits non-zero then.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

from bot.config import Settings, database_path

from .addresses import without_password
from .backup import BackupError, backup
from .copying import copy_database
from .errors import DatabaseError, DatabaseUnreachable
from .naming import name_finished_games
from .opening import open_database


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.db", description=__doc__.split("\n")[0])
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument("--database", type=Path, help="the SQLite file (default: DATABASE_PATH)")
    commands = parser.add_subparsers(dest="command", required=True)
    saving = commands.add_parser(
        "backup",
        help="copy the SQLite database while the bot runs (VACUUM INTO), then check the copy",
    )
    saving.add_argument("path", type=Path, help="the new file to write (never overwritten)")
    copy = commands.add_parser("copy", help="copy a SQLite database into an empty PostgreSQL one")
    copy.add_argument("source", help="sqlite:///path/to/shogi.db (or a path)")
    copy.add_argument("target", help="postgresql://user:password@host:port/name")
    naming = commands.add_parser(
        "name-openings", help="name the openings and castles of finished games not named yet"
    )
    naming.add_argument("--limit", type=int, default=1000, help="games at most (default 1000)")
    arguments = parser.parse_args(argv)
    if arguments.command == "backup":
        return _backup(arguments.database, arguments.env_file, arguments.path)
    if arguments.command == "name-openings":
        return _name_openings(arguments.database, arguments.env_file, arguments.limit)
    try:
        report = asyncio.run(copy_database(arguments.source, arguments.target))
    except DatabaseUnreachable as error:  # a database that cannot be opened, said which way
        print(f"Copy failed: {error}", file=sys.stderr)
        return 1
    except DatabaseError as error:
        print(f"Copy refused or failed: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # a file that cannot be read midway
        print(f"Copy failed: {error}", file=sys.stderr)
        return 1
    print(f"copied {arguments.source} to {without_password(arguments.target)}")
    for line in report.lines():
        print(line)
    return 0


def _backup(database: Path | None, env_file: str, target: Path) -> int:
    values = Settings.values(env_file)
    if database is None and values.get("DATABASE_URL", "").strip():
        print(
            "Backup refused: DATABASE_URL names a PostgreSQL server; back it up with its "
            "own tool (pg_dump). This command copies the SQLite file.",
            file=sys.stderr,
        )
        return 1
    source = database or database_path(values)
    started = time.perf_counter()
    try:
        report = backup(source, target)
    except BackupError as error:
        print(f"Backup failed: {error}.", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    print(
        f"Backed up {source} to {report.path}: {report.size / 1e6:.1f} MB, "
        f"{report.games} games, {report.moves} moves, integrity ok ({seconds:.1f} s)."
    )
    return 0


def _name_openings(database: Path | None, env_file: str, limit: int) -> int:
    if limit < 1:
        print("Naming refused: --limit must be at least 1.", file=sys.stderr)
        return 1
    values = Settings.values(env_file)
    url = values.get("DATABASE_URL", "").strip()
    where: str | Path = database or url or database_path(values)

    async def work() -> int:
        db = await open_database(where)
        try:
            return await name_finished_games(db, limit=limit)
        finally:
            await db.close()

    started = time.perf_counter()
    try:
        named = asyncio.run(work())
    except DatabaseError as error:
        print(f"Naming failed: {error}", file=sys.stderr)
        return 1
    seconds = time.perf_counter() - started
    print(f"Named the openings of {named} finished games ({seconds:.1f} s).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
