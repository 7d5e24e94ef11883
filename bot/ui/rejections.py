"""Discord's refusals of the bot's requests, counted, so an operator sees a storm coming.

Discord bans the bot's address for a while once it makes 10,000 invalid requests (answered
401, 403 or 429) in 10 minutes, whatever they were for: a closed inbox written to over and
over, a deleted thread posted to, a limit ignored. Every response of discord.py's HTTP
client passes `trace()` (aiohttp's request tracing, which discord.py takes as `http_trace`),
so nothing the bot sends escapes the count, 429s that discord.py retries by itself included.
Each 4xx is counted by its status for `/metrics`; the invalid ones of the last 10 minutes
are kept per second (at most 600 numbers, however many arrive), and past `ALARM` of them,
a tenth of the ban, one warning is logged (again only after the count fell below it).
"""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

log = logging.getLogger(__name__)

#: What Discord counts toward its ban: unauthorized, forbidden, too many requests.
INVALID = frozenset({401, 403, 429})
#: The window of Discord's ban, in seconds (10,000 invalid requests in it).
WINDOW = 600
#: The invalid requests in the window past which the operator is warned: a tenth of the ban.
ALARM = 1_000


class Rejections:
    """Counts the 4xx answers Discord gave this process: all of them by status, and the
    invalid ones of the last `WINDOW` seconds. `clock` is monotonic seconds (a test's own)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self.by_status: Counter[int] = Counter()
        self._seconds: deque[list[int]] = deque()  # [second, invalid requests in it], oldest first
        self._recent = 0  # the sum of the counts in `_seconds`
        self._alarmed = False

    def record(self, status: int) -> None:
        """A response with HTTP `status` arrived (anything but a 4xx is ignored)."""
        if not 400 <= status < 500:
            return
        self.by_status[status] += 1
        if status not in INVALID:
            return
        second = int(self._clock())
        self._forget(second)
        if self._seconds and self._seconds[-1][0] == second:
            self._seconds[-1][1] += 1
        else:
            self._seconds.append([second, 1])
        self._recent += 1
        if self._recent > ALARM and not self._alarmed:
            self._alarmed = True
            log.warning(
                "Discord refused %d requests (401, 403, 429) in the last %d minutes; it bans"
                " the bot's address at 10,000",
                self._recent,
                WINDOW // 60,
            )

    def invalid_recently(self) -> int:
        """The invalid requests (401, 403, 429) of the last `WINDOW` seconds."""
        self._forget(int(self._clock()))
        return self._recent

    def _forget(self, second: int) -> None:
        while self._seconds and self._seconds[0][0] <= second - WINDOW:
            self._recent -= self._seconds.popleft()[1]
        if self._recent <= ALARM:
            self._alarmed = False

    def trace(self) -> aiohttp.TraceConfig:
        """The aiohttp tracing that counts every response of the session it is given to."""
        config = aiohttp.TraceConfig()

        async def ended(
            session: aiohttp.ClientSession,
            context: SimpleNamespace,
            params: aiohttp.TraceRequestEndParams,
        ) -> None:
            self.record(params.response.status)

        config.on_request_end.append(ended)
        return config
