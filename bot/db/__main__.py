"""`python -m bot.db`: the database tools an operator runs beside the bot.

    python -m bot.db backup PATH     an online copy of the SQLite database, checked

The database is the one the bot uses (`DATABASE_PATH` from the environment or
`.env`, else `data/shogi.db`); `--database` names another. Each tool says what it
did in one line, or why it could not in one sentence, and exits non-zero then.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from bot.config import Settings, database_path

from .backup import BackupError, backup


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.db", description=__doc__.split("\n")[0])
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument("--database", type=Path, help="the SQLite file (default: DATABASE_PATH)")
    tools = parser.add_subparsers(dest="tool", required=True)
    copy = tools.add_parser(
        "backup",
        help="copy the SQLite database while the bot runs (VACUUM INTO), then check the copy",
    )
    copy.add_argument("path", type=Path, help="the new file to write (never overwritten)")
    args = parser.parse_args(argv)
    source = args.database or database_path(Settings.values(args.env_file))
    started = time.perf_counter()
    try:
        report = backup(source, args.path)
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
