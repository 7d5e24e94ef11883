"""Running a discord.py bot against the fake, and what fails a test at its end.

* :class:`BotRunner` starts any ``discord.Client`` (or a factory of one) against the fake,
  returns once ``on_ready`` has fired, and closes it cleanly.
* :class:`E2EGuard` collects discord.py ERROR logs, exceptions that reached the event loop
  and tasks still alive at the end; with the fake's own problems (unknown routes, refusals
  the test did not expect) these fail the test at teardown.

Why a guard: a bot can look right in every assertion while a background task dies with an
exception that only the log shows, or leave a task running that a real process would carry
on with forever.
"""

from __future__ import annotations

import asyncio
import gc
import logging
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar, cast

import discord
import discord.http

from .driver import FakeDiscord
from .results import HarnessTimeout
from .server import DiscordPointer

ClientT = TypeVar("ClientT", bound=discord.Client)


class _ErrorLogCollector(logging.Handler):
    def __init__(self) -> None:
        super().__init__(level=logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class E2EGuard:
    """Collects what must fail an end-to-end test, and reports it at teardown.

    ERROR records on the watched loggers (``discord`` by default; add the bot's own with
    :meth:`watch_logger`), exceptions that reached the event loop's exception handler
    (unretrieved task exceptions, unclosed sessions ...), and tasks still alive at the end.
    """

    def __init__(self, loggers: Iterable[str] = ("discord",)) -> None:
        self._collector = _ErrorLogCollector()
        self._loggers: list[logging.Logger] = []
        self._expected_logs: list[str] = []
        self.loop_errors: list[str] = []
        self.extra_problems: list[str] = []
        self._baseline: set[asyncio.Task[Any]] = set()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._previous_handler: Any = None
        for name in loggers:
            self.watch_logger(name)

    def watch_logger(self, name: str) -> None:
        logger = logging.getLogger(name)
        logger.addHandler(self._collector)
        self._loggers.append(logger)

    def expect_error_log(self, substring: str) -> None:
        """An ERROR record containing ``substring`` is expected and will not fail the test."""
        self._expected_logs.append(substring)

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        self._loop = loop
        self._previous_handler = loop.get_exception_handler()
        loop.set_exception_handler(self._on_loop_error)
        self._baseline = set(asyncio.all_tasks(loop))

    def _on_loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        self.loop_errors.append(f"{context.get('message')}: {exc!r}" if exc else str(context))

    def error_logs(self) -> list[str]:
        out = []
        for record in self._collector.records:
            text = record.getMessage()
            if record.exc_info and record.exc_info[1] is not None:
                text += f" [{record.exc_info[1]!r}]"
            if not any(s in text for s in self._expected_logs):
                out.append(f"{record.name} {record.levelname}: {text}")
        return out

    async def finish(self, *, task_timeout: float = 2.0) -> list[str]:
        """Uninstall; return every problem (leaked tasks are awaited briefly, then cancelled)."""
        problems = list(self.extra_problems)
        current = asyncio.current_task()
        leftover = {t for t in asyncio.all_tasks() if t is not current and t not in self._baseline}
        if leftover:
            _done, pending = await asyncio.wait(leftover, timeout=task_timeout)
            for task in pending:
                problems.append(f"task still running after teardown: {task!r}")
                task.cancel()
            if pending:
                await asyncio.wait(pending, timeout=1.0)
        gc.collect()
        await asyncio.sleep(0)
        problems += [f"ERROR log: {line}" for line in self.error_logs()]
        problems += [f"exception in the event loop: {e}" for e in self.loop_errors]
        for logger in self._loggers:
            logger.removeHandler(self._collector)
        if self._loop is not None:
            self._loop.set_exception_handler(self._previous_handler)
        return problems


@dataclass(eq=False)
class _Running:
    bot: discord.Client
    task: asyncio.Task[None]


class BotRunner:
    """Starts discord.py clients against the fake and closes them cleanly.

    Any ``discord.Client`` works (``commands.Bot`` included), or a zero-argument factory that
    returns one (``lambda: create_bot(settings, guild_ready_timeout=0.05)``).
    """

    def __init__(self, fake: FakeDiscord, guard: E2EGuard | None = None) -> None:
        self.fake = fake
        self.guard = guard
        self._running: list[_Running] = []
        #: Views still listening when their bot closed; see :func:`stop_live_views`.
        self.views_stopped = 0

    async def start(
        self,
        bot: ClientT | Callable[[], ClientT] | Callable[[], Awaitable[ClientT]],
        *,
        guild_ready_timeout: float | None = 0.05,
        sync_commands: bool = False,
        timeout: float | None = None,
    ) -> ClientT:
        """Log in, connect in a task, and return once ``on_ready`` has fired.

        ``guild_ready_timeout`` replaces discord.py's 2 s wait after the last GUILD_CREATE
        (``None`` keeps the bot's own value).  ``sync_commands`` syncs the bot's command tree
        (global, and every fake guild that has guild commands), as a deploy script would.
        """
        if not DiscordPointer.is_pointed_at(self.fake.api_base):
            raise RuntimeError(
                "discord.py is not pointed at the fake: use `with fake.patched_discord():` "
                f"(Route.BASE is {discord.http.Route.BASE!r})"
            )
        timeout = self.fake.default_timeout if timeout is None else timeout
        client: Any = bot if isinstance(bot, discord.Client) else bot()
        if asyncio.iscoroutine(client):
            client = await client
        assert isinstance(client, discord.Client), f"not a discord.Client: {client!r}"
        if guild_ready_timeout is not None:
            client._connection.guild_ready_timeout = guild_ready_timeout
        try:
            await asyncio.wait_for(client.login(self.fake.token), timeout)
        except BaseException:
            await client.close()
            raise
        loop = asyncio.get_running_loop()
        task = loop.create_task(
            client.connect(reconnect=True), name=f"bot-connect-{len(self._running)}"
        )
        self._running.append(_Running(client, task))
        ready = loop.create_task(client.wait_until_ready())
        done, _pending = await asyncio.wait(
            {task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
        )
        if ready not in done:
            ready.cancel()
            await asyncio.gather(ready, return_exceptions=True)
            if task in done:
                exc = task.exception()
                raise AssertionError(f"the bot stopped before it was ready: {exc!r}") from exc
            raise HarnessTimeout(
                f"the bot was not ready within {timeout:g}s; last requests:\n{self.fake.recent()}"
            )
        if sync_commands:
            await _sync_tree(client, self.fake)
        return cast(ClientT, client)

    async def stop(self, bot: discord.Client, *, timeout: float | None = None) -> None:
        """Close ``bot`` and wait for its connect task to end (for restart tests)."""
        timeout = self.fake.default_timeout if timeout is None else timeout
        running = next((r for r in self._running if r.bot is bot), None)
        await asyncio.wait_for(bot.close(), timeout)
        self.views_stopped += stop_live_views(bot)
        if running is None:
            return
        self._running.remove(running)
        try:
            await asyncio.wait_for(running.task, timeout)
        except TimeoutError:
            raise HarnessTimeout(
                f"the bot's connect task did not end within {timeout:g}s"
            ) from None
        except Exception as exc:  # surfaced as a test problem, not swallowed
            if self.guard is None:
                raise
            self.guard.extra_problems.append(f"the bot's connect task failed: {exc!r}")

    async def close_all(self) -> None:
        """Close every bot, once the work its last interactions started has finished: a
        test ends when it has seen what it waited for, and a handler may still be at work
        after that (renaming a thread after the ending it posted); closing the bot under it
        would fail its requests and log errors that are the harness's doing, not the bot's."""
        await settle(timeout=self.fake.default_timeout)
        for running in list(self._running):
            await self.stop(running.bot)


#: Tasks that carry out a request to a bot (discord.py's command and button dispatch) or a
#: report it makes on its own (a game's ending, a turn message, the computer's move).
_WORK_TASKS = (
    "CommandTree-invoker",
    "discord-ui-view-dispatch-",
    "discord-ui-dynamic-item-",
    "discord.py: on_interaction",
    "discord.py: on_message",
    "game event",
    "turn-message-",
    "computer-",
)


async def settle(*, timeout: float) -> None:
    """Wait, at most `timeout` seconds, until no task doing a bot's work is running; what
    still runs then is left to the guard, which reports it."""
    current = asyncio.current_task()
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        working = [
            task
            for task in asyncio.all_tasks()
            if task is not current and task.get_name().startswith(_WORK_TASKS)
        ]
        left = deadline - asyncio.get_running_loop().time()
        if not working or left <= 0:
            return
        await asyncio.wait(working, timeout=left)


def stop_live_views(client: discord.Client) -> int:
    """Stop the views a closed client still listens for; return how many.

    discord.py's ``Client.close()`` leaves its view store alone, so every view with a
    timeout keeps a timer task alive after the bot is gone.  A real process exits and never
    notices; a test would see a leaked task that is discord.py's, not the bot's.  This
    reaches into the (private) view store because discord.py exposes only persistent views.
    """
    store = getattr(getattr(client, "_connection", None), "_view_store", None)
    if store is None:
        return 0
    views: dict[int, Any] = {}
    for items in getattr(store, "_views", {}).values():
        for item in items.values():
            if getattr(item, "view", None) is not None:
                views[id(item.view)] = item.view
    for view in list(getattr(store, "_synced_message_views", {}).values()):
        views[id(view)] = view
    stopped = 0
    for view in views.values():
        if not view.is_finished():
            view.stop()
            stopped += 1
    return stopped


async def _sync_tree(client: discord.Client, fake: FakeDiscord) -> None:
    """Sync a bot's app-command tree like a deploy script would (global + guild commands)."""
    tree = getattr(client, "tree", None)
    if tree is None:
        return
    await tree.sync()
    for guild_id in fake.guilds:
        if tree.get_commands(guild=discord.Object(guild_id)):
            await tree.sync(guild=discord.Object(guild_id))
