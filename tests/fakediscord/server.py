"""The fake Discord on the wire: an aiohttp server on 127.0.0.1 (an ephemeral port) with the
REST API under /api/v10 and the gateway websocket, and :class:`DiscordPointer`, which points
an unmodified discord.py at it.

Why the plumbing is careful:

* the reply is written *before* observers are woken (the ``publish`` actions of a
  :class:`~tests.fakediscord.rest.Reply`), or a test could click a button before the bot has
  even read the reply that created it;
* JSON replies carry ``Content-Type: application/json`` exactly (discord.py compares the
  header verbatim; aiohttp's ``json_response`` would add ``; charset=utf-8``);
* a bug in the fake answers 4xx, never 5xx, so that discord.py does not retry it and the
  test reports it once as an internal error;
* any route it does not know gets 404 and is recorded as a problem;
* Discord's limits (:mod:`.limits`) are checked in Discord's order: the ban first (it
  stands in front of everything), then the token, the global limit, the route's bucket,
  and the upload's size; every answer sent is counted towards the ban if it is invalid.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import socket
from collections.abc import Mapping
from types import TracebackType
from typing import Any, Final, Self

import discord.asset
import discord.gateway
import discord.http
import yarl
from aiohttp import BodyPartReader, web

from .constants import API_PREFIX, ErrorCode
from .counting import is_global_limited, route_name
from .gateway import Gateway
from .limits import VIA, Refusal, files_too_large
from .messages import Publish, Upload
from .models import JSON, EncodedJSON, Fault, RequestRecord
from .rest import ROUTE_KEYS, Request, RestApi, Route
from .state import World
from .validation import DiscordHTTPError

_log = logging.getLogger(__name__)
_FILES_FIELD: Final = re.compile(r"^files\[(\d+)\]$")
_NOT_FOUND: Final = {"message": "404: Not Found", "code": 0}
HOST: Final = "127.0.0.1"


class Server:
    """Serves :class:`RestApi` and :class:`Gateway` over HTTP, with faults on demand."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway
        self.api = RestApi(world, gateway)
        self.faults: list[Fault] = []
        #: Bot requests being handled now, and the loop time of the last one's start or end.
        self.in_flight = 0
        self.last_activity = 0.0
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    async def start(self) -> None:
        """Bind 127.0.0.1 on an ephemeral port and start serving."""
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway/", self.gateway.handle)
        app.router.add_get("/cdn/{path:.*}", self._handle_cdn)
        app.router.add_route("*", "/{tail:.*}", self._handle_unknown)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((HOST, 0))
        self._port = int(sock.getsockname()[1])
        await web.SockSite(self._runner, sock).start()
        self.gateway.url = self.gateway_url
        self.world.cdn_base = self.cdn_base

    async def stop(self) -> None:
        """Close every gateway connection and the server."""
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def url(self) -> str:
        if self._port is None:
            raise RuntimeError("the fake Discord has not been started")
        return f"http://{HOST}:{self._port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return self.url.replace("http://", "ws://") + "/gateway/"

    @property
    def cdn_base(self) -> str:
        """What ``discord.asset.Asset.BASE`` must be (the fake serves there only the files
        members uploaded for attachment options)."""
        return self.url + "/cdn"

    # -- faults ---------------------------------------------------------------------------------

    def add_fault(self, fault: Fault) -> Fault:
        """Misbehave on the next ``fault.times`` calls of ``fault.route``."""
        if fault.route not in ROUTE_KEYS:
            raise ValueError(f"unknown route {fault.route!r}; known: {sorted(ROUTE_KEYS)}")
        if fault.status is None and not fault.delay:
            raise ValueError("a fault needs a status or a delay")
        self.faults.append(fault)
        return fault

    def _take_fault(self, route: Route) -> Fault | None:
        for fault in self.faults:
            if fault.route == route.key:
                fault.hits += 1
                if fault.hits >= fault.times:
                    self.faults.remove(fault)
                return fault
        return None

    # -- HTTP plumbing --------------------------------------------------------------------------

    async def _handle_cdn(self, request: web.Request) -> web.StreamResponse:
        """A file a member uploaded for an attachment option, as the CDN serves it; the
        fake keeps no other files there (the bot's own uploads are read from the model)."""
        data = self.world.cdn_files.get(request.match_info["path"])
        if data is None:
            return await self._handle_unknown(request)
        self.world.requests.append(
            RequestRecord(request.method, request.path, None, asyncio.get_running_loop().time())
        )
        return web.Response(body=data, content_type="application/octet-stream")

    async def _handle_unknown(self, request: web.Request) -> web.StreamResponse:
        loop = asyncio.get_running_loop()
        record = RequestRecord(request.method, request.path, None, loop.time())
        self.world.requests.append(record)
        self.world.request_counts.add(route_name(request.method, request.path))
        self.world.unknown_requests.append(record)
        return await self._send(request, record, 404, _NOT_FOUND, [])

    async def _handle_api(self, request: web.Request) -> web.StreamResponse:
        """Route one REST call; write the reply; only then publish and wake observers."""
        loop = asyncio.get_running_loop()
        path = "/" + request.match_info["tail"]
        route, params = self.api.match(request.method, path)
        record = RequestRecord(
            request.method, API_PREFIX + path, route.key if route else None, loop.time()
        )
        self.world.requests.append(record)
        self.world.request_counts.add(route.key if route else route_name(request.method, path))
        self.in_flight += 1
        self.last_activity = loop.time()
        try:
            ban = self.world.limiter.ban(self.world.limits)
            if ban is not None:
                return await self._refuse(request, record, ban)
            if route is None:
                self.world.unknown_requests.append(record)
                over = self._take_global(request, route_name(request.method, path))
                if over is not None:
                    return await self._refuse(request, record, over)
                return await self._send(request, record, 404, _NOT_FOUND, [])
            return await self._serve(request, record, route, params)
        finally:
            self.in_flight -= 1
            self.last_activity = record.finished = loop.time()
            await self.world.notify()

    async def _serve(
        self, request: web.Request, record: RequestRecord, route: Route, params: dict[str, str]
    ) -> web.StreamResponse:
        world = self.world
        fault = self._take_fault(route)
        if fault is not None:
            record.fault = fault.describe()
            await asyncio.sleep(fault.delay)
            if fault.status is not None and not fault.after_processing:
                return await self._send_fault(request, record, fault.status, fault.retry_after)
        if route.auth and request.headers.get("Authorization") != f"Bot {world.token}":
            return await self._send(
                request, record, 401, {"message": "401: Unauthorized", "code": 0}, []
            )
        over = self._take_global(request, route.key)
        if over is not None:
            return await self._refuse(request, record, over)
        over, bucket_headers = world.limiter.take_route(world.limits, route.key, params)
        if over is not None:
            return await self._refuse(request, record, over)
        publish: list[Publish] = []
        try:
            body, uploads = await _read_body(request)
            record.json, record.files = body, [u.filename for u in uploads]
            if files_too_large(world.limits, [len(u.data) for u in uploads]):
                raise DiscordHTTPError(413, ErrorCode.REQUEST_TOO_LARGE, "Request entity too large")
            reply = await route.handler(
                self.api, Request(params, dict(request.query), body, uploads, record)
            )
            status, payload, publish = reply.status, reply.body, reply.publish
        except DiscordHTTPError as exc:
            status, payload = exc.status, exc.body()
            record.code, record.message = exc.code, exc.message
            world.rejections.append(record)
            interaction = world.interactions.get(record.interaction_id or 0)
            if interaction is not None:
                interaction.rejections.append(record)
        except Exception as exc:  # a bug in the fake: 4xx, so that discord.py does not retry
            _log.exception("fake Discord failed on %s", record)
            world.internal_errors.append(f"{record}: {exc!r}")
            status, payload = 400, {"message": f"fake Discord internal error: {exc!r}", "code": 0}
            record.message = payload["message"]
        if fault is not None and fault.status is not None and fault.after_processing:
            for action in publish:
                await action()
            return await self._send_fault(request, record, fault.status, fault.retry_after)
        return await self._send(request, record, status, payload, publish, headers=bucket_headers)

    def _take_global(self, request: web.Request, route_key: str) -> Refusal | None:
        """The global limit's refusal for this request, if it is over; the token is who
        asks (the address, for a request without one)."""
        if not is_global_limited(route_key):
            return None
        who = request.headers.get("Authorization") or "address"
        return self.world.limiter.take_global(self.world.limits, who)

    async def _refuse(
        self, request: web.Request, record: RequestRecord, refusal: Refusal
    ) -> web.StreamResponse:
        """A rate limit's 429 (JSON, counted towards the ban), or the ban's (text, not)."""
        record.message = "rate limited" if not refusal.is_text else "banned"
        if not refusal.is_text:
            return await self._send(
                request, record, refusal.status, refusal.body, [], headers=refusal.headers
            )
        record.status = refusal.status
        response = web.Response(
            status=refusal.status, text=str(refusal.body), headers=refusal.headers
        )
        await _write(request, response, record)
        return response

    async def _send_fault(
        self, request: web.Request, record: RequestRecord, status: int, retry_after: float
    ) -> web.StreamResponse:
        if status != 429:
            body = {"message": "Internal Server Error", "code": 0}
            return await self._send(request, record, status, body, [])
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": False,
        }
        # discord.py takes a 429 without the Via header for Cloudflare's, and gives up.
        headers = {
            "Via": VIA,
            "Retry-After": f"{retry_after:.3f}",
            "X-RateLimit-Scope": "user",
        }
        return await self._send(request, record, 429, body, [], headers=headers)

    async def _send(
        self,
        request: web.Request,
        record: RequestRecord,
        status: int,
        payload: Any,
        publish: list[Publish],
        *,
        headers: Mapping[str, str] | None = None,
    ) -> web.StreamResponse:
        record.status = status
        all_headers = dict(headers or {})
        if payload is None:
            response = web.Response(status=status, headers=all_headers)
        else:
            all_headers["Content-Type"] = "application/json"
            body = payload.encoded if isinstance(payload, EncodedJSON) else json.dumps(payload)
            response = web.Response(status=status, body=body.encode(), headers=all_headers)
        await _write(request, response, record)
        self.world.limiter.answered(self.world.limits, status, all_headers)
        for action in publish:
            await action()
        return response


async def _write(request: web.Request, response: web.Response, record: RequestRecord) -> None:
    try:
        await response.prepare(request)
        await response.write_eof()
    except (ConnectionError, RuntimeError):
        _log.debug("client went away before the reply to %s was written", record)


async def _read_body(request: web.Request) -> tuple[Any, list[Upload]]:
    """The JSON body, or a multipart body's ``payload_json`` and its ``files[n]`` parts."""
    if not request.can_read_body:
        return None, []
    if not request.content_type.startswith("multipart/"):
        raw = await request.read()
        try:
            return (json.loads(raw) if raw else None), []
        except ValueError as exc:
            raise DiscordHTTPError(
                400, ErrorCode.INVALID_JSON, "The request body contains invalid JSON."
            ) from exc
    payload: JSON | None = None
    uploads: list[Upload] = []
    async for part in await request.multipart():
        if not isinstance(part, BodyPartReader):
            continue
        data = bytes(await part.read(decode=False))
        name = part.name or ""
        if name == "payload_json":
            payload = json.loads(data.decode("utf-8"))
        elif match := _FILES_FIELD.match(name):
            uploads.append(Upload(int(match.group(1)), part.filename or "file", data))
    return payload, uploads


class DiscordPointer:
    """Points discord.py's three base URLs at the fake, and restores them on exit.

    Works as ``with``; also in a bot process of its own (:meth:`from_url`).
    ``discord.http._set_api_version()`` overwrites ``Route.BASE``: call it (if at all) before.
    """

    def __init__(self, api_base: str, gateway_url: str, cdn_base: str) -> None:
        self.api_base = api_base
        self.gateway_url = gateway_url
        self.cdn_base = cdn_base
        self._saved: tuple[str, yarl.URL, str] | None = None

    @classmethod
    def from_url(cls, url: str) -> DiscordPointer:
        """From the fake's base URL alone (``FakeDiscord.url``), e.g. passed to a bot process."""
        base = yarl.URL(url)
        gateway = base.with_scheme("ws").with_path("/gateway/")
        return cls(str(base.with_path(API_PREFIX)), str(gateway), str(base.with_path("/cdn")))

    @staticmethod
    def is_pointed_at(api_base: str) -> bool:
        return api_base == discord.http.Route.BASE

    def __enter__(self) -> Self:
        self._saved = (
            discord.http.Route.BASE,
            discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
            discord.asset.Asset.BASE,
        )
        discord.http.Route.BASE = self.api_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)
        discord.asset.Asset.BASE = self.cdn_base
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._saved is not None:
            (
                discord.http.Route.BASE,
                discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY,
                discord.asset.Asset.BASE,
            ) = self._saved
            self._saved = None
