"""Discord's global limit, kept by two shard processes together.

Two bot processes on one PostgreSQL, one per shard, find 400 reminders due at once and send
them through the fake Discord, which answers 429 (global) past 50 requests in any second
for the bot's token, whichever connection they come from. Each process alone keeps under
the limit; together, with a bucket each (``RATE_LIMIT_SHARED=off``), they exceed it and
meet 429s (and discord.py, which tries a refused request five times, may give some
reminders up); sharing one bucket in PostgreSQL, they meet none, every reminder is posted
exactly once and nothing is logged as an error. Either way no reminder is posted twice,
and the players' ``/move`` answers, which Discord does not count, go on during the burst.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fakediscord import E2EGuard, FakeDiscord
from tests.support.burst import BurstScene
from tests.support.postgres import fresh_schema

REMINDERS = 400
QUIET_MOVES = 4


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.parametrize("shared", [False, True], ids=["a-bucket-each", "one-shared-bucket"])
async def test_two_processes_keep_to_the_global_limit_only_when_they_share_it(
    shared: bool, postgres_database: str, tmp_path: Path, e2e_guard: E2EGuard
) -> None:
    fake = FakeDiscord(default_timeout=60.0)
    await fake.start()
    try:
        async with fresh_schema(postgres_database) as database:
            scene = BurstScene(fake, tmp_path, database)
            environment = {"RATE_LIMIT_SHARED": "on" if shared else "off", "OUTBOX_RATE": "30"}
            try:
                await scene.start(environment)
                expected = await scene.load(REMINDERS)
                burst = await scene.burst(expected, quiet_moves=QUIET_MOVES, timeout=120.0)
            finally:
                troubles = await scene.stop()
            assert not troubles, troubles
            errors = scene.errors_logged()
    finally:
        await fake.stop()

    assert set(burst.posted.values()) <= {1}, "a reminder was posted twice"
    assert burst.burst_answers, "no /move was answered during the burst"
    if shared:
        assert burst.global_429s == 0, f"{burst.global_429s} global 429s with one bucket"
        assert set(burst.posted) == expected, "reminders missing"
        assert not errors, errors[0]
    else:
        # 30 sends a second from each of two processes: past 50 in every second of it.
        assert burst.global_429s > 0, "two processes with a bucket each met no 429"
