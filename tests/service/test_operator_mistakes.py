"""An operator's mistakes get one sentence: the real commands (`python -m bot`, `python -m
bot.db copy`, `python -m bot.db backup`) run as processes, each ending non-zero with one line
that names what is wrong, no traceback, and never the password.

Against a real PostgreSQL server (`scripts/test_postgres.sh`, which asks every role but its
superuser for a password on 127.0.0.1): a database that does not exist, a wrong password in
the address's user part and in its query, a role that does not exist, and a port where
nothing listens. Against SQLite: a copy's source that does not exist (never created, named
by its absolute path), a database file the bot cannot open, and a backup into a folder not
made yet (`backups/` on a fresh checkout), which the backup makes.
"""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from bot.db import open_database
from tests.support.postgres import server_url

ROOT = Path(__file__).resolve().parents[2]
PASSWORD = "right-Horse-battery-7"
WRONG = "wrong-Staple-9f3e"
TOKEN = "MTI3NzQ1Njc4OTAxMjM0NTY3OA.GkRbst.operator-test-token-4f9a2c7e1b"


def run(tmp_path: Path, module: str, *args: str, **env: str) -> tuple[int, str]:
    """`python -m module *args` in `tmp_path`, with no settings but `env`; its exit code and
    output."""
    environ = {k: v for k, v in os.environ.items() if not k.startswith(("DATABASE_", "DISCORD"))}
    environ.update(env, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", module, "--env-file", str(tmp_path / "no.env"), *args],
        cwd=tmp_path,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done.returncode, done.stdout + done.stderr


def one_line(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert "Traceback" not in output, output
    assert len(lines) == 1, output
    return lines[0]


def address(url: str, *, user: str | None = None, password: str | None = None, **parts: str) -> str:
    """`url` with another role, password (`""`: none), database (`path`), port or query."""
    split = urlsplit(url)
    login = user if user is not None else split.username or ""
    secret = password if password is not None else split.password or ""
    if secret:
        login += f":{secret}"
    port = parts.get("port", str(split.port or 5432))
    netloc = f"{login}@{split.hostname}:{port}" if login else f"{split.hostname}:{port}"
    path = "/" + parts.get("path", split.path.lstrip("/"))
    return urlunsplit((split.scheme, netloc, path, parts.get("query", ""), ""))


def free_port() -> int:
    with closing(socket.socket()) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _as_superuser(url: str, statement: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        await connection.execute(statement)
    finally:
        await connection.close()


@pytest.fixture
def server() -> Iterator[str]:
    """The server's address with a role of this test's own that has a password."""
    url = server_url()
    if url is None:
        pytest.skip("TEST_DATABASE_URL is unset")
    role = f"operator_{os.getpid()}"
    asyncio.run(_as_superuser(url, f"CREATE ROLE {role} LOGIN PASSWORD '{PASSWORD}'"))
    try:
        yield address(url, user=role, password=PASSWORD)
    finally:
        asyncio.run(_as_superuser(url, f"DROP ROLE IF EXISTS {role}"))


@pytest.fixture
def club_file(tmp_path: Path) -> Path:
    path = tmp_path / "club.db"

    async def make() -> None:
        await (await open_database(path)).close()

    asyncio.run(make())
    return path


def both_commands(tmp_path: Path, club_file: Path, url: str) -> dict[str, tuple[int, str]]:
    """The bot's start and the copy tool, each given `url`."""
    return {
        "python -m bot": run(tmp_path, "bot", DISCORD_TOKEN=TOKEN, DATABASE_URL=url),
        "python -m bot.db copy": run(tmp_path, "bot.db", "copy", f"sqlite:///{club_file}", url),
    }


@pytest.mark.postgres
@pytest.mark.parametrize(
    ("mistake", "said"),
    [
        ("database", "has no database 'no_such_club'"),
        ("password", "refused the password for role"),
        ("query password", "refused the password for role"),
        ("role", "refused the password for role 'nobody_here'"),
        ("port", "Could not reach the PostgreSQL server"),
    ],
)
def test_a_database_that_cannot_be_opened_is_named_in_one_line(
    mistake: str, said: str, server: str, tmp_path: Path, club_file: Path
) -> None:
    url = {
        "database": address(server, path="no_such_club"),
        "password": address(server, password=WRONG),
        "query password": address(server, password="", query=f"password={WRONG}"),
        "role": address(server, user="nobody_here", password=WRONG),
        "port": address(server, port=str(free_port())),
    }[mistake]
    for command, (code, output) in both_commands(tmp_path, club_file, url).items():
        line = one_line(output)
        assert code == 1, (command, output)
        assert said in line, (command, line)
        assert WRONG not in output and PASSWORD not in output, (command, line)
        assert "Discord" not in line, (command, line)
    assert not (tmp_path / "data").exists()  # the bot opened no SQLite file instead


@pytest.mark.postgres
def test_the_right_address_still_copies(server: str, tmp_path: Path, club_file: Path) -> None:
    url = server_url()
    assert url is not None
    name = f"operator_copy_{os.getpid()}"
    role = urlsplit(server).username
    asyncio.run(_as_superuser(url, f"CREATE DATABASE {name} OWNER {role}"))
    try:
        code, output = run(
            tmp_path, "bot.db", "copy", f"sqlite:///{club_file}", address(server, path=name)
        )
    finally:
        asyncio.run(_as_superuser(url, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
    assert code == 0, output
    assert "copied" in output and PASSWORD not in output and ":***@" in output


def test_a_copy_from_a_file_that_is_not_there_creates_nothing(tmp_path: Path) -> None:
    url = "postgresql://shogi:secret-pw@127.0.0.1:9/shogi"
    for source, looked_at in (
        ("sqlite:///missing.db", tmp_path / "missing.db"),  # mistyped, relative
        ("sqlite:///data/shogi.db", tmp_path / "data" / "shogi.db"),  # run from elsewhere
        (f"sqlite:///{tmp_path}/gone.db", tmp_path / "gone.db"),
    ):
        code, output = run(tmp_path, "bot.db", "copy", source, url)
        line = one_line(output)
        assert code == 1, output
        assert f"there is no SQLite database at {looked_at}:" in line, line
        assert "secret-pw" not in output
        assert not looked_at.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_sqlite_file_the_bot_cannot_open_is_named(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    not_a_database = tmp_path / "notes.txt"
    not_a_database.write_text("this is not a database, but a long enough text file " * 40)
    for path in (blocker / "shogi.db", not_a_database):
        code, output = run(tmp_path, "bot", DISCORD_TOKEN=TOKEN, DATABASE_PATH=str(path))
        line = one_line(output)
        assert code == 1, output
        assert line.startswith(f"Database error: Could not open the SQLite database {path} ")
        assert "Discord" not in line.removeprefix("Database error: ")


def test_the_readme_backup_makes_its_folder(tmp_path: Path, club_file: Path) -> None:
    code, output = run(
        tmp_path, "bot.db", "backup", "backups/shogi-2026-11-24.db",
        DATABASE_PATH=str(club_file),
    )  # fmt: skip
    assert code == 0, output
    assert one_line(output).startswith(f"Backed up {club_file} to backups/shogi-2026-11-24.db")
    with closing(sqlite3.connect(tmp_path / "backups" / "shogi-2026-11-24.db")) as copy:
        assert copy.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    code, output = run(
        tmp_path, "bot.db", "backup", "elsewhere/x.db",
        DATABASE_PATH=str(tmp_path / "missing.db"),
    )  # fmt: skip
    assert code == 1 and f"no database at {tmp_path / 'missing.db'}" in one_line(output)
    assert not (tmp_path / "missing.db").exists()
