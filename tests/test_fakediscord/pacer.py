"""A client in a process of its own that sends requests to the fake Discord at a steady pace,
for the global limit's test (``test_limits.py``): several of them on one token are several
bot processes sharing Discord's 50 a second.

    python -m tests.test_fakediscord.pacer URL TOKEN RATE SECONDS

It prints ``ready`` once it is connected, waits for a line on stdin (so that every pacer
starts together), then sends ``GET /users/@me`` one at a time, each at least ``1 / RATE``
seconds after the previous one was sent, for ``SECONDS``; and prints one JSON line: the
statuses it got, and the body and headers of the first 429.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from typing import Any

import aiohttp


async def pace(url: str, token: str, rate: float, seconds: float) -> dict[str, Any]:
    statuses: dict[str, int] = {}
    first_429: dict[str, Any] | None = None
    headers = {"Authorization": f"Bot {token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{url}/api/v10/users/@me") as warm:  # opens the connection
            await warm.read()
        sys.stdout.write("ready\n")
        sys.stdout.flush()
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
        end = time.monotonic() + seconds
        sent = time.monotonic() - 1 / rate
        while (now := time.monotonic()) < end:
            gap = sent + 1 / rate - now
            if gap > 0:
                await asyncio.sleep(gap)
            sent = time.monotonic()
            async with http.get(f"{url}/api/v10/users/@me") as reply:
                body = await reply.json()
                statuses[str(reply.status)] = statuses.get(str(reply.status), 0) + 1
                if reply.status == 429 and first_429 is None:
                    first_429 = {"body": body, "headers": dict(reply.headers)}
    return {"statuses": statuses, "first_429": first_429}


def main() -> None:
    url, token, rate, seconds = sys.argv[1:5]
    result = asyncio.run(pace(url, token, float(rate), float(seconds)))
    sys.stdout.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
