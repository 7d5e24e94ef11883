"""A small HTTP server that stands for Discord where only the order of requests and a
429 matter (the pacing's tests): it records what arrives and answers what it is told."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator

import pytest
from aiohttp import web


class Discordish:
    """A server that records the order requests arrive in, and answers 429 when told."""

    def __init__(self) -> None:
        self.arrived: list[str] = []
        self.refuse: dict[str, tuple[int, dict[str, str], dict[str, object]]] = {}

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            socket = web.WebSocketResponse()
            await socket.prepare(request)
            self.arrived.append("websocket")
            await socket.close()
            return socket
        self.arrived.append(f"{request.method} {request.path}")
        refused = self.refuse.pop(request.path, None)
        if refused is not None:
            status, headers, body = refused
            return _json(body, status, headers)
        return _json({"ok": True}, 200, {})


@pytest.fixture
async def server() -> AsyncIterator[tuple[Discordish, str]]:
    discordish = Discordish()
    app = web.Application()
    app.router.add_route("*", "/{tail:.*}", discordish.handle)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        yield discordish, f"http://127.0.0.1:{port}"
    finally:
        await runner.cleanup()


def _json(body: dict[str, object], status: int, headers: dict[str, str]) -> web.Response:
    """A JSON answer typed exactly as Discord types it (discord.py reads the body as JSON
    only under `application/json`, without a charset)."""
    return web.Response(
        body=json.dumps(body).encode(),
        status=status,
        headers=headers | {"Content-Type": "application/json"},
    )
