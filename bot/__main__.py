"""`python -m bot`: read the settings, open the database, connect to Discord.

The slash commands are published by the bot itself at start, whenever they
differ from what it last published: globally (Discord can take up to an hour
to show them everywhere), or with `DEV_GUILD_ID` set, to that one server
only, where they show at once. `--sync` publishes even if they look up to
date (when someone changed or removed them by hand). The log says who the
bot is and gives the link that invites it to a server.

`--shards 0-3 --shard-count 8` runs only those shards of eight, for a bot in so
many servers that it runs several processes (on one PostgreSQL or SQLite
database); without them, one process connects for every server.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import sys

import aiohttp
import discord

from .client import create_bot
from .config import ConfigError, Settings, shard_scope
from .db import DatabaseError, ShardScope, open_database
from .db.redis_limiter import MISSING as REDIS_MISSING
from .db.redis_limiter import redis_available
from .logs import configure
from .monitoring import MISSING, metrics_available
from .services.budgets import from_settings as budgets_from


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    parser.add_argument(
        "--sync",
        action="store_true",
        help="publish the slash commands even if they look up to date "
        "(they are published by themselves when they change)",
    )
    parser.add_argument("--env-file", default=".env", help="settings file (default: .env)")
    parser.add_argument(
        "--shards",
        metavar="IDS",
        help="run only these shards, e.g. 0-3 or 0,2,5-7 (with --shard-count); the process "
        "that runs shard 0 publishes the commands",
    )
    parser.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="how many shards the bot has in all, over every process (with --shards)",
    )
    args = parser.parse_args(argv)
    try:
        settings = Settings.from_env(env_file=args.env_file)
        scope = shard_scope(args.shards, args.shard_count)
        budgets_from(settings.limits)
    except (ConfigError, ValueError) as error:
        print(f"Configuration error: {error}", file=sys.stderr)
        return 2
    if settings.metrics_port is not None and not metrics_available():
        print(f"Configuration error: {MISSING}", file=sys.stderr)
        return 2
    if settings.redis_url is not None and not redis_available():
        print(f"Configuration error: {REDIS_MISSING}", file=sys.stderr)
        return 2
    configure(
        settings.logging_level, settings.log_format, scope=scope, secret=settings.discord_token
    )
    try:
        asyncio.run(_run(settings, sync_global=args.sync, scope=scope))
    except DatabaseNotOpened as error:
        print(f"Database error: {error}", file=sys.stderr)
        return 1
    except discord.LoginFailure:
        print("Discord refused the token: check DISCORD_TOKEN in .env.", file=sys.stderr)
        return 1
    except (aiohttp.ClientError, OSError) as error:
        print(
            f"Could not reach Discord ({error.__class__.__name__}): check the network.",
            file=sys.stderr,
        )
        return 1
    except KeyboardInterrupt:
        pass
    return 0


class DatabaseNotOpened(Exception):
    """The database could not be opened at start (unreachable, refused, too new): said in
    one line before Discord is tried, never as a traceback nor as Discord's fault."""


async def _run(settings: Settings, *, sync_global: bool, scope: ShardScope | None) -> None:
    try:
        database = await open_database(settings.database)
    except DatabaseError as error:
        raise DatabaseNotOpened(str(error)) from None
    log = logging.getLogger(__name__)
    log.info("database ready at %s", settings.database_location)
    if scope is not None:
        shards = ", ".join(str(shard) for shard in sorted(scope.shard_ids))
        log.info("running shards %s of %s", shards, scope.shard_count)
    bot = create_bot(settings, database=database, sync_global=sync_global, scope=scope)
    try:
        async with bot:
            running = asyncio.ensure_future(bot.start(settings.discord_token))
            stop_on_sigterm(bot, running)
            try:
                await running
            except asyncio.CancelledError:
                task = asyncio.current_task()
                if task is None or task.cancelling():
                    raise  # Ctrl+C, or the event loop ending: not the SIGTERM's stop
    finally:
        await bot.close()  # a SIGTERM's close may still be under way: see it end
        await database.close()


def stop_on_sigterm(bot: discord.Client, running: asyncio.Future[None]) -> None:
    """SIGTERM (what `systemctl stop` and `docker stop` send) closes the bot as Ctrl+C does:
    reports under way are posted and the database is closed, instead of the process
    ending wherever it stood. Then `running` (the bot's `start`) is cancelled: while
    Discord cannot be reached, discord.py sleeps out its back-off (minutes, after a few
    failed tries) before it sees that the bot was closed, and the process would wait
    until the service manager killed it."""
    loop = asyncio.get_running_loop()

    async def stop() -> None:
        await bot.close()
        running.cancel()

    def on_sigterm() -> None:
        task = loop.create_task(stop(), name="sigterm")
        _stopping.add(task)  # held, so that the event loop does not lose it half-way
        task.add_done_callback(_stopping.discard)

    with contextlib.suppress(NotImplementedError):  # an event loop without signal handlers
        loop.add_signal_handler(signal.SIGTERM, on_sigterm)


#: The SIGTERM's stops under way.
_stopping: set[asyncio.Task[None]] = set()


if __name__ == "__main__":
    sys.exit(main())
