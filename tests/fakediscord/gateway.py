"""The gateway websocket: HELLO, heartbeats, IDENTIFY with READY and a GUILD_CREATE per guild,
RESUME with the missed events replayed, and every DISPATCH the bot's intents ask for.

With ``shard: [shard_id, shard_count]`` in IDENTIFY, the connection gets only the guilds of
that shard (``(guild_id >> 22) % shard_count``) and their events, interactions included;
events without a guild go to shard 0.  An impossible shard is closed with 4010.

Why it keeps the sent events per session: a real bot loses its connection, and Discord then
replays what it missed on RESUME (or, when the session cannot be resumed, answers
INVALID_SESSION so the bot identifies again).  The fault tests cut the connection on purpose
and check that an interaction sent meanwhile is still answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections import deque
from dataclasses import dataclass, field

from aiohttp import WSMsgType, web

from .constants import HEARTBEAT_INTERVAL_MS, Intent
from .models import JSON, RequestRecord
from .state import World


class NoBotConnected(AssertionError):
    """A test tried to send an event, or cut a connection, while no bot is identified."""


@dataclass(eq=False)
class Connection:
    """One websocket; a session moves to a new one when the bot resumes."""

    ws: web.WebSocketResponse
    request: web.Request
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    session: Session | None = None

    async def send(self, frame: str) -> None:
        """Send one frame, unless the bot has already gone away (it will resume)."""
        if self.ws.closed:
            return
        with contextlib.suppress(ConnectionError, RuntimeError):
            async with self.lock:
                await self.ws.send_str(frame)


@dataclass(eq=False)
class Session:
    """A gateway session: its sequence numbers and the events kept for RESUME."""

    session_id: str
    intents: int
    #: ``[shard_id, shard_count]`` as the bot identified with (None: not sharded, which
    #: Discord treats as shard 0 of 1: every guild).
    shard: tuple[int, int] | None = None
    seq: int = 0
    sent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=20_000))
    connection: Connection | None = None
    resumable: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    resumes: int = 0

    @property
    def connected(self) -> bool:
        return self.connection is not None and not self.connection.ws.closed

    def frame(self, event: str, data: JSON) -> str:
        """The next DISPATCH frame, numbered and kept for a RESUME."""
        self.seq += 1
        frame = json.dumps({"op": 0, "t": event, "s": self.seq, "d": data})
        self.sent.append((self.seq, frame))
        return frame


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula: which shard receives a guild's events."""
    return (guild_id >> 22) % shard_count


def guild_of(event: str, data: JSON) -> int | None:
    """The guild an event belongs to (None: a direct message or no guild at all, which
    Discord sends to shard 0)."""
    if event.startswith("GUILD_") and "guild_id" not in data:
        raw = data.get("id")
    else:
        raw = data.get("guild_id")
    return None if raw is None else int(raw)


#: The events of a guild's members, sent only to a session with the members intent.
MEMBER_EVENTS = frozenset({"GUILD_MEMBER_ADD", "GUILD_MEMBER_UPDATE", "GUILD_MEMBER_REMOVE"})


def wants(intents: int, event: str, data: JSON | None = None) -> bool:
    """Whether a session with ``intents`` receives ``event``: guild events (a member's
    joining, change and leaving only with the privileged members intent), and the messages
    of direct-message channels (their payload has no ``guild_id``)."""
    if event.startswith("MESSAGE_"):
        direct = data is not None and "guild_id" not in data
        return bool(intents & (Intent.DIRECT_MESSAGES if direct else Intent.GUILD_MESSAGES))
    if event in MEMBER_EVENTS:
        return bool(intents & Intent.GUILD_MEMBERS)
    if event.startswith(("THREAD_", "CHANNEL_", "GUILD_")):
        return bool(intents & Intent.GUILDS)
    return True


#: The list fields of a message that Discord empties, with its content, for a bot without
#: the message content intent.
CONTENT_FIELDS = ("embeds", "attachments", "components")


def as_seen(intents: int, bot_id: int, event: str, data: JSON) -> JSON:
    """A message event as a session with ``intents`` receives it. Without the privileged
    message content intent, Discord empties the content, embeds, attachments and
    components of every guild message except the bot's own and those that mention it: its
    user in ``mentions`` (written as ``<@id>``, or a reply that pings its author). A
    mention of its role or @everyone does not count, and direct messages keep theirs."""
    if not event.startswith("MESSAGE_") or "content" not in data:
        return data
    if intents & Intent.MESSAGE_CONTENT or "guild_id" not in data:
        return data
    bot = str(bot_id)
    author = (data.get("author") or {}).get("id")
    if author == bot or any(u.get("id") == bot for u in data.get("mentions") or []):
        return data
    return {**data, "content": "", **{key: [] for key in CONTENT_FIELDS}}


class Gateway:
    """Sessions and websocket connections of the bot: one bot at a time, or with sharding
    one session per shard (several processes of one bot, each for some shards), each
    receiving only its shard's guilds and their events, as Discord sends them."""

    def __init__(self, world: World) -> None:
        self.world = world
        #: What READY gives as ``resume_gateway_url`` (the server sets it once it has a port).
        self.url = ""
        self.sessions: dict[str, Session] = {}
        #: The session of the bot that identified last.
        self.session: Session | None = None
        #: With sharding, the session each shard's events go to: the last to identify or
        #: resume as that shard.
        self.shards: dict[int, Session] = {}
        self.identify_count = 0
        self._connections: set[Connection] = set()

    def session_for(self, guild_id: int | None) -> Session | None:
        """The session that receives a guild's events: the current one, or with sharding
        the one of the guild's shard (guild-less events go to shard 0)."""
        session = self.session
        if session is None or session.shard is None:
            return session
        shard = 0 if guild_id is None else shard_of(guild_id, session.shard[1])
        return self.shards.get(shard)

    async def dispatch(self, event: str, data: JSON) -> bool:
        """Send a DISPATCH to the session of the event's guild (kept for RESUME if it is
        disconnected).

        Returns False when no bot has identified (for that shard) or its intents exclude
        the event.
        """
        return await self.send_event(self.session_for(guild_of(event, data)), event, data)

    async def send_event(self, session: Session | None, event: str, data: JSON) -> bool:
        """Send a DISPATCH to ``session`` (see :meth:`dispatch`)."""
        if session is None or not wants(session.intents, event, data):
            return False
        data = as_seen(session.intents, self.world.bot_user.id, event, data)
        async with session.lock:
            frame = session.frame(event, data)
            if session.connection is not None:
                await session.connection.send(frame)
        return True

    async def drop(self, *, code: int = 4000, resumable: bool = True, abort: bool = False) -> None:
        """Cut the bot's connection.  With ``resumable`` its RESUME succeeds and the missed
        events are replayed; without, it gets INVALID_SESSION and must IDENTIFY again
        (discord.py waits 5 s first, as against Discord).  ``abort`` drops the TCP connection
        without a close frame."""
        session = self.session
        if session is None or session.connection is None:
            raise NoBotConnected("no gateway connection to drop")
        session.resumable = resumable
        connection, session.connection = session.connection, None
        if abort and connection.request.transport is not None:
            connection.request.transport.abort()
        else:
            await connection.ws.close(code=code)
        await self.world.notify()

    async def close_all(self) -> None:
        for connection in list(self._connections):
            with contextlib.suppress(Exception):
                await connection.ws.close(code=1001)

    async def handle(self, request: web.Request) -> web.StreamResponse:
        """One websocket connection: HELLO, then the bot's frames until it goes away."""
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        connection = Connection(ws, request)
        self._connections.add(connection)
        try:
            await connection.send(
                json.dumps({"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}})
            )
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._receive(connection, json.loads(message.data))
        finally:
            self._connections.discard(connection)
            session = connection.session
            if session is not None and session.connection is connection:
                session.connection = None
            await self.world.notify()
        return ws

    async def _receive(self, connection: Connection, payload: JSON) -> None:
        op = payload.get("op")
        data = payload.get("d")
        data = data if isinstance(data, dict) else {}
        if op == 1:
            await connection.send(json.dumps({"op": 11}))
        elif op == 2:
            await self._identify(connection, data)
        elif op == 6:
            await self._resume(connection, data)
        else:  # presence updates, member requests ...: nothing the bot has needed so far
            loop = asyncio.get_running_loop()
            record = RequestRecord("GATEWAY", f"op {op}", None, loop.time(), finished=loop.time())
            self.world.requests.append(record)
            self.world.unknown_requests.append(record)
            await self.world.notify()

    async def _identify(self, connection: Connection, data: JSON) -> None:
        world = self.world
        if data.get("token") != world.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        try:
            shard = self._shard(data.get("shard"))
        except ValueError:
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = Session(secrets.token_hex(16), intents, shard)
        self.sessions[session.session_id] = session
        connection.session, session.connection = session, connection
        self.session = session
        if shard is not None:
            self.shards[shard[0]] = session
        self.identify_count += 1
        guilds = [
            guild
            for guild in world.guilds.values()
            if shard is None or shard_of(guild.id, shard[1]) == shard[0]
        ]
        ready: JSON = {
            "v": 10,
            "user": world.bot_user.payload(),
            "user_settings": {},
            "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
            "relationships": [],
            "private_channels": [],
            "presences": [],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(world.application_id), "flags": 0},
            "_trace": ["fake-discord"],
        }
        if shard is not None:
            ready["shard"] = list(shard)
        await self.send_event(session, "READY", ready)
        for guild in guilds:
            await self.send_event(
                session, "GUILD_CREATE", world.guild_create_payload(guild, intents)
            )
        await world.notify()

    @staticmethod
    def _shard(value: object) -> tuple[int, int] | None:
        """IDENTIFY's ``shard``: ``[shard_id, shard_count]``, None when absent; ValueError
        when Discord would refuse it (it closes the connection with 4010, Invalid shard)."""
        if value is None:
            return None
        if not isinstance(value, list) or len(value) != 2:
            raise ValueError(value)
        shard_id, count = value
        if not isinstance(shard_id, int) or not isinstance(count, int):
            raise ValueError(value)
        if count < 1 or not 0 <= shard_id < count:
            raise ValueError(value)
        return shard_id, count

    async def _resume(self, connection: Connection, data: JSON) -> None:
        if data.get("token") != self.world.token:
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        session = self.sessions.get(str(data.get("session_id")))
        if session is None or not session.resumable:
            await connection.send(json.dumps({"op": 9, "d": False}))
            return
        last_seq = int(data.get("seq") or 0)
        async with session.lock:
            connection.session, session.connection = session, connection
            session.resumes += 1
            self.session = session
            if session.shard is not None:
                self.shards[session.shard[0]] = session
            missed = [frame for seq, frame in session.sent if seq > last_seq]
            for frame in [*missed, session.frame("RESUMED", {"_trace": ["fake-discord"]})]:
                await connection.send(frame)
        await self.world.notify()
