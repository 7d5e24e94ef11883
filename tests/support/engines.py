"""Engines for tests: the real `fairy-stockfish` when installed, and the fake engine.

Outside CI a missing `fairy-stockfish` skips its tests with one line; in CI (`CI=true`)
it must be there, since `.ci/run` installs it.
"""

from __future__ import annotations

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
    words say how each coming search misbehaves; see `tests/support/fake_engine.py`)."""
    plan_file = folder / "engine-plan.txt"
    plan_file.write_text(plan)
    program = folder / "fake-engine"
    program.write_text(
        "#!/bin/sh\n"
        f"FAKE_ENGINE_PLAN='{plan_file}' exec '{sys.executable}' '{FAKE_ENGINE}' \"$@\"\n"
    )
    program.chmod(program.stat().st_mode | stat.S_IXUSR)
    return str(program), plan_file
