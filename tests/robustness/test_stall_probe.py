"""The loop probe sees a stall: a test that trusts it must be able to fail."""

from __future__ import annotations

import asyncio
import time

from tests.support.stall import LoopProbe


async def test_the_probe_sees_the_loop_held() -> None:
    async with LoopProbe() as probe:
        await asyncio.sleep(0.02)
        time.sleep(0.2)  # holds the loop, as a backtracking pattern would
        await asyncio.sleep(0.02)
    assert probe.worst >= 0.15, probe.report()
    assert "stalled up to" in probe.report()


async def test_the_probe_stops_with_its_block() -> None:
    async with LoopProbe() as probe:
        await asyncio.sleep(0.05)
    wakes = probe.wakes
    await asyncio.sleep(0.05)
    assert wakes > 0
    assert probe.wakes == wakes
