"""`python -m bot`'s own start (`bot.__main__._run`) in a process of its own, stopped by
SIGTERM while Discord cannot be reached: it ends at once, not after discord.py's back-off
before its next reconnect (minutes, by then), which would have the service manager kill it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from pathlib import Path

from tests.fakediscord import E2EGuard, FakeDiscord

ROOT = Path(__file__).resolve().parents[2]
#: The bot as `python -m bot` runs it, pointed at the fake, every back-off a minute long.
CHILD = """
import asyncio, logging, sys
from pathlib import Path
import discord.backoff
discord.backoff.ExponentialBackoff.delay = lambda self: 60.0
from tests.fakediscord import DiscordPointer
from bot.__main__ import _run
from bot.config import Settings
logging.basicConfig(level=logging.INFO, stream=sys.stderr, format="%(message)s")
with DiscordPointer.from_url(sys.argv[1]):
    settings = Settings(discord_token=sys.argv[2], database_path=Path(sys.argv[3]))
    asyncio.run(_run(settings, sync_global=False, scope=None))
"""


async def test_sigterm_while_discord_is_unreachable_ends_the_bot_at_once(
    tmp_path: Path, e2e_guard: E2EGuard
) -> None:
    fake = FakeDiscord()
    await fake.start()
    fake.add_guild("Club", channels=("shogi",))
    database = tmp_path / "shogi.db"
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", CHILD, fake.url, fake.token, str(database),
        cwd=ROOT, stdin=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert child.stderr is not None
    try:
        await fake.wait_for(lambda: bool(fake.registered_commands()), what="commands", timeout=60)
        await fake.stop()
        async with asyncio.timeout(60):
            while b"Attempting a reconnect in 60" not in await child.stderr.readline():
                pass
        began = time.monotonic()
        child.send_signal(signal.SIGTERM)
        async with asyncio.timeout(30):
            while await child.stderr.readline():
                pass
            code = await child.wait()
        assert code == 0
        assert time.monotonic() - began < 15, "the bot waited for its next reconnect"
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
