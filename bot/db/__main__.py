"""`python -m bot.db`: the database tools an operator runs beside the bot.

    python -m bot.db backup PATH     an online copy of the SQLite database, checked
    python -m bot.db copy sqlite:///data/shogi.db postgresql://user:password@host/name

`backup` copies the database the bot uses (`DATABASE_PATH` from the environment or
`.env`, else `data/shogi.db`; `--database` names another) while the bot runs.
`copy` moves a club from its SQLite file to an empty PostgreSQL database (see
`bot.db.copying`): every table with its ids, then a check that the counts agree and
every game replays. Run it with the bot stopped, so nothing changes during the copy.
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
    arguments = parser.parse_args(argv)
    if arguments.command == "backup":
        return _backup(arguments.database, arguments.env_file, arguments.path)
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


if __name__ == "__main__":
    sys.exit(main())
