"""Which backends the storage tests run on: without a PostgreSQL server they are left out
with one line saying so, and in CI that is an error, never a silent pass."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ONE_MODULE = "tests/service/test_notes.py"


def pytest_run(**environment: str | None) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    for key, value in environment.items():
        if value is None:
            env.pop(key, None)
        else:
            env[key] = value
    return subprocess.run(
        [sys.executable, "-m", "pytest", ONE_MODULE, "-q", "-p", "no:cacheprovider"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_without_a_server_the_postgres_half_is_left_out_with_one_line() -> None:
    run = pytest_run(TEST_DATABASE_URL=None, CI=None)
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line for line in run.stdout.splitlines() if "PostgreSQL:" in line]
    assert len(said) == 1 and "TEST_DATABASE_URL is unset" in said[0], run.stdout
    assert "deselected" in run.stdout and "skipped" not in run.stdout


def test_in_ci_a_missing_server_fails_the_run() -> None:
    run = pytest_run(TEST_DATABASE_URL=None, CI="true")
    assert run.returncode != 0
    assert "CI is set but TEST_DATABASE_URL is not" in run.stdout + run.stderr
