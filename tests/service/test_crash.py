"""Crash safety: a process storing moves is killed with SIGKILL at random moments.
Afterwards every move it reported as stored is there, no game is half-written, and
every game replays legally from its move list. The next process carries on."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path

import pytest

from bot.db import open_database

from .conftest import assert_consistent

ROOT = Path(__file__).resolve().parents[2]
KILLS = 6


async def run_and_kill(path: Path, seed: int, after: float) -> list[str]:
    """Start the child, let it play for `after` seconds once it has stored its first
    move, SIGKILL it; the complete lines it printed.

    Waiting for the first move rather than for a fixed time keeps the kill random
    without a slow, shared machine killing a child that has not yet stored anything."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.service.crash_child",
        str(path),
        str(seed),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    ready = await asyncio.wait_for(child.stdout.readline(), timeout=30)
    if ready != b"ready\n":
        child.kill()
        out, err = await child.communicate()
        raise AssertionError(f"the child did not start: {ready + out!r} {err.decode()}")
    first_lines: list[bytes] = []
    while not (first_lines and first_lines[-1][:1].isdigit()):
        line = await asyncio.wait_for(child.stdout.readline(), timeout=30)
        if not line:
            out, err = await child.communicate()
            raise AssertionError(f"the child stopped: {first_lines!r} {out!r} {err.decode()}")
        first_lines.append(line)
    await asyncio.sleep(after)
    child.send_signal(signal.SIGKILL)
    out, err = await child.communicate()
    assert child.returncode == -signal.SIGKILL, err.decode()
    text = (b"".join(first_lines) + out).decode()
    complete = text if text.endswith("\n") else text[: text.rfind("\n") + 1]
    return complete.splitlines()


@pytest.mark.slow
async def test_sigkill_never_loses_a_reported_move_nor_half_writes(tmp_path: Path) -> None:
    path = tmp_path / "crash.db"
    rng = random.Random(2025)
    reported: dict[tuple[int, int], str] = {}
    for round_number in range(KILLS):
        lines = await run_and_kill(path, round_number, rng.uniform(0.2, 1.0))
        assert not [line for line in lines if line.startswith("error")], lines
        moves = [line.split() for line in lines if line[0].isdigit()]
        assert moves, f"round {round_number}: the child stored nothing before the kill"
        for game_text, ply_text, usi in moves:
            reported[(int(game_text), int(ply_text))] = usi
    db = await open_database(path)
    try:
        for (game_id, ply), usi in sorted(reported.items()):
            async with db.read() as tx:
                stored = await tx.moves.usi_list(game_id)
            assert len(stored) >= ply and stored[ply - 1] == usi, (game_id, ply, usi)
        assert await assert_consistent(db) >= len(reported)
    finally:
        await db.close()
