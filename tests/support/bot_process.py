"""The bot in a process of its own, for the crash test (``tests/robustness/test_crash.py``).

    python -m tests.support.bot_process URL TOKEN DATABASE CLOCK_FILE [SHARDS SHARD_COUNT]

DATABASE is a SQLite file or a PostgreSQL address (``postgresql://...``).

It runs the real bot exactly as ``bench/bench_e2e.py`` does (``create_bot`` with ``sync_global``,
discord.py pointed at the fake Discord at ``URL``), so that the test can kill it with SIGKILL
at any moment and start another one on the same database file.  What it adds, all of it
outside the bot:

* **A clock the test controls.**  ``CLOCK_FILE`` holds an offset in integer microseconds; the
  bot's clock is the real UTC time plus that offset, read at every call, so the test moves
  time forward (days in an instant) by rewriting the file (atomically, with a rename).  When
  the file changes while the bot runs, the deadline task is woken, as a real clock reaching
  the deadline would wake it; otherwise it would sleep on the delay it computed from the old
  time.
* **Progress on stdout**, one line each, flushed at once: ``ready`` when discord.py has
  fired ``on_ready``, and ``checked <clock µs>`` after every deadline check has *finished*
  and the outbox's sender has sent what it queued (reminders and time-outs it found are
  posted by then), with the clock as it was when the check started.
* **A log on stderr** at INFO with the wall time (``time.time()``) first on each line, so the
  test can tell how long the bot lived after claiming a time-out or a reminder.

The global limit's settings (``RATE_LIMIT_PER_SECOND``, ``RATE_LIMIT_BURST``,
``RATE_LIMIT_SHARED``, ``REDIS_URL``) are taken from the environment when set there.

SIGTERM closes the bot cleanly (the test's last, unkilled run ends that way).

With ``SHARDS SHARD_COUNT`` (``0-1 4``, as ``python -m bot --shards 0-1 --shard-count 4``) it
runs as one of several shard processes (the shard test, ``tests/robustness/test_shards.py``);
the fake Discord lets every shard identify at once, so the bot does not wait the five
seconds between shards that Discord asks for.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.fakediscord import DiscordPointer

#: How often the clock file is looked at for changes (seconds).
CLOCK_POLL = 0.02


def read_offset(path: Path) -> int:
    """The clock offset in microseconds (0 while the file does not exist)."""
    try:
        return int(path.read_text().strip() or 0)
    except FileNotFoundError:
        return 0


def write_offset(path: Path, offset_us: int) -> None:
    """Replace the offset atomically, so a reader never sees half a number."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(f"{offset_us}\n")
    os.replace(temporary, path)


class FileClock:
    """``datetime.now(UTC)`` plus the offset in the file: the bot's ``clock=``."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __call__(self) -> datetime:
        return datetime.now(UTC) + timedelta(microseconds=read_offset(self.path))


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def report_checks(settled: Callable[[], Awaitable[None]]) -> None:
    """Print ``checked <clock µs>`` once each deadline check of the service has finished
    and what it queued has been sent (`settled`: the bot's outbox found nothing left)."""
    from bot.db.rows import to_us
    from bot.services.clock.deadlines import Deadlines

    original: Callable[[Deadlines], Awaitable[datetime | None]] = Deadlines.check

    async def check(self: Deadlines) -> datetime | None:
        started = self.now()
        result = await original(self)
        await settled()
        say(f"checked {to_us(started)}")
        return result

    Deadlines.check = check  # type: ignore[method-assign]


async def watch_clock(path: Path, wake: Callable[[], None]) -> None:
    """Wake the deadline task whenever the test moves the clock."""
    seen = read_offset(path)
    while True:
        await asyncio.sleep(CLOCK_POLL)
        offset = read_offset(path)
        if offset != seen:
            seen = offset
            wake()


async def no_identify_wait(shard_id: int | None, *, initial: bool = False) -> None:
    """The fake Discord has no limit on how often shards identify."""


#: The settings of the global limit and of the outbox's pace read from the environment.
PACING_SETTINGS = (
    "RATE_LIMIT_PER_SECOND",
    "RATE_LIMIT_BURST",
    "RATE_LIMIT_SHARED",
    "REDIS_URL",
    "OUTBOX_RATE",
)


async def run_bot(
    url: str,
    token: str,
    database: str,
    clock_file: str,
    shards: str | None = None,
    shard_count: str | None = None,
) -> None:
    from bot import create_bot
    from bot.config import Settings, shard_scope

    clock_path = Path(clock_file)
    scope = shard_scope(shards, None if shard_count is None else int(shard_count))
    with DiscordPointer.from_url(url):
        values = {"DISCORD_TOKEN": token}
        if "://" in database:  # a PostgreSQL server's address
            values["DATABASE_URL"] = database
        else:
            values["DATABASE_PATH"] = str(Path(database))
        # The global limit's and the outbox's settings come from the environment, so a test
        # can run the processes with `RATE_LIMIT_SHARED=off` (each its own bucket), on
        # Redis, or with another pace.
        values |= {key: os.environ[key] for key in PACING_SETTINGS if key in os.environ}
        settings = Settings.from_mapping(values)
        bot = create_bot(
            settings,
            sync_global=True,
            guild_ready_timeout=0.05,
            clock=FileClock(clock_path),
            scope=scope,
        )
        if scope is not None:
            bot.before_identify_hook = no_identify_wait  # type: ignore[method-assign]
        report_checks(bot.sends_settled)

        async def on_ready() -> None:
            say("ready")

        def wake() -> None:
            scheduler = bot._scheduler  # the bot's own deadline task (no public handle)
            if scheduler is not None:
                scheduler.wake()

        bot.add_listener(on_ready, "on_ready")
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        watcher = loop.create_task(watch_clock(clock_path, wake), name="clock-watcher")
        try:
            async with bot:
                await bot.start(token, reconnect=False)
        finally:
            await bot.close()  # the signal's close may still be under way: see it end
            watcher.cancel()
            await asyncio.gather(watcher, return_exceptions=True)


def main(argv: list[str]) -> int:
    if len(argv) not in (4, 6):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    logging.basicConfig(
        level=logging.INFO,
        format="%(created).6f %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    asyncio.run(run_bot(*argv))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
