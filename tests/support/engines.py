"""Engines for tests: the real `fairy-stockfish` when installed, and the fake engine.

Outside CI a missing `fairy-stockfish` skips its tests with one line; in CI (`CI=true`)
it must be there, since `.ci/run` installs it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import stat
import sys
from pathlib import Path

import pytest

FAKE_ENGINE = Path(__file__).with_name("fake_engine.py")
FAIRY_PLACES = ("/usr/games/fairy-stockfish", "/usr/bin/fairy-stockfish")


def fairy_stockfish() -> str:
    """The real engine's path; skips the test without it (fails in CI)."""
    found = shutil.which("fairy-stockfish") or next(
        (p for p in FAIRY_PLACES if os.access(p, os.X_OK)), None
    )
    if found is None:
        if os.environ.get("CI") == "true":
            pytest.fail("fairy-stockfish is not installed, and CI must run its tests")
        pytest.skip("fairy-stockfish is not installed (apt-get install fairy-stockfish)")
    return found


def fake_engine(folder: Path, plan: str = "") -> tuple[str, Path]:
    """An executable that runs the fake engine, and its plan file holding `plan` (the
    words say how each coming search misbehaves; see `tests/support/fake_engine.py`).
    Its processes' pids go to `engine-pids.txt` beside it (`engine_pids`), the positions
    it searched, in order, to `engine-seen.txt`."""
    plan_file = folder / "engine-plan.txt"
    plan_file.write_text(plan)
    program = folder / "fake-engine"
    program.write_text(
        "#!/bin/sh\n"
        f"FAKE_ENGINE_PLAN='{plan_file}' FAKE_ENGINE_PIDS='{folder / 'engine-pids.txt'}' "
        f"FAKE_ENGINE_SEEN='{folder / 'engine-seen.txt'}' "
        f"exec '{sys.executable}' '{FAKE_ENGINE}' \"$@\"\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return str(program), plan_file


def wrapper_engine(folder: Path, plan: str = "") -> tuple[str, Path]:
    """An `ENGINE_PATH` as some owners write one: a shell script that ignores SIGTERM and
    runs the fake engine as its child (not `exec`), with a second child that also ignores
    SIGTERM and keeps the pipes open for an hour. Every pid goes to `engine-pids.txt`."""
    program, plan_file = fake_engine(folder, plan)
    wrapper = folder / "wrapped-engine"
    pids = folder / "engine-pids.txt"
    wrapper.write_text(
        "#!/bin/sh\n"
        "trap '' TERM\n"
        f"echo $$ >> '{pids}'\n"
        "sleep 3600 &\n"
        f"echo $! >> '{pids}'\n"
        f"'{program}'\n"
        "wait\n"
    )
    wrapper.chmod(0o755)
    return str(wrapper), plan_file


def mute_engine(folder: Path) -> str:
    """A program that never answers `usi` (it hangs in the handshake), with a child; both
    pids go to `engine-pids.txt`."""
    mute = folder / "mute-engine"
    pids = folder / "engine-pids.txt"
    mute.write_text(f"#!/bin/sh\necho $$ >> '{pids}'\nsleep 3600 &\necho $! >> '{pids}'\nwait\n")
    mute.chmod(0o755)
    return str(mute)


def engine_pids(folder: Path) -> list[int]:
    """The pids of every engine process (and wrapper child) started from `folder`."""
    found = folder / "engine-pids.txt"
    return [int(word) for word in found.read_text().split()] if found.exists() else []


def running(pid: int) -> bool:
    """Whether the process runs (a zombie waiting for its parent counts as gone)."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat_line.rsplit(")", 1)[1].split()[0] != "Z"


async def all_gone(folder: Path, within: float = 5.0) -> list[int]:
    """The engine processes of `folder` still running after `within` seconds (killed
    processes take a moment to disappear): [] when none is left."""
    deadline = asyncio.get_running_loop().time() + within
    while True:
        left = [pid for pid in engine_pids(folder) if running(pid)]
        if not left or asyncio.get_running_loop().time() > deadline:
            return left
        await asyncio.sleep(0.02)


def engine_seen(folder: Path) -> list[str]:
    """The positions the fake engine of `folder` searched, in the order it was asked."""
    found = folder / "engine-seen.txt"
    return found.read_text().splitlines() if found.exists() else []
