"""The database's own commands.

    python -m bot.db copy sqlite:///data/shogi.db postgresql://user:password@host/name

`copy` moves a club from its SQLite file to an empty PostgreSQL database (see
`bot.db.copying`): every table with its ids, then a check that the counts agree and
every game replays. Run it with the bot stopped, so nothing changes during the copy.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from .copying import copy_database
from .database import without_password
from .errors import DatabaseError


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.db", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    copy = commands.add_parser("copy", help="copy a SQLite database into an empty PostgreSQL one")
    copy.add_argument("source", help="sqlite:///path/to/shogi.db (or a path)")
    copy.add_argument("target", help="postgresql://user:password@host:port/name")
    arguments = parser.parse_args(argv)
    try:
        report = asyncio.run(copy_database(arguments.source, arguments.target))
    except DatabaseError as error:
        print(f"copy refused or failed: {error}", file=sys.stderr)
        return 1
    except OSError as error:  # the server cannot be reached, the file cannot be read
        print(f"copy failed: {error}", file=sys.stderr)
        return 1
    print(f"copied {arguments.source} to {without_password(arguments.target)}")
    for line in report.lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
