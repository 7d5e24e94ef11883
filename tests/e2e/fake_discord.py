"""A small fake Discord: REST under /api/v10, the gateway websocket and a CDN, on 127.0.0.1.

Why it exists: the end-to-end tests drive the *unmodified* discord.py client, and there is no
network to Discord in tests or CI.  This module is the Discord side of that conversation.  It
keeps just enough state (one application and its bot user, guilds with roles, members and
channels, threads, messages with their files, registered application commands, interactions)
to answer the client the way Discord does, and it records everything the bot sends so a test can
read it back.

It behaves like Discord where a bot could get it wrong:

* one initial response per interaction (a second one gets 400, code 40060);
* follow-ups and ``@original`` only after the initial response (404, code 10015);
* an initial response later than :attr:`FakeDiscordServer.interaction_timeout` seconds (3 s by
  default) is refused with 404, code 10062;
* bad payloads get 400 code 50035 with Discord's nested ``errors`` (content over 2,000
  characters, more than 25 autocomplete choices, a custom_id over 100 characters, a malformed
  component tree, contradictory ``allowed_mentions`` ...), oversized files get 413;
* any route it does not know gets 404 and is recorded in :attr:`FakeDiscordServer.unknown_requests`;
* JSON replies carry ``Content-Type: application/json`` exactly (discord.py compares the header
  verbatim; aiohttp's ``json_response`` would add ``; charset=utf-8``).

It deliberately does not import discord.py, so it can describe Discord without borrowing the
client's assumptions.  :mod:`tests.e2e.harness` adds the test-facing API on top.

Observers are woken only *after* the HTTP reply has been written (see :meth:`_handle_api`):
otherwise a test could click a button before the bot has even read the reply that created it.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import mimetypes
import re
import secrets
import socket
import struct
import time
from collections import deque
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final
from urllib.parse import quote

from aiohttp import BodyPartReader, WSMsgType, web

JSON = dict[str, Any]

_log = logging.getLogger(__name__)

API_PREFIX: Final = "/api/v10"
DISCORD_EPOCH_MS: Final = 1_420_070_400_000


# --- Discord constants the fake needs -------------------------------------------------------


class Perm:
    """Permission bits (only those the fake computes with)."""

    ADMINISTRATOR: Final = 1 << 3
    ADD_REACTIONS: Final = 1 << 6
    VIEW_CHANNEL: Final = 1 << 10
    SEND_MESSAGES: Final = 1 << 11
    MANAGE_MESSAGES: Final = 1 << 13
    EMBED_LINKS: Final = 1 << 14
    ATTACH_FILES: Final = 1 << 15
    READ_MESSAGE_HISTORY: Final = 1 << 16
    MENTION_EVERYONE: Final = 1 << 17
    USE_EXTERNAL_EMOJIS: Final = 1 << 18
    USE_APPLICATION_COMMANDS: Final = 1 << 31
    MANAGE_THREADS: Final = 1 << 34
    CREATE_PUBLIC_THREADS: Final = 1 << 35
    CREATE_PRIVATE_THREADS: Final = 1 << 36
    SEND_MESSAGES_IN_THREADS: Final = 1 << 38
    ALL: Final = (1 << 53) - 1

    #: What @everyone may do in a freshly made test server.
    EVERYONE_DEFAULT: Final = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | CREATE_PRIVATE_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    #: What the bot's managed role adds on top of @everyone.
    BOT_DEFAULT: Final = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS


class Intent:
    """Gateway intent bits that change what the fake sends."""

    GUILDS: Final = 1 << 0
    GUILD_MEMBERS: Final = 1 << 1
    GUILD_MESSAGES: Final = 1 << 9
    DIRECT_MESSAGES: Final = 1 << 12
    MESSAGE_CONTENT: Final = 1 << 15


class ChannelType:
    TEXT: Final = 0
    DM: Final = 1
    NEWS: Final = 5
    NEWS_THREAD: Final = 10
    PUBLIC_THREAD: Final = 11
    PRIVATE_THREAD: Final = 12


THREAD_TYPES: Final = frozenset({10, 11, 12})


class InteractionType:
    PING: Final = 1
    APPLICATION_COMMAND: Final = 2
    MESSAGE_COMPONENT: Final = 3
    AUTOCOMPLETE: Final = 4
    MODAL_SUBMIT: Final = 5


class ResponseType:
    """Interaction callback types."""

    CHANNEL_MESSAGE: Final = 4
    DEFERRED_CHANNEL_MESSAGE: Final = 5
    DEFERRED_UPDATE_MESSAGE: Final = 6
    UPDATE_MESSAGE: Final = 7
    AUTOCOMPLETE_RESULT: Final = 8
    MODAL: Final = 9


#: Which callback types Discord accepts for which interaction type.
_ALLOWED_RESPONSES: Final[dict[int, frozenset[int]]] = {
    InteractionType.APPLICATION_COMMAND: frozenset({4, 5, 9}),
    InteractionType.MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    InteractionType.AUTOCOMPLETE: frozenset({8}),
    InteractionType.MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}


class MessageFlag:
    SUPPRESS_EMBEDS: Final = 1 << 2
    EPHEMERAL: Final = 1 << 6
    LOADING: Final = 1 << 7
    SUPPRESS_NOTIFICATIONS: Final = 1 << 12
    IS_COMPONENTS_V2: Final = 1 << 15


class OptionType:
    SUB_COMMAND: Final = 1
    SUB_COMMAND_GROUP: Final = 2
    STRING: Final = 3
    INTEGER: Final = 4
    BOOLEAN: Final = 5
    USER: Final = 6
    CHANNEL: Final = 7
    ROLE: Final = 8
    MENTIONABLE: Final = 9
    NUMBER: Final = 10
    ATTACHMENT: Final = 11


class ErrorCode:
    """Discord JSON error codes the fake answers with."""

    UNKNOWN_CHANNEL: Final = 10003
    UNKNOWN_GUILD: Final = 10004
    UNKNOWN_MEMBER: Final = 10007
    UNKNOWN_MESSAGE: Final = 10008
    UNKNOWN_USER: Final = 10013
    UNKNOWN_WEBHOOK: Final = 10015
    UNKNOWN_INTERACTION: Final = 10062
    UNKNOWN_COMMAND: Final = 10063
    UNAUTHORIZED: Final = 40001
    REQUEST_TOO_LARGE: Final = 40005
    ALREADY_ACKNOWLEDGED: Final = 40060
    CANNOT_EDIT_OTHERS_MESSAGE: Final = 50005
    EMPTY_MESSAGE: Final = 50006
    MISSING_PERMISSIONS: Final = 50013
    INVALID_WEBHOOK_TOKEN: Final = 50027
    INVALID_FORM_BODY: Final = 50035
    THREAD_LOCKED: Final = 50083
    THREAD_ALREADY_CREATED: Final = 160004


# --- limits ------------------------------------------------------------------------------------

MAX_CONTENT: Final = 2000
MAX_EMBEDS: Final = 10
MAX_EMBED_TOTAL: Final = 6000
MAX_CUSTOM_ID: Final = 100
MAX_ACTION_ROWS: Final = 5
MAX_ROW_BUTTONS: Final = 5
MAX_CHOICES: Final = 25
MAX_FILES: Final = 10
MAX_STRING_OPTION: Final = 6000
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")
_USER_MENTION = re.compile(r"<@!?(\d{1,20})>")
_ROLE_MENTION = re.compile(r"<@&(\d{1,20})>")
_EVERYONE_MENTION = re.compile(r"@(everyone|here)\b")
_FILES_FIELD = re.compile(r"^files\[(\d+)\]$")


# --- errors --------------------------------------------------------------------------------------


class DiscordHTTPError(Exception):
    """A Discord-shaped error reply: HTTP status, JSON code, message and nested form errors."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


def form_error(path: str, message: str, kind: str = "BASE_TYPE_BAD") -> DiscordHTTPError:
    """Build the 400/50035 error Discord returns for a bad field, nested like Discord does.

    ``path`` is dotted, e.g. ``"data.components.0.components.1.custom_id"``.
    """
    errors: JSON = {}
    node = errors
    for part in path.split("."):
        node = node.setdefault(part, {})
    node["_errors"] = [{"code": kind, "message": message}]
    return DiscordHTTPError(400, ErrorCode.INVALID_FORM_BODY, "Invalid Form Body", errors)


class NoBotConnected(AssertionError):
    """A test tried to send an event but no bot has identified on the gateway."""


class UserCannotDoThat(AssertionError):
    """A test asked a user to do what Discord's own client would not let them do.

    For example: run a command that is not registered, pick a value outside an option's
    choices, omit a required option, click a button that does not exist or is disabled, or
    click on someone else's ephemeral message.  Failing loudly here keeps tests honest.
    """


# --- helpers ---------------------------------------------------------------------------------


def _iso(ts: float) -> str:
    return datetime.fromtimestamp(ts, UTC).isoformat()


def _image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG (from its IHDR chunk), so attachments look like images."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


class SnowflakeFactory:
    """Real-looking, strictly increasing snowflakes (``created_at`` in discord.py is right)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        now_ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        candidate = now_ms << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate


# --- the model -----------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    """A Discord user (human or bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    mentionable: bool = False

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": self.mentionable,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership of one guild."""

    guild_id: int
    user: FakeUser
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: float = field(default_factory=time.time)

    @property
    def id(self) -> int:
        return self.user.id

    @property
    def mention(self) -> str:
        return self.user.mention

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        body: JSON = {
            "roles": [str(r) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": _iso(self.joined_at),
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            body["user"] = self.user.payload()
        if permissions is not None:
            body["permissions"] = str(permissions)
        return body


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel, a thread, or a DM channel."""

    id: int
    type: int
    name: str
    guild_id: int | None = None
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    created_at: float = field(default_factory=time.time)
    message_count: int = 0
    total_message_sent: int = 0
    last_message_id: int | None = None
    thread_members: set[int] = field(default_factory=set)
    recipients: list[FakeUser] = field(default_factory=list)
    #: Threads: the message this thread was started from (its id equals the thread's id).
    starter_message_id: int | None = None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self) -> JSON:
        body: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "flags": 0,
        }
        if self.is_dm:
            body["recipients"] = [u.payload() for u in self.recipients]
            body.pop("name")
            return body
        body["guild_id"] = str(self.guild_id)
        body["rate_limit_per_user"] = 0
        if self.is_thread:
            body.update(
                {
                    "parent_id": str(self.parent_id),
                    "owner_id": str(self.owner_id),
                    "message_count": self.message_count,
                    "member_count": len(self.thread_members),
                    "total_message_sent": self.total_message_sent,
                    "applied_tags": [],
                    "thread_metadata": {
                        "archived": self.archived,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": _iso(self.created_at),
                        "locked": self.locked,
                        "invitable": self.invitable,
                        "create_timestamp": _iso(self.created_at),
                    },
                }
            )
        else:
            body.update(
                {
                    "position": self.position,
                    "parent_id": None if self.parent_id is None else str(self.parent_id),
                    "permission_overwrites": [],
                    "nsfw": False,
                    "topic": None,
                    "default_thread_rate_limit_per_user": 0,
                    "default_auto_archive_duration": 1440,
                }
            )
        return body


@dataclass(eq=False)
class FakeGuild:
    """A guild ("server") with its roles, members and channels."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, FakeRole] = field(default_factory=dict)
    members: dict[int, FakeMember] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    locale: str = "en-US"

    @property
    def everyone(self) -> FakeRole:
        return self.roles[self.id]


@dataclass(eq=False)
class FakeUpload:
    """A file a *user* supplies (attachment option, or a user's own message)."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(eq=False)
class FakeAttachment:
    """A stored file; its bytes are served back by the fake CDN at :attr:`url`."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> JSON:
        body: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            body["description"] = self.description
        if self.ephemeral:
            body["ephemeral"] = True
        dims = _image_size(self.data)
        if dims is not None:
            body["width"], body["height"] = dims
        return body


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it, plus how it got there (``source``) and its edit history."""

    id: int
    channel_id: int
    guild_id: int | None
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    tts: bool = False
    #: The ``allowed_mentions`` object exactly as the bot sent it (None when it sent none).
    allowed_mentions: JSON | None = None
    #: Users, roles and @everyone that were actually pinged after ``allowed_mentions``.
    mentions: list[FakeUser] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    message_reference: JSON | None = None
    #: "channel" (REST), "response" (interaction callback), "followup" (webhook), "user".
    source: str = "channel"
    interaction_id: int | None = None
    webhook_id: int | None = None
    thread_id: int | None = None
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    deleted: bool = False
    #: Earlier versions, oldest first: dicts with content, embeds, components, attachments, flags.
    history: list[JSON] = field(default_factory=list)
    #: True once the HTTP reply that created it has been written (see module docstring).
    published: bool = False
    nonce: str | None = None
    #: 0 default, 19 reply, 20 the answer to a slash command.
    type: int = 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "thinking"."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def mentioned_user_ids(self) -> list[int]:
        """Ids of the users this message actually pinged."""
        return [u.id for u in self.mentions]

    def iter_components(self) -> Iterable[JSON]:
        """Every component in the tree, depth first (rows, buttons, selects, v2 containers)."""
        return _walk_components(self.components)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in self.iter_components() if "custom_id" in c]

    @property
    def buttons(self) -> list[JSON]:
        return [c for c in self.iter_components() if c.get("type") == 2]

    def component(self, custom_id: str) -> JSON | None:
        return next((c for c in self.iter_components() if c.get("custom_id") == custom_id), None)

    def snapshot(self) -> JSON:
        return {
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [a.id for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def payload(self, *, thread: FakeChannel | None = None) -> JSON:
        body: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": _iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else _iso(self.edited_at),
            "tts": self.tts,
            "mention_everyone": self.mention_everyone,
            "mentions": [u.payload() for u in self.mentions],
            "mention_roles": [str(r) for r in self.mention_role_ids],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "pinned": False,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            body["webhook_id"] = str(self.webhook_id)
            body["application_id"] = str(self.webhook_id)
        if self.message_reference is not None:
            body["message_reference"] = self.message_reference
        if self.nonce is not None:
            body["nonce"] = self.nonce
        if thread is not None:
            body["thread"] = thread.payload()
        return body


@dataclass(eq=False)
class FakeCommand:
    """A registered application command, as the bot's bulk overwrite left it."""

    id: int
    application_id: int
    guild_id: int | None
    data: JSON
    version: int

    @property
    def name(self) -> str:
        return str(self.data["name"])

    @property
    def type(self) -> int:
        return int(self.data.get("type", 1))

    def payload(self) -> JSON:
        body = dict(self.data)
        body.setdefault("type", 1)
        body.setdefault("description", "")
        body.setdefault("options", [])
        body.setdefault("default_member_permissions", None)
        body.setdefault("nsfw", False)
        body.setdefault("contexts", None)
        body.setdefault("integration_types", [0])
        body.update(
            id=str(self.id),
            application_id=str(self.application_id),
            version=str(self.version),
        )
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        else:
            body.setdefault("dm_permission", True)
        return body


@dataclass(eq=False)
class FakeInteraction:
    """One interaction and everything the bot did in answer to it.

    The ``response_*`` fields, ``original_message_id`` and ``followup_ids`` are set only once the
    reply to the bot has been written, so a waiting test never sees a half-finished answer.
    """

    id: int
    token: str
    type: int
    application_id: int
    user: FakeUser
    member: FakeMember | None
    channel_id: int
    guild_id: int | None
    data: JSON
    payload: JSON
    created: float
    message_id: int | None = None
    #: The command/custom_id for messages, e.g. "/ping" or "button:vote:3".
    label: str = ""
    acknowledged: bool = False
    #: The message the initial response created or targets, as soon as it is committed.
    committed_original_id: int | None = None
    response_type: int | None = None
    response_data: JSON | None = None
    responded_at: float | None = None
    original_message_id: int | None = None
    followup_ids: list[int] = field(default_factory=list)
    #: Refused calls for this interaction, e.g. a late or second initial response.
    rejections: list[RequestRecord] = field(default_factory=list)
    #: Loop time of the last bot request carrying this interaction's token.
    last_activity: float = 0.0


@dataclass(eq=False)
class RequestRecord:
    """One HTTP request the bot made, and what the fake answered."""

    method: str
    path: str
    route: str | None
    started: float
    status: int = 0
    code: int | None = None
    message: str | None = None
    json: Any = None
    files: list[str] = field(default_factory=list)
    fault: str | None = None
    finished: float | None = None
    interaction_id: int | None = None

    def __str__(self) -> str:
        code = f" code {self.code}" if self.code else ""
        fault = f" [fault: {self.fault}]" if self.fault else ""
        msg = f" ({self.message})" if self.message else ""
        return f"{self.method} {self.path} -> {self.status}{code}{msg}{fault}"


@dataclass(eq=False)
class Fault:
    """A one-off (or ``times``-off) misbehaviour on the next call(s) of one route.

    ``status`` 429 answers with ``retry_after`` as Discord does (with the ``Via`` header that
    discord.py insists on); ``status`` 5xx answers a server error; ``delay`` waits before
    handling (it counts against the interaction deadline); ``drop`` closes the connection
    without answering.  ``after_processing`` applies the request first and *then* misbehaves,
    which is how a bot ends up retrying something Discord already did.
    """

    route: str
    status: int | None = None
    retry_after: float = 0.05
    delay: float = 0.0
    drop: bool = False
    after_processing: bool = False
    times: int = 1
    hits: int = 0

    def describe(self) -> str:
        parts = []
        if self.delay:
            parts.append(f"delay {self.delay:g}s")
        if self.status is not None:
            parts.append(f"status {self.status}")
        if self.drop:
            parts.append("drop")
        if self.after_processing:
            parts.append("after processing")
        return ", ".join(parts) or "none"


@dataclass
class _Upload:
    index: int
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class _Request:
    raw: web.Request
    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[_Upload]
    record: RequestRecord


Publish = Callable[[], Awaitable[None]]


@dataclass
class _Reply:
    status: int
    body: Any = None
    #: Run after the reply has been written: this is where observers are woken.
    publish: list[Publish] = field(default_factory=list)


@dataclass(frozen=True)
class _Route:
    method: str
    template: str
    handler: str
    auth: bool
    regex: re.Pattern[str]

    @property
    def key(self) -> str:
        return f"{self.method} {self.template}"


def _route(method: str, template: str, handler: str, *, auth: bool = True) -> _Route:
    pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
    return _Route(method, template, handler, auth, re.compile(f"^{pattern}$"))


#: Every route the fake knows, literal ones first.  Fault keys are "METHOD template".
ROUTES: Final[tuple[_Route, ...]] = (
    _route("GET", "/users/@me", "_get_me"),
    _route("POST", "/users/@me/channels", "_create_dm"),
    _route("GET", "/users/{user_id}", "_get_user"),
    _route("GET", "/oauth2/applications/@me", "_get_application"),
    _route("GET", "/applications/@me", "_get_application"),
    _route("GET", "/gateway", "_get_gateway", auth=False),
    _route("GET", "/gateway/bot", "_get_gateway_bot"),
    _route("GET", "/applications/{application_id}/commands", "_get_commands"),
    _route("PUT", "/applications/{application_id}/commands", "_put_commands"),
    _route("GET", "/applications/{application_id}/guilds/{guild_id}/commands", "_get_commands"),
    _route("PUT", "/applications/{application_id}/guilds/{guild_id}/commands", "_put_commands"),
    _route("POST", "/interactions/{interaction_id}/{token}/callback", "_callback", auth=False),
    _route("POST", "/webhooks/{application_id}/{token}", "_followup", auth=False),
    _route(
        "GET",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
        "_get_webhook_message",
        auth=False,
    ),
    _route(
        "PATCH",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
        "_edit_webhook_message",
        auth=False,
    ),
    _route(
        "DELETE",
        "/webhooks/{application_id}/{token}/messages/{message_id}",
        "_delete_webhook_message",
        auth=False,
    ),
    _route("GET", "/channels/{channel_id}", "_get_channel"),
    _route("PATCH", "/channels/{channel_id}", "_edit_channel"),
    _route("GET", "/channels/{channel_id}/messages", "_list_messages"),
    _route("POST", "/channels/{channel_id}/messages", "_create_message"),
    _route("GET", "/channels/{channel_id}/messages/{message_id}", "_get_message"),
    _route("PATCH", "/channels/{channel_id}/messages/{message_id}", "_edit_message"),
    _route("DELETE", "/channels/{channel_id}/messages/{message_id}", "_delete_message"),
    _route("POST", "/channels/{channel_id}/threads", "_create_thread"),
    _route(
        "POST", "/channels/{channel_id}/messages/{message_id}/threads", "_create_message_thread"
    ),
    _route("PUT", "/channels/{channel_id}/thread-members/{user_id}", "_add_thread_member"),
    _route("DELETE", "/channels/{channel_id}/thread-members/{user_id}", "_remove_thread_member"),
    _route("POST", "/channels/{channel_id}/typing", "_typing"),
    _route(
        "PUT",
        "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
        "_add_reaction",
    ),
    _route("GET", "/guilds/{guild_id}", "_get_guild"),
    _route("GET", "/guilds/{guild_id}/channels", "_get_guild_channels"),
    _route("GET", "/guilds/{guild_id}/members/{user_id}", "_get_member"),
    _route("GET", "/guilds/{guild_id}/threads/active", "_get_active_threads"),
)
ROUTE_KEYS: Final = frozenset(r.key for r in ROUTES)

CALLBACK: Final = "POST /interactions/{interaction_id}/{token}/callback"
FOLLOWUP: Final = "POST /webhooks/{application_id}/{token}"
EDIT_ORIGINAL: Final = "PATCH /webhooks/{application_id}/{token}/messages/{message_id}"
CREATE_MESSAGE: Final = "POST /channels/{channel_id}/messages"
EDIT_MESSAGE: Final = "PATCH /channels/{channel_id}/messages/{message_id}"


# --- validation (the checks Discord makes that a bot can fail) -----------------------------------


def _walk_components(components: Iterable[JSON]) -> Iterable[JSON]:
    for comp in components:
        yield comp
        if isinstance(comp.get("components"), list):
            yield from _walk_components(comp["components"])
        if isinstance(comp.get("component"), dict):
            yield from _walk_components([comp["component"]])
        if isinstance(comp.get("accessory"), dict):
            yield from _walk_components([comp["accessory"]])


def _check_len(value: Any, path: str, *, low: int, high: int) -> None:
    if not isinstance(value, str):
        raise form_error(path, "Must be a string.", "BASE_TYPE_REQUIRED")
    if not low <= len(value) <= high:
        raise form_error(
            path,
            f"Must be between {low} and {high} in length.",
            "BASE_TYPE_BAD_LENGTH",
        )


def _validate_button(comp: JSON, path: str) -> None:
    style = comp.get("style")
    if style not in (1, 2, 3, 4, 5, 6):
        raise form_error(f"{path}.style", "Value must be one of (1, 2, 3, 4, 5, 6).")
    if style == 5:
        if not comp.get("url") or "custom_id" in comp:
            raise form_error(
                path, "A link button needs a url and no custom_id.", "COMPONENT_LAYOUT"
            )
    elif style == 6:
        if not comp.get("sku_id"):
            raise form_error(f"{path}.sku_id", "A premium button needs a sku_id.")
    else:
        if "url" in comp:
            raise form_error(f"{path}.url", "Only link buttons may have a url.")
        _check_len(comp.get("custom_id"), f"{path}.custom_id", low=1, high=MAX_CUSTOM_ID)
    label = comp.get("label")
    if label is not None:
        _check_len(label, f"{path}.label", low=0, high=80)
    if not label and not comp.get("emoji") and style != 6:
        raise form_error(path, "A button needs a label or an emoji.", "COMPONENT_LAYOUT")


def _validate_select(comp: JSON, path: str) -> None:
    _check_len(comp.get("custom_id"), f"{path}.custom_id", low=1, high=MAX_CUSTOM_ID)
    if comp.get("placeholder") is not None:
        _check_len(comp["placeholder"], f"{path}.placeholder", low=0, high=150)
    if comp.get("type") == 3:
        options = comp.get("options")
        if not isinstance(options, list) or not 1 <= len(options) <= 25:
            raise form_error(f"{path}.options", "Must be between 1 and 25 in length.")
        for i, opt in enumerate(options):
            _check_len(opt.get("label"), f"{path}.options.{i}.label", low=1, high=100)
            _check_len(opt.get("value"), f"{path}.options.{i}.value", low=1, high=100)
    low, high = comp.get("min_values", 1), comp.get("max_values", 1)
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
        raise form_error(f"{path}.max_values", "min_values/max_values out of range.")


def validate_components(components: Any, *, v2: bool, path: str = "components") -> None:
    """Check a message's component tree the way Discord does (layout, lengths, unique ids)."""
    if not isinstance(components, list):
        raise form_error(path, "Must be an array.", "BASE_TYPE_BAD")
    if not v2:
        if len(components) > MAX_ACTION_ROWS:
            raise form_error(path, "Must be 5 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        for r, row in enumerate(components):
            rpath = f"{path}.{r}"
            if not isinstance(row, dict) or row.get("type") != 1:
                raise form_error(f"{rpath}.type", "Top-level components must be action rows.")
            children = row.get("components")
            if not isinstance(children, list) or not 1 <= len(children) <= MAX_ROW_BUTTONS:
                raise form_error(
                    f"{rpath}.components",
                    "Must be between 1 and 5 in length.",
                    "BASE_TYPE_BAD_LENGTH",
                )
            kinds = {c.get("type") for c in children}
            if kinds & {3, 5, 6, 7, 8} and len(children) != 1:
                raise form_error(
                    f"{rpath}.components",
                    "A select menu must be alone in its row.",
                    "COMPONENT_LAYOUT",
                )
            for c, comp in enumerate(children):
                cpath = f"{rpath}.components.{c}"
                ctype = comp.get("type")
                if ctype == 2:
                    _validate_button(comp, cpath)
                elif ctype in (3, 5, 6, 7, 8):
                    _validate_select(comp, cpath)
                else:
                    raise form_error(
                        f"{cpath}.type", f"Component type {ctype} is not allowed here."
                    )
    else:
        for comp in _walk_components(components):
            if comp.get("type") == 2:
                _validate_button(comp, path)
            elif "custom_id" in comp:
                _check_len(comp["custom_id"], f"{path}.custom_id", low=1, high=MAX_CUSTOM_ID)
        if sum(1 for _ in _walk_components(components)) > 40:
            raise form_error(path, "Must be 40 or fewer components.", "BASE_TYPE_MAX_LENGTH")
    seen: set[str] = set()
    for comp in _walk_components(components):
        cid = comp.get("custom_id")
        if cid is None:
            continue
        if cid in seen:
            raise form_error(
                path, f"custom_id {cid!r} is duplicated.", "COMPONENT_CUSTOM_ID_DUPLICATED"
            )
        seen.add(cid)


def validate_embeds(embeds: Any, path: str = "embeds") -> None:
    """Embed count and text limits, including the 6,000-character total."""
    if not isinstance(embeds, list):
        raise form_error(path, "Must be an array.")
    if len(embeds) > MAX_EMBEDS:
        raise form_error(path, "Must be 10 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    limits = {"title": 256, "description": 4096}
    for i, embed in enumerate(embeds):
        for key, high in limits.items():
            text = embed.get(key)
            if text is not None:
                _check_len(text, f"{path}.{i}.{key}", low=0, high=high)
                total += len(text)
        fields = embed.get("fields") or []
        if len(fields) > 25:
            raise form_error(f"{path}.{i}.fields", "Must be 25 or fewer in length.")
        for f, fld in enumerate(fields):
            _check_len(fld.get("name"), f"{path}.{i}.fields.{f}.name", low=1, high=256)
            _check_len(fld.get("value"), f"{path}.{i}.fields.{f}.value", low=1, high=1024)
            total += len(fld["name"]) + len(fld["value"])
        footer = (embed.get("footer") or {}).get("text")
        if footer is not None:
            _check_len(footer, f"{path}.{i}.footer.text", low=0, high=2048)
            total += len(footer)
        author = (embed.get("author") or {}).get("name")
        if author is not None:
            _check_len(author, f"{path}.{i}.author.name", low=0, high=256)
            total += len(author)
    if total > MAX_EMBED_TOTAL:
        raise form_error(path, "Embed size exceeds maximum size of 6000", "BASE_TYPE_MAX_LENGTH")


def validate_allowed_mentions(allowed: Any, path: str = "allowed_mentions") -> None:
    """Discord refuses ``parse: ["users"]`` together with an explicit ``users`` list (and roles)."""
    if allowed is None:
        return
    if not isinstance(allowed, dict):
        raise form_error(path, "Must be an object.")
    parse = allowed.get("parse", [])
    for kind in ("users", "roles"):
        if kind in parse and allowed.get(kind):
            raise form_error(
                f"{path}.parse",
                f'parse:["{kind}"] and {kind}: [ids] are mutually exclusive.',
                "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE",
            )
        if len(allowed.get(kind) or []) > 100:
            raise form_error(f"{path}.{kind}", "Must be 100 or fewer in length.")
    for kind in parse:
        if kind not in ("users", "roles", "everyone"):
            raise form_error(f"{path}.parse", f"Unknown mention type {kind!r}.")


def validate_choices(choices: Any, option_type: int | None) -> None:
    """Autocomplete results: at most 25, names 1-100 characters, values of the option's type."""
    path = "data.choices"
    if not isinstance(choices, list):
        raise form_error(path, "Must be an array.")
    if len(choices) > MAX_CHOICES:
        raise form_error(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, choice in enumerate(choices):
        _check_len(choice.get("name"), f"{path}.{i}.name", low=1, high=100)
        value = choice.get("value")
        if option_type == OptionType.STRING or option_type is None:
            if option_type is not None or isinstance(value, str):
                _check_len(value, f"{path}.{i}.value", low=0, high=100)
        elif option_type == OptionType.INTEGER:
            if not isinstance(value, int) or isinstance(value, bool):
                raise form_error(f"{path}.{i}.value", "Value is not int.", "NUMBER_TYPE_COERCE")
        elif option_type == OptionType.NUMBER and (
            not isinstance(value, int | float) or isinstance(value, bool)
        ):
            raise form_error(f"{path}.{i}.value", "Value is not a number.", "NUMBER_TYPE_COERCE")


def validate_modal(data: Any) -> None:
    """A modal needs a custom_id, a title of at most 45 characters and 1-5 components."""
    if not isinstance(data, dict):
        raise form_error("data", "Must be an object.")
    _check_len(data.get("custom_id"), "data.custom_id", low=1, high=MAX_CUSTOM_ID)
    _check_len(data.get("title"), "data.title", low=1, high=45)
    comps = data.get("components")
    if not isinstance(comps, list) or not 1 <= len(comps) <= 5:
        raise form_error("data.components", "Must be between 1 and 5 in length.")
    for comp in _walk_components(comps):
        if "custom_id" in comp:
            _check_len(comp["custom_id"], "data.components.custom_id", low=1, high=MAX_CUSTOM_ID)


def validate_commands(commands: Any) -> None:
    """What a bulk overwrite must satisfy: names, descriptions, option shapes and counts."""
    if not isinstance(commands, list) or not all(isinstance(c, dict) for c in commands):
        raise form_error("_root", "Must be an array of objects.")
    seen: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = cmd.get("type", 1)
        name = cmd.get("name")
        path = str(i)
        if ctype == 1:
            if not isinstance(name, str) or not _COMMAND_NAME.match(name) or name != name.lower():
                raise form_error(
                    f"{path}.name",
                    f"Command name {name!r} is invalid.",
                    "APPLICATION_COMMAND_INVALID_NAME",
                )
            _check_len(cmd.get("description"), f"{path}.description", low=1, high=100)
            _validate_options(cmd.get("options") or [], f"{path}.options", depth=0)
        else:
            _check_len(name, f"{path}.name", low=1, high=32)
        if (ctype, name) in seen:
            raise form_error(
                f"{path}.name",
                "Application command names must be unique",
                "APPLICATION_COMMANDS_DUPLICATE_NAME",
            )
        seen.add((ctype, name))
    if sum(1 for c in commands if c.get("type", 1) == 1) > 100:
        raise form_error("_root", "Must be 100 or fewer slash commands.")


def _validate_options(options: list[JSON], path: str, *, depth: int) -> None:
    if len(options) > 25:
        raise form_error(path, "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    names: set[str] = set()
    optional_seen = False
    for i, opt in enumerate(options):
        opath = f"{path}.{i}"
        name = opt.get("name")
        if not isinstance(name, str) or not _COMMAND_NAME.match(name) or name != name.lower():
            raise form_error(
                f"{opath}.name",
                f"Option name {name!r} is invalid.",
                "APPLICATION_COMMAND_INVALID_NAME",
            )
        if name in names:
            raise form_error(
                f"{opath}.name",
                "Option names must be unique.",
                "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS",
            )
        names.add(name)
        _check_len(opt.get("description"), f"{opath}.description", low=1, high=100)
        otype = opt.get("type")
        if otype in (OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP):
            if depth >= 2 or (otype == OptionType.SUB_COMMAND_GROUP and depth >= 1):
                raise form_error(f"{opath}.type", "Subcommands nest too deep.")
            _validate_options(opt.get("options") or [], f"{opath}.options", depth=depth + 1)
            continue
        if opt.get("required"):
            if optional_seen:
                raise form_error(
                    f"{opath}.required",
                    "Required options must be placed before non-required options",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                )
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > 25:
            raise form_error(f"{opath}.choices", "Must be 25 or fewer in length.")
        if choices and opt.get("autocomplete"):
            raise form_error(f"{opath}.autocomplete", "Autocomplete cannot be set with choices.")


def compute_mentions(
    content: str,
    allowed: JSON | None,
    *,
    replied_user_id: int | None,
) -> tuple[set[int], set[int], bool]:
    """Who a message really pings: (user ids, role ids, @everyone) after ``allowed_mentions``.

    With no ``allowed_mentions`` everything written is pinged, as on Discord.
    """
    users = {int(m) for m in _USER_MENTION.findall(content)}
    roles = {int(m) for m in _ROLE_MENTION.findall(content)}
    everyone = bool(_EVERYONE_MENTION.search(content))
    if allowed is None:
        pinged_users = set(users)
        if replied_user_id is not None:
            pinged_users.add(replied_user_id)
        return pinged_users, roles, everyone
    parse = allowed.get("parse", [])
    listed_users = {int(u) for u in allowed.get("users") or []}
    listed_roles = {int(r) for r in allowed.get("roles") or []}
    pinged_users = {u for u in users if "users" in parse or u in listed_users}
    pinged_roles = {r for r in roles if "roles" in parse or r in listed_roles}
    if replied_user_id is not None and allowed.get("replied_user"):
        pinged_users.add(replied_user_id)
    return pinged_users, pinged_roles, everyone and "everyone" in parse


# --- the gateway ---------------------------------------------------------------------------------


@dataclass(eq=False)
class _GatewayConnection:
    ws: web.WebSocketResponse
    request: web.Request
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    session: GatewaySession | None = None

    async def send_raw(self, frame: str) -> bool:
        if self.ws.closed:
            return False
        try:
            await self.ws.send_str(frame)
        except (ConnectionError, RuntimeError):
            return False
        return True


@dataclass(eq=False)
class GatewaySession:
    """A gateway session: sequence numbers and the events kept for RESUME."""

    session_id: str
    intents: int
    identify: JSON
    seq: int = 0
    sent: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=20_000))
    connection: _GatewayConnection | None = None
    resumable: bool = True
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    resumes: int = 0

    @property
    def connected(self) -> bool:
        return self.connection is not None and not self.connection.ws.closed


# --- the server ----------------------------------------------------------------------------------


Handler = Callable[[_Request], Awaitable[_Reply]]


class FakeDiscordServer:
    """The fake Discord: state, REST, gateway and CDN.  See the module docstring."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token.for-tests-only",
        bot_name: str = "Shogi Bot",
        application_name: str = "Shogi Bot",
        interaction_timeout: float = 3.0,
        followup_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41_250,
        attachment_size_limit: int = 10 * 1024 * 1024,
        require_registered_commands: bool = True,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.host = host
        #: Seconds Discord waits for the initial response (3 s); tests may shorten it.
        self.interaction_timeout = interaction_timeout
        #: How long an interaction token accepts follow-ups and edits (15 minutes).
        self.followup_lifetime = followup_lifetime
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.attachment_size_limit = attachment_size_limit
        #: Refuse (in the test) slash commands the bot never registered, as Discord's UI would.
        self.require_registered_commands = require_registered_commands
        self.snowflake = SnowflakeFactory()

        self.application_id = self.snowflake()
        self.application_name = application_name
        self.owner = FakeUser(self.snowflake(), "app-owner")
        self.bot_user = FakeUser(
            self.application_id, bot_name.lower().replace(" ", "-"), bot_name, bot=True
        )

        self.users: dict[int, FakeUser] = {
            self.bot_user.id: self.bot_user,
            self.owner.id: self.owner,
        }
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        self.commands: dict[int | None, list[FakeCommand]] = {}
        self.command_puts: list[RequestRecord] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}

        self.requests: list[RequestRecord] = []
        #: Requests to routes the fake does not know (always a test failure).
        self.unknown_requests: list[RequestRecord] = []
        #: 4xx answers from validation (bad payloads, late or second responses...).
        self.rejections: list[RequestRecord] = []
        #: Rejection codes a test expects; the fixture ignores them when it checks.
        self.expected_rejection_codes: set[int] = set()
        self.faults: list[Fault] = []
        #: Exceptions inside the fake itself (a bug here, not in the bot).
        self.internal_errors: list[str] = []

        self.sessions: dict[str, GatewaySession] = {}
        self.session: GatewaySession | None = None
        self.identify_count = 0
        self._connections: set[_GatewayConnection] = set()

        self._in_flight = 0
        self.last_activity = 0.0
        self.version = 0
        self._cond: asyncio.Condition | None = None
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # -- lifecycle ------------------------------------------------------------------------------

    async def start(self) -> None:
        """Bind 127.0.0.1 on an ephemeral port and start serving."""
        self._cond = asyncio.Condition()
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._handle_api)
        app.router.add_get("/gateway", self._handle_gateway)
        app.router.add_get("/gateway/", self._handle_gateway)
        app.router.add_get("/cdn/{tail:.*}", self._handle_cdn)
        app.router.add_route("*", "/{tail:.*}", self._handle_unknown)
        self._runner = web.AppRunner(
            app, handle_signals=False, access_log=None, shutdown_timeout=1.0
        )
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((self.host, 0))
        self._port = int(sock.getsockname()[1])
        site = web.SockSite(self._runner, sock)
        await site.start()

    async def stop(self) -> None:
        """Close every gateway connection and the server."""
        for conn in list(self._connections):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("the fake Discord has not been started")
        return self._port

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """What ``discord.http.Route.BASE`` must be."""
        return self.url + API_PREFIX

    @property
    def gateway_url(self) -> str:
        """What ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` must be."""
        return f"ws://{self.host}:{self.port}/gateway/"

    @property
    def cdn_base(self) -> str:
        """What ``discord.asset.Asset.BASE`` must be."""
        return self.url + "/cdn"

    @property
    def in_flight(self) -> int:
        return self._in_flight

    async def notify(self) -> None:
        """Wake everything waiting on :attr:`condition`."""
        self.version += 1
        if self._cond is None:
            return
        async with self._cond:
            self._cond.notify_all()

    @property
    def condition(self) -> asyncio.Condition:
        if self._cond is None:
            raise RuntimeError("the fake Discord has not been started")
        return self._cond

    # -- faults ---------------------------------------------------------------------------------

    def inject_fault(
        self,
        route: str,
        *,
        status: int | None = None,
        retry_after: float = 0.05,
        delay: float = 0.0,
        drop: bool = False,
        after_processing: bool = False,
        times: int = 1,
    ) -> Fault:
        """Misbehave on the next ``times`` calls of ``route`` (a key like :data:`CALLBACK`)."""
        if route not in ROUTE_KEYS:
            raise ValueError(f"unknown route {route!r}; known: {sorted(ROUTE_KEYS)}")
        if status is None and not delay and not drop:
            raise ValueError("a fault needs a status, a delay or drop=True")
        fault = Fault(route, status, retry_after, delay, drop, after_processing, times)
        self.faults.append(fault)
        return fault

    def _take_fault(self, route: _Route | None) -> Fault | None:
        if route is None:
            return None
        for fault in self.faults:
            if fault.route == route.key and fault.hits < fault.times:
                fault.hits += 1
                if fault.hits >= fault.times:
                    self.faults.remove(fault)
                return fault
        return None

    # -- model building (used by the harness) ---------------------------------------------------

    def new_user(
        self, username: str, *, bot: bool = False, global_name: str | None = None
    ) -> FakeUser:
        user = FakeUser(self.snowflake(), username, global_name or username, bot=bot)
        self.users[user.id] = user
        return user

    def new_guild(self, name: str, *, owner: FakeUser | None = None) -> FakeGuild:
        """A guild with @everyone, the bot as a member with its managed role, and no channels."""
        guild = FakeGuild(self.snowflake(), name, (owner or self.owner).id)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", Perm.EVERYONE_DEFAULT)
        bot_role = FakeRole(
            self.snowflake(),
            guild.id,
            self.bot_user.global_name or "bot",
            Perm.BOT_DEFAULT,
            1,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = FakeMember(guild.id, self.bot_user, [bot_role.id])
        self.guilds[guild.id] = guild
        return guild

    def new_channel(
        self, guild: FakeGuild, name: str, *, type: int = ChannelType.TEXT
    ) -> FakeChannel:
        channel = FakeChannel(
            self.snowflake(), type, name, guild.id, position=len(guild.channel_ids)
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def new_thread(
        self,
        parent: FakeChannel,
        name: str,
        *,
        owner: FakeUser,
        type: int = ChannelType.PUBLIC_THREAD,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
    ) -> FakeChannel:
        guild = self.guilds[parent.guild_id or 0]
        thread = FakeChannel(
            thread_id or self.snowflake(),
            type,
            name,
            guild.id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            thread_members={owner.id},
        )
        self.channels[thread.id] = thread
        guild.channel_ids.append(thread.id)
        return thread

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The DM channel between the bot and ``user`` (made on first use, like Discord)."""
        for channel in self.channels.values():
            if channel.is_dm and channel.recipients and channel.recipients[0].id == user.id:
                return channel
        channel = FakeChannel(self.snowflake(), ChannelType.DM, "", recipients=[user])
        self.channels[channel.id] = channel
        return channel

    def member(self, guild_id: int | None, user_id: int) -> FakeMember | None:
        guild = self.guilds.get(guild_id or 0)
        return None if guild is None else guild.members.get(user_id)

    def permissions(self, guild_id: int | None, user_id: int) -> int:
        """Guild-level permissions of a member (roles only; no channel overwrites)."""
        guild = self.guilds.get(guild_id or 0)
        if guild is None:
            return Perm.EVERYONE_DEFAULT
        if user_id == guild.owner_id:
            return Perm.ALL
        member = guild.members.get(user_id)
        if member is None:
            return 0
        perms = guild.everyone.permissions
        for role_id in member.roles:
            role = guild.roles.get(role_id)
            if role is not None:
                perms |= role.permissions
        return Perm.ALL if perms & Perm.ADMINISTRATOR else perms

    # -- payloads -------------------------------------------------------------------------------

    def guild_create_payload(self, guild: FakeGuild, intents: int) -> JSON:
        """GUILD_CREATE: all members when the bot has the members intent, else only itself.

        ``member_count`` equals the members sent, so discord.py never asks for chunks.
        """
        if intents & Intent.GUILD_MEMBERS:
            members = list(guild.members.values())
        else:
            members = [m for m in guild.members.values() if m.user.id == self.bot_user.id]
        channels = [self.channels[c] for c in guild.channel_ids]
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(guild.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "application_id": None,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": guild.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": _iso(time.time()),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread and not c.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def application_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.application_name,
            "icon": None,
            "description": "",
            "rpc_origins": [],
            "bot_public": True,
            "bot_require_code_grant": False,
            "bot": self.bot_user.payload(),
            "owner": self.owner.payload(),
            "summary": "",
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "tags": [],
        }

    def message_payload(self, message: FakeMessage) -> JSON:
        thread = self.channels.get(message.thread_id) if message.thread_id else None
        return message.payload(thread=thread)

    # -- gateway dispatch -----------------------------------------------------------------------

    def _wants(self, session: GatewaySession, event: str, guild_id: int | None) -> bool:
        intents = session.intents
        if event in ("MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"):
            return bool(intents & (Intent.GUILD_MESSAGES if guild_id else Intent.DIRECT_MESSAGES))
        if event.startswith("GUILD_MEMBER"):
            return bool(intents & Intent.GUILD_MEMBERS)
        if event.startswith(("THREAD_", "CHANNEL_", "GUILD_")):
            return bool(intents & Intent.GUILDS)
        return True

    async def dispatch(self, event: str, data: JSON, *, guild_id: int | None = None) -> bool:
        """Send a DISPATCH to the current session (buffered for RESUME if it is disconnected).

        Returns False when no bot has identified or its intents exclude the event.
        """
        session = self.session
        if session is None or not self._wants(session, event, guild_id):
            return False
        async with session.lock:
            session.seq += 1
            frame = json.dumps({"op": 0, "t": event, "s": session.seq, "d": data})
            session.sent.append((session.seq, frame))
            conn = session.connection
            if conn is not None:
                async with conn.lock:
                    await conn.send_raw(frame)
        return True

    async def drop_gateway(
        self, *, code: int = 4000, resumable: bool = True, abort: bool = False
    ) -> None:
        """Cut the bot's gateway connection (fault tests).

        With ``resumable`` the bot's RESUME succeeds and missed events are replayed; without it
        the RESUME gets INVALID_SESSION and the bot must IDENTIFY again (discord.py then waits
        5 s before identifying, as it does against Discord).  ``abort`` drops the TCP
        connection without a close frame.
        """
        session = self.session
        if session is None or session.connection is None:
            raise NoBotConnected("no gateway connection to drop")
        session.resumable = resumable
        conn = session.connection
        session.connection = None
        if abort and conn.request.transport is not None:
            conn.request.transport.abort()
        else:
            await conn.ws.close(code=code)
        await self.notify()

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT, as Discord does before moving a session."""
        session = self.session
        if session is None or session.connection is None:
            raise NoBotConnected("no gateway connection")
        async with session.connection.lock:
            await session.connection.send_raw(json.dumps({"op": 7, "d": None}))

    async def _handle_gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = _GatewayConnection(ws, request)
        self._connections.add(conn)
        try:
            async with conn.lock:
                await conn.send_raw(
                    json.dumps({"op": 10, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
                )
            async for msg in ws:
                if msg.type is not WSMsgType.TEXT:
                    continue
                payload = json.loads(msg.data)
                await self._on_gateway_message(conn, payload)
        finally:
            self._connections.discard(conn)
            session = conn.session
            if session is not None and session.connection is conn:
                session.connection = None
            await self.notify()
        return ws

    async def _on_gateway_message(self, conn: _GatewayConnection, payload: JSON) -> None:
        op = payload.get("op")
        raw = payload.get("d")
        data: JSON = raw if isinstance(raw, dict) else {}
        if op == 1:
            async with conn.lock:
                await conn.send_raw(json.dumps({"op": 11}))
        elif op == 2:
            await self._identify(conn, data)
        elif op == 6:
            await self._resume(conn, data)
        elif op == 8:
            await self._request_members(conn, data)
        elif op in (3, 4):
            return
        else:
            await conn.ws.close(code=4001, message=b"Unknown opcode")

    async def _identify(self, conn: _GatewayConnection, data: JSON) -> None:
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        intents = int(data.get("intents", 0))
        session = GatewaySession(secrets.token_hex(16), intents, data)
        self.sessions[session.session_id] = session
        conn.session = session
        session.connection = conn
        self.session = session
        self.identify_count += 1
        guild_ids = list(self.guilds)
        ready = {
            "v": 10,
            "user": self.bot_user.payload(),
            "user_settings": {},
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "relationships": [],
            "private_channels": [],
            "presences": [],
            "session_id": session.session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "_trace": ["fake-discord"],
        }
        if "shard" in data:
            ready["shard"] = data["shard"]
        await self.dispatch("READY", ready)
        for guild_id in guild_ids:
            await self.dispatch(
                "GUILD_CREATE", self.guild_create_payload(self.guilds[guild_id], intents)
            )
        await self.notify()

    async def _resume(self, conn: _GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        if data.get("token") != self.token:
            await conn.ws.close(code=4004, message=b"Authentication failed.")
            return
        if session is None or not session.resumable:
            async with conn.lock:
                await conn.send_raw(json.dumps({"op": 9, "d": False}))
            return
        last_seq = int(data.get("seq") or 0)
        async with session.lock:
            conn.session = session
            session.connection = conn
            session.resumes += 1
            self.session = session
            async with conn.lock:
                for seq, frame in list(session.sent):
                    if seq > last_seq:
                        await conn.send_raw(frame)
                session.seq += 1
                frame = json.dumps(
                    {"op": 0, "t": "RESUMED", "s": session.seq, "d": {"_trace": ["fake-discord"]}}
                )
                session.sent.append((session.seq, frame))
                await conn.send_raw(frame)
        await self.notify()

    async def _request_members(self, conn: _GatewayConnection, data: JSON) -> None:
        guild = self.guilds.get(int(data.get("guild_id", 0)))
        members: list[FakeMember] = []
        if guild is not None:
            user_ids = {int(u) for u in data.get("user_ids") or []}
            query = str(data.get("query") or "").lower()
            for member in guild.members.values():
                if user_ids:
                    if member.user.id in user_ids:
                        members.append(member)
                elif member.user.username.lower().startswith(query):
                    members.append(member)
            limit = int(data.get("limit") or 0)
            if limit:
                members = members[:limit]
        chunk: JSON = {
            "guild_id": str(data.get("guild_id")),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        await self.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    # -- HTTP plumbing --------------------------------------------------------------------------

    async def _handle_unknown(self, request: web.Request) -> web.StreamResponse:
        record = RequestRecord(
            request.method, request.path, None, asyncio.get_running_loop().time()
        )
        self.requests.append(record)
        self.unknown_requests.append(record)
        return await self._send(request, record, 404, {"message": "404: Not Found", "code": 0}, [])

    async def _handle_cdn(self, request: web.Request) -> web.StreamResponse:
        parts = request.match_info["tail"].split("/")
        if len(parts) == 4 and parts[0] == "attachments" and parts[2].isdigit():
            attachment = self.attachments.get(int(parts[2]))
            if attachment is not None:
                return web.Response(
                    body=attachment.data, headers={"Content-Type": attachment.content_type}
                )
        record = RequestRecord(
            "GET", request.path, None, asyncio.get_running_loop().time(), status=404
        )
        self.requests.append(record)
        self.unknown_requests.append(record)
        return web.Response(status=404, body=b"not found", headers={"Content-Type": "text/plain"})

    def _match(self, method: str, path: str) -> tuple[_Route | None, dict[str, str]]:
        for route in ROUTES:
            if route.method != method:
                continue
            m = route.regex.match(path)
            if m:
                return route, m.groupdict()
        return None, {}

    async def _read_body(self, request: web.Request) -> tuple[Any, list[_Upload]]:
        if not request.can_read_body:
            return None, []
        ctype = request.content_type
        if ctype.startswith("multipart/"):
            payload: Any = None
            uploads: list[_Upload] = []
            reader = await request.multipart()
            async for part in reader:
                if not isinstance(part, BodyPartReader):
                    continue
                name = part.name or ""
                raw = await part.read(decode=False)
                if name == "payload_json":
                    payload = json.loads(bytes(raw).decode("utf-8"))
                    continue
                match = _FILES_FIELD.match(name)
                if match:
                    uploads.append(
                        _Upload(
                            int(match.group(1)),
                            part.filename or "file",
                            bytes(raw),
                            part.headers.get("Content-Type"),
                        )
                    )
            return payload, uploads
        raw_body = await request.read()
        if not raw_body:
            return None, []
        try:
            return json.loads(raw_body), []
        except ValueError as exc:
            raise DiscordHTTPError(400, 50109, "The request body contains invalid JSON.") from exc

    async def _handle_api(self, request: web.Request) -> web.StreamResponse:
        """Route one REST call; write the reply; only then publish and wake observers."""
        loop = asyncio.get_running_loop()
        path = "/" + request.match_info["tail"]
        route, params = self._match(request.method, path)
        record = RequestRecord(
            request.method, API_PREFIX + path, route.key if route else None, loop.time()
        )
        self.requests.append(record)
        self._in_flight += 1
        self.last_activity = loop.time()
        try:
            return await self._serve(request, record, route, params)
        finally:
            self._in_flight -= 1
            self.last_activity = loop.time()
            record.finished = loop.time()
            await self.notify()

    async def _serve(
        self,
        request: web.Request,
        record: RequestRecord,
        route: _Route | None,
        params: dict[str, str],
    ) -> web.StreamResponse:
        if route is None:
            self.unknown_requests.append(record)
            return await self._send(
                request, record, 404, {"message": "404: Not Found", "code": 0}, []
            )
        fault = self._take_fault(route)
        if fault is not None:
            record.fault = fault.describe()
            if fault.delay:
                await asyncio.sleep(fault.delay)
            if not fault.after_processing:
                if fault.drop:
                    return self._drop(request, record)
                if fault.status is not None:
                    return await self._send_fault(request, record, fault)
        if route.auth and request.headers.get("Authorization") != f"Bot {self.token}":
            return await self._send(
                request, record, 401, {"message": "401: Unauthorized", "code": 0}, []
            )
        publish: list[Publish] = []
        try:
            body, uploads = await self._read_body(request)
            record.json = body
            record.files = [u.filename for u in uploads]
            handler: Handler = getattr(self, route.handler)
            reply = await handler(
                _Request(request, params, dict(request.query), body, uploads, record)
            )
            status, payload, publish = reply.status, reply.body, reply.publish
        except DiscordHTTPError as exc:
            status, payload = exc.status, exc.body()
            record.code, record.message = exc.code, exc.message
            if 400 <= exc.status < 500:
                self.rejections.append(record)
                interaction = self.interactions.get(record.interaction_id or 0)
                if interaction is not None:
                    interaction.rejections.append(record)
        except Exception as exc:  # a bug in the fake: answer 4xx so discord.py does not retry
            _log.exception("fake Discord failed on %s", record)
            self.internal_errors.append(f"{record}: {exc!r}")
            status, payload = 400, {"message": f"fake Discord internal error: {exc!r}", "code": 0}
            record.message = payload["message"]
        if fault is not None and fault.after_processing:
            for action in publish:
                await action()
            if fault.drop:
                return self._drop(request, record)
            return await self._send_fault(request, record, fault)
        return await self._send(request, record, status, payload, publish)

    def _drop(self, request: web.Request, record: RequestRecord) -> web.StreamResponse:
        record.status = 0
        if request.transport is not None:
            request.transport.abort()
        return web.Response(status=500)

    async def _send_fault(
        self, request: web.Request, record: RequestRecord, fault: Fault
    ) -> web.StreamResponse:
        assert fault.status is not None
        if fault.status == 429:
            body: JSON = {
                "message": "You are being rate limited.",
                "retry_after": fault.retry_after,
                "global": False,
            }
            headers = {
                "Via": "1.1 google",
                "Retry-After": f"{fault.retry_after:.3f}",
                "X-RateLimit-Scope": "user",
            }
            return await self._send(request, record, 429, body, [], headers=headers)
        return await self._send(
            request, record, fault.status, {"message": "Internal Server Error", "code": 0}, []
        )

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
        if status == 204 or payload is None:
            response = web.Response(
                status=204 if payload is None and status < 300 else status, headers=all_headers
            )
        else:
            all_headers["Content-Type"] = "application/json"
            response = web.Response(
                status=status, body=json.dumps(payload).encode(), headers=all_headers
            )
        try:
            await response.prepare(request)
            await response.write_eof()
        except (ConnectionError, RuntimeError):
            _log.debug("client went away before the reply to %s was written", record)
        for action in publish:
            await action()
        return response

    # -- lookups that answer with Discord's errors ----------------------------------------------

    def _channel(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_CHANNEL, "Unknown Channel")
        return channel

    def _guild(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_GUILD, "Unknown Guild")
        return guild

    def _channel_message(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        message = self.messages.get(int(message_id)) if message_id.isdigit() else None
        if (
            message is None
            or message.deleted
            or message.ephemeral
            or message.channel_id != channel.id
        ):
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def _require(self, channel: FakeChannel, perm: int) -> None:
        if channel.is_dm:
            return
        if not self.permissions(channel.guild_id, self.bot_user.id) & perm:
            raise DiscordHTTPError(403, ErrorCode.MISSING_PERMISSIONS, "Missing Permissions")

    # -- messages: build, validate, store ---------------------------------------------------------

    def _attachment_from_upload(
        self, upload: _Upload, channel_id: int, entry: JSON | None, *, ephemeral: bool
    ) -> FakeAttachment:
        if len(upload.data) > self.attachment_size_limit:
            raise DiscordHTTPError(413, ErrorCode.REQUEST_TOO_LARGE, "Request entity too large")
        filename = str((entry or {}).get("filename") or upload.filename)
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        att_id = self.snowflake()
        url = f"{self.cdn_base}/attachments/{channel_id}/{att_id}/{quote(filename)}"
        attachment = FakeAttachment(
            att_id,
            filename,
            upload.data,
            content_type,
            url,
            (entry or {}).get("description"),
            ephemeral,
        )
        self.attachments[att_id] = attachment
        return attachment

    def _resolve_attachments(
        self,
        payload: JSON,
        uploads: list[_Upload],
        channel_id: int,
        existing: list[FakeAttachment],
        *,
        ephemeral: bool,
    ) -> list[FakeAttachment] | None:
        """New attachment list, or None to keep the current one (an edit without files)."""
        if len(uploads) > MAX_FILES:
            raise form_error("files", "Must be 10 or fewer in length.")
        by_index = {u.index: u for u in uploads}
        entries = payload.get("attachments")
        if entries is None:
            if not uploads:
                return None
            return existing + [
                self._attachment_from_upload(u, channel_id, None, ephemeral=ephemeral)
                for u in uploads
            ]
        if not isinstance(entries, list):
            raise form_error("attachments", "Must be an array.")
        result: list[FakeAttachment] = []
        used: set[int] = set()
        existing_by_id = {a.id: a for a in existing}
        for i, entry in enumerate(entries):
            raw_id = entry.get("id")
            try:
                att_id = int(raw_id)
            except (TypeError, ValueError):
                raise form_error(
                    f"attachments.{i}.id", "Must be a snowflake or a file index."
                ) from None
            if att_id in by_index and att_id not in used:
                used.add(att_id)
                result.append(
                    self._attachment_from_upload(
                        by_index[att_id], channel_id, entry, ephemeral=ephemeral
                    )
                )
            elif att_id in existing_by_id:
                result.append(existing_by_id[att_id])
            else:
                raise form_error(
                    f"attachments.{i}.id",
                    f"Unknown attachment {att_id} (no files[{att_id}] part).",
                    "ATTACHMENT_NOT_FOUND",
                )
        for upload in uploads:
            if upload.index not in used:
                result.append(
                    self._attachment_from_upload(upload, channel_id, None, ephemeral=ephemeral)
                )
        return result

    def _validate_message(self, payload: JSON, *, allowed_flags: int, path: str = "") -> None:
        def p(name: str) -> str:
            return f"{path}{name}"

        content = payload.get("content")
        if content is not None:
            if not isinstance(content, str):
                raise form_error(p("content"), "Must be a string.")
            if len(content) > MAX_CONTENT:
                raise form_error(
                    p("content"), "Must be 2000 or fewer in length.", "BASE_TYPE_MAX_LENGTH"
                )
        flags = int(payload.get("flags") or 0)
        if flags & ~allowed_flags:
            raise form_error(
                p("flags"),
                f"Flags {flags & ~allowed_flags} cannot be set here.",
                "MESSAGE_INVALID_FLAGS",
            )
        v2 = bool(flags & MessageFlag.IS_COMPONENTS_V2)
        if v2 and (content or payload.get("embeds")):
            raise form_error(
                p("content"),
                "content and embeds cannot be used with IS_COMPONENTS_V2.",
                "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
            )
        if "embeds" in payload and payload["embeds"] is not None:
            validate_embeds(payload["embeds"], p("embeds"))
        if "components" in payload and payload["components"] is not None:
            validate_components(payload["components"], v2=v2, path=p("components"))
        validate_allowed_mentions(payload.get("allowed_mentions"), p("allowed_mentions"))

    def _apply_mentions(self, message: FakeMessage) -> None:
        replied: int | None = None
        ref = message.message_reference
        if ref and ref.get("message_id"):
            target = self.messages.get(int(ref["message_id"]))
            if target is not None and target.author.id != self.bot_user.id:
                replied = target.author.id
        users, roles, everyone = compute_mentions(
            message.content, message.allowed_mentions, replied_user_id=replied
        )
        message.mentions = [self.users[u] for u in sorted(users) if u in self.users]
        message.mention_role_ids = sorted(roles)
        message.mention_everyone = everyone

    def _new_message(
        self,
        channel: FakeChannel,
        payload: JSON,
        uploads: list[_Upload],
        *,
        source: str,
        allowed_flags: int,
        interaction: FakeInteraction | None = None,
        extra_flags: int = 0,
        path: str = "",
    ) -> FakeMessage:
        """Validate and build (not store) a message from a bot payload."""
        self._validate_message(payload, allowed_flags=allowed_flags, path=path)
        flags = int(payload.get("flags") or 0) | extra_flags
        attachments = (
            self._resolve_attachments(
                payload, uploads, channel.id, [], ephemeral=bool(flags & MessageFlag.EPHEMERAL)
            )
            or []
        )
        content = payload.get("content") or ""
        if not (
            content.strip()
            or payload.get("embeds")
            or attachments
            or payload.get("components")
            or payload.get("sticker_ids")
            or payload.get("poll")
        ) and not (flags & MessageFlag.LOADING):
            raise DiscordHTTPError(400, ErrorCode.EMPTY_MESSAGE, "Cannot send an empty message")
        message = FakeMessage(
            self.snowflake(),
            channel.id,
            channel.guild_id,
            self.bot_user,
            content=content,
            embeds=list(payload.get("embeds") or []),
            components=list(payload.get("components") or []),
            attachments=attachments,
            flags=flags,
            tts=bool(payload.get("tts")),
            allowed_mentions=payload.get("allowed_mentions"),
            message_reference=payload.get("message_reference"),
            source=source,
            interaction_id=None if interaction is None else interaction.id,
            webhook_id=None if interaction is None else self.application_id,
            nonce=None if payload.get("nonce") is None else str(payload["nonce"]),
            type=_message_type(payload, interaction),
        )
        self._apply_mentions(message)
        return message

    def _store(self, message: FakeMessage) -> None:
        self.messages[message.id] = message
        channel = self.channels.get(message.channel_id)
        if channel is not None and not message.ephemeral:
            channel.last_message_id = message.id
            if channel.is_thread:
                channel.message_count += 1
                channel.total_message_sent += 1

    def _apply_edit(
        self,
        message: FakeMessage,
        payload: JSON,
        uploads: list[_Upload],
        *,
        allowed_flags: int,
        path: str = "",
    ) -> None:
        """Apply a PATCH (channel message, webhook message or UPDATE_MESSAGE callback)."""
        self._validate_message(
            payload,
            allowed_flags=allowed_flags | MessageFlag.EPHEMERAL | MessageFlag.LOADING,
            path=path,
        )
        attachments = self._resolve_attachments(
            payload, uploads, message.channel_id, message.attachments, ephemeral=message.ephemeral
        )
        message.history.append(message.snapshot())
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = list(payload["embeds"] or [])
        if "components" in payload:
            message.components = list(payload["components"] or [])
        if attachments is not None:
            message.attachments = attachments
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        if "flags" in payload and payload["flags"] is not None:
            keep = message.flags & (MessageFlag.EPHEMERAL | MessageFlag.IS_COMPONENTS_V2)
            message.flags = keep | (
                int(payload["flags"]) & (MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2)
            )
        was_loading = message.loading
        message.flags &= ~MessageFlag.LOADING
        if was_loading and not (
            message.content.strip() or message.embeds or message.attachments or message.components
        ):
            raise DiscordHTTPError(400, ErrorCode.EMPTY_MESSAGE, "Cannot send an empty message")
        message.edited_at = None if was_loading else time.time()
        self._apply_mentions(message)

    def _publish_message(self, message: FakeMessage, event: str = "MESSAGE_CREATE") -> Publish:
        """After the reply: mark visible and (for channel-visible messages) dispatch the event."""

        async def action() -> None:
            message.published = True
            if message.ephemeral or message.loading:
                return
            data = self.message_payload(message)
            if event == "MESSAGE_DELETE":
                data = {"id": str(message.id), "channel_id": str(message.channel_id)}
                if message.guild_id:
                    data["guild_id"] = str(message.guild_id)
            await self.dispatch(event, data, guild_id=message.guild_id)

        return action

    # -- REST handlers: identity ----------------------------------------------------------------

    async def _get_me(self, req: _Request) -> _Reply:
        return _Reply(200, self.bot_user.payload())

    async def _get_user(self, req: _Request) -> _Reply:
        user = (
            self.users.get(int(req.params["user_id"])) if req.params["user_id"].isdigit() else None
        )
        if user is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_USER, "Unknown User")
        return _Reply(200, user.payload())

    async def _get_application(self, req: _Request) -> _Reply:
        return _Reply(200, self.application_payload())

    async def _get_gateway(self, req: _Request) -> _Reply:
        return _Reply(200, {"url": self.gateway_url.rstrip("/")})

    async def _get_gateway_bot(self, req: _Request) -> _Reply:
        return _Reply(
            200,
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": 1,
                "session_start_limit": {
                    "total": 1000,
                    "remaining": 1000,
                    "reset_after": 0,
                    "max_concurrency": 1,
                },
            },
        )

    async def _create_dm(self, req: _Request) -> _Reply:
        body = req.json or {}
        user = self.users.get(int(body.get("recipient_id", 0)))
        if user is None:
            raise form_error("recipient_id", "Unknown user.")
        return _Reply(200, self.dm_channel(user).payload())

    # -- REST handlers: commands ----------------------------------------------------------------

    def _check_app(self, req: _Request) -> None:
        if req.params.get("application_id") != str(self.application_id):
            raise DiscordHTTPError(
                403, ErrorCode.UNAUTHORIZED, "Unauthorized: not your application"
            )

    async def _get_commands(self, req: _Request) -> _Reply:
        self._check_app(req)
        guild_id = int(self._guild(req.params["guild_id"]).id) if "guild_id" in req.params else None
        return _Reply(200, [c.payload() for c in self.commands.get(guild_id, [])])

    async def _put_commands(self, req: _Request) -> _Reply:
        """Bulk overwrite: ids are kept for commands that keep their name and type, like Discord."""
        self._check_app(req)
        guild_id = self._guild(req.params["guild_id"]).id if "guild_id" in req.params else None
        validate_commands(req.json)
        old = {(c.type, c.name): c for c in self.commands.get(guild_id, [])}
        new: list[FakeCommand] = []
        for data in req.json:
            key = (int(data.get("type", 1)), str(data["name"]))
            previous = old.get(key)
            new.append(
                FakeCommand(
                    previous.id if previous else self.snowflake(),
                    self.application_id,
                    guild_id,
                    dict(data),
                    self.snowflake(),
                )
            )
        self.commands[guild_id] = new
        self.command_puts.append(req.record)
        return _Reply(200, [c.payload() for c in new])

    def find_command(self, name: str, guild_id: int | None, *, type: int = 1) -> FakeCommand | None:
        """A registered command visible in ``guild_id``: guild commands first, then global ones."""
        for scope in (guild_id, None) if guild_id else (None,):
            for cmd in self.commands.get(scope, []):
                if cmd.name == name and cmd.type == type:
                    return cmd
        return None

    # -- REST handlers: interactions ------------------------------------------------------------

    def _interaction_for_token(self, req: _Request) -> FakeInteraction:
        if req.params["application_id"] != str(self.application_id):
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        interaction = self._interactions_by_token.get(req.params["token"])
        if interaction is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        req.record.interaction_id = interaction.id
        interaction.last_activity = asyncio.get_running_loop().time()
        if asyncio.get_running_loop().time() - interaction.created > self.followup_lifetime:
            raise DiscordHTTPError(401, ErrorCode.INVALID_WEBHOOK_TOKEN, "Invalid Webhook Token")
        if not interaction.acknowledged:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        return interaction

    async def _callback(self, req: _Request) -> _Reply:
        """The initial response: once, in time, of a type that fits the interaction."""
        loop = asyncio.get_running_loop()
        raw_id = req.params["interaction_id"]
        interaction = self.interactions.get(int(raw_id)) if raw_id.isdigit() else None
        if interaction is None or interaction.token != req.params["token"]:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        req.record.interaction_id = interaction.id
        interaction.last_activity = loop.time()
        if interaction.acknowledged:
            raise DiscordHTTPError(
                400, ErrorCode.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if loop.time() - interaction.created > self.interaction_timeout:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        body = req.json
        if not isinstance(body, dict) or not isinstance(body.get("type"), int):
            raise form_error("type", "This field is required", "BASE_TYPE_REQUIRED")
        rtype = int(body["type"])
        if rtype not in _ALLOWED_RESPONSES.get(interaction.type, frozenset()):
            raise form_error(
                "type",
                f"Response type {rtype} is not valid for interaction type {interaction.type}.",
                "INTERACTION_RESPONSE_TYPE_INVALID",
            )
        data = body.get("data") or {}
        if not isinstance(data, dict):
            raise form_error("data", "Must be an object.")
        channel = self.channels[interaction.channel_id]
        message: FakeMessage | None = None
        event = "MESSAGE_CREATE"
        allowed = (
            MessageFlag.EPHEMERAL
            | MessageFlag.SUPPRESS_EMBEDS
            | MessageFlag.SUPPRESS_NOTIFICATIONS
            | MessageFlag.IS_COMPONENTS_V2
        )
        if rtype == ResponseType.CHANNEL_MESSAGE:
            message = self._new_message(
                channel,
                data,
                req.files,
                source="response",
                allowed_flags=allowed,
                interaction=interaction,
                path="data.",
            )
            self._store(message)
        elif rtype == ResponseType.DEFERRED_CHANNEL_MESSAGE:
            flags = int(data.get("flags") or 0) & MessageFlag.EPHEMERAL
            message = FakeMessage(
                self.snowflake(),
                channel.id,
                channel.guild_id,
                self.bot_user,
                flags=flags | MessageFlag.LOADING,
                source="response",
                interaction_id=interaction.id,
                webhook_id=self.application_id,
                type=_message_type({}, interaction),
            )
            self._store(message)
        elif rtype in (ResponseType.DEFERRED_UPDATE_MESSAGE, ResponseType.UPDATE_MESSAGE):
            message = self.messages.get(interaction.message_id or 0)
            if message is None or message.deleted:
                raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
            if rtype == ResponseType.UPDATE_MESSAGE:
                self._apply_edit(message, data, req.files, allowed_flags=allowed, path="data.")
                event = "MESSAGE_UPDATE"
            else:
                message = None
        elif rtype == ResponseType.AUTOCOMPLETE_RESULT:
            validate_choices(data.get("choices"), self._focused_option_type(interaction))
        elif rtype == ResponseType.MODAL:
            validate_modal(data)
        interaction.acknowledged = True
        target = message or self.messages.get(interaction.message_id or 0)
        response: JSON = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": rtype == ResponseType.DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": rtype},
        }
        if target is not None and rtype in (4, 5, 6, 7):
            response["interaction"]["response_message_id"] = str(target.id)
            if rtype != ResponseType.DEFERRED_UPDATE_MESSAGE:
                response["resource"]["message"] = self.message_payload(target)
        publish: list[Publish] = []
        if message is not None:
            publish.append(self._publish_message(message, event))
        if target is not None and rtype in (4, 5, 6, 7):
            interaction.committed_original_id = target.id

        async def record_response() -> None:
            interaction.response_type = rtype
            interaction.response_data = data
            interaction.responded_at = loop.time()
            if target is not None and rtype in (4, 5, 6, 7):
                interaction.original_message_id = target.id

        publish.append(record_response)
        return _Reply(200, response, publish)

    def _focused_option_type(self, interaction: FakeInteraction) -> int | None:
        def find(options: list[JSON]) -> JSON | None:
            for opt in options:
                if opt.get("focused"):
                    return opt
                found = find(opt.get("options") or [])
                if found is not None:
                    return found
            return None

        focused = find(interaction.data.get("options") or [])
        return None if focused is None else int(focused["type"])

    def _webhook_message(self, interaction: FakeInteraction, message_id: str) -> FakeMessage:
        if message_id == "@original":
            target_id = interaction.committed_original_id
        else:
            target_id = int(message_id) if message_id.isdigit() else None
            candidate = self.messages.get(target_id or 0)
            if candidate is None or (
                candidate.interaction_id != interaction.id
                and candidate.id != interaction.committed_original_id
            ):
                target_id = None
        message = self.messages.get(target_id or 0)
        if message is None or message.deleted:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return message

    async def _followup(self, req: _Request) -> _Reply:
        """A follow-up; the first one after a deferred response replaces the "thinking" message."""
        interaction = self._interaction_for_token(req)
        if interaction.type == InteractionType.AUTOCOMPLETE:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        payload = req.json or {}
        allowed = (
            MessageFlag.EPHEMERAL
            | MessageFlag.SUPPRESS_EMBEDS
            | MessageFlag.SUPPRESS_NOTIFICATIONS
            | MessageFlag.IS_COMPONENTS_V2
        )
        channel = self.channels[interaction.channel_id]
        loading = self.messages.get(interaction.committed_original_id or 0)
        if loading is not None and (loading.deleted or not loading.loading):
            loading = None
        if loading is not None:
            self._validate_message(payload, allowed_flags=allowed)
            edit = {k: v for k, v in payload.items() if k != "flags"}
            self._apply_edit(loading, edit, req.files, allowed_flags=allowed)
            message = loading
            event = "MESSAGE_CREATE"
        else:
            message = self._new_message(
                channel,
                payload,
                req.files,
                source="followup",
                allowed_flags=allowed,
                interaction=interaction,
            )
            self._store(message)
            event = "MESSAGE_CREATE"
        publish = [self._publish_message(message, event)]
        if message is not loading:

            async def record_followup() -> None:
                interaction.followup_ids.append(message.id)

            publish.append(record_followup)
        wait = req.query.get("wait", "false").lower() in ("1", "true")
        return _Reply(
            200 if wait else 204, self.message_payload(message) if wait else None, publish
        )

    async def _get_webhook_message(self, req: _Request) -> _Reply:
        interaction = self._interaction_for_token(req)
        return _Reply(
            200, self.message_payload(self._webhook_message(interaction, req.params["message_id"]))
        )

    async def _edit_webhook_message(self, req: _Request) -> _Reply:
        interaction = self._interaction_for_token(req)
        message = self._webhook_message(interaction, req.params["message_id"])
        allowed = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2
        was_loading = message.loading
        self._apply_edit(message, req.json or {}, req.files, allowed_flags=allowed)
        publish = [
            self._publish_message(message, "MESSAGE_CREATE" if was_loading else "MESSAGE_UPDATE")
        ]
        return _Reply(200, self.message_payload(message), publish)

    async def _delete_webhook_message(self, req: _Request) -> _Reply:
        interaction = self._interaction_for_token(req)
        message = self._webhook_message(interaction, req.params["message_id"])
        message.deleted = True
        return _Reply(204, None, [self._publish_message(message, "MESSAGE_DELETE")])

    # -- REST handlers: channels and messages ---------------------------------------------------

    async def _get_channel(self, req: _Request) -> _Reply:
        return _Reply(200, self._channel(req.params["channel_id"]).payload())

    async def _edit_channel(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        body = req.json or {}
        if "name" in body:
            _check_len(body["name"], "name", low=1, high=100)
            channel.name = body["name"]
        if channel.is_thread:
            if channel.owner_id != self.bot_user.id:
                self._require(channel, Perm.MANAGE_THREADS)
            for key in ("archived", "locked", "invitable"):
                if key in body:
                    setattr(channel, key, bool(body[key]))
            if "auto_archive_duration" in body:
                channel.auto_archive_duration = int(body["auto_archive_duration"])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"

        async def announce() -> None:
            await self.dispatch(event, channel.payload(), guild_id=channel.guild_id)

        return _Reply(200, channel.payload(), [announce])

    async def _list_messages(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        visible = [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and not m.deleted and not m.ephemeral and not m.loading
        ]
        if "before" in req.query:
            visible = [m for m in visible if m.id < int(req.query["before"])]
        if "after" in req.query:
            visible = [m for m in visible if m.id > int(req.query["after"])]
            visible = visible[:limit]
        visible.sort(key=lambda m: m.id, reverse=True)
        return _Reply(200, [self.message_payload(m) for m in visible[:limit]])

    async def _get_message(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        return _Reply(
            200, self.message_payload(self._channel_message(channel, req.params["message_id"]))
        )

    def _check_can_post(self, channel: FakeChannel) -> None:
        if channel.is_thread:
            self._require(channel, Perm.SEND_MESSAGES_IN_THREADS)
            if channel.locked:
                raise DiscordHTTPError(400, ErrorCode.THREAD_LOCKED, "Thread is locked")
            channel.archived = False
        elif not channel.is_dm:
            self._require(channel, Perm.SEND_MESSAGES)

    async def _create_message(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        self._check_can_post(channel)
        payload = req.json or {}
        if req.files:
            self._require(channel, Perm.ATTACH_FILES)
        ref = payload.get("message_reference")
        if ref and ref.get("message_id") and ref.get("fail_if_not_exists", True):
            target = self.messages.get(int(ref["message_id"]))
            if target is None or target.deleted:
                raise form_error("message_reference", "Unknown message", "REPLIES_UNKNOWN_MESSAGE")
        allowed = (
            MessageFlag.SUPPRESS_EMBEDS
            | MessageFlag.SUPPRESS_NOTIFICATIONS
            | MessageFlag.IS_COMPONENTS_V2
        )
        message = self._new_message(
            channel, payload, req.files, source="channel", allowed_flags=allowed
        )
        self._store(message)
        return _Reply(200, self.message_payload(message), [self._publish_message(message)])

    async def _edit_message(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        message = self._channel_message(channel, req.params["message_id"])
        if message.author.id != self.bot_user.id:
            raise DiscordHTTPError(
                403,
                ErrorCode.CANNOT_EDIT_OTHERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        allowed = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.IS_COMPONENTS_V2
        self._apply_edit(message, req.json or {}, req.files, allowed_flags=allowed)
        return _Reply(
            200, self.message_payload(message), [self._publish_message(message, "MESSAGE_UPDATE")]
        )

    async def _delete_message(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        message = self._channel_message(channel, req.params["message_id"])
        if message.author.id != self.bot_user.id:
            self._require(channel, Perm.MANAGE_MESSAGES)
        message.deleted = True
        return _Reply(204, None, [self._publish_message(message, "MESSAGE_DELETE")])

    def _thread_reply(self, thread: FakeChannel) -> _Reply:
        data = thread.payload()
        data["newly_created"] = True

        async def announce() -> None:
            await self.dispatch("THREAD_CREATE", data, guild_id=thread.guild_id)

        return _Reply(201, thread.payload(), [announce])

    async def _create_thread(self, req: _Request) -> _Reply:
        parent = self._channel(req.params["channel_id"])
        body = req.json or {}
        if parent.type not in (ChannelType.TEXT, ChannelType.NEWS):
            raise form_error("type", "Threads can only be created in text channels.")
        ttype = int(body.get("type") or ChannelType.PRIVATE_THREAD)
        if ttype not in (
            ChannelType.PUBLIC_THREAD,
            ChannelType.PRIVATE_THREAD,
            ChannelType.NEWS_THREAD,
        ):
            raise form_error("type", f"Invalid thread type {ttype}.")
        self._require(
            parent,
            Perm.CREATE_PRIVATE_THREADS
            if ttype == ChannelType.PRIVATE_THREAD
            else Perm.CREATE_PUBLIC_THREADS,
        )
        _check_len(body.get("name"), "name", low=1, high=100)
        duration = int(body.get("auto_archive_duration") or 1440)
        if duration not in (60, 1440, 4320, 10080):
            raise form_error("auto_archive_duration", "Must be one of 60, 1440, 4320, 10080.")
        thread = self.new_thread(
            parent,
            body["name"],
            owner=self.bot_user,
            type=ttype,
            auto_archive_duration=duration,
            invitable=bool(body.get("invitable", True)),
        )
        return self._thread_reply(thread)

    async def _create_message_thread(self, req: _Request) -> _Reply:
        parent = self._channel(req.params["channel_id"])
        message = self._channel_message(parent, req.params["message_id"])
        if parent.is_thread or parent.is_dm:
            raise form_error("channel_id", "Cannot start a thread here.")
        self._require(parent, Perm.CREATE_PUBLIC_THREADS)
        if message.thread_id is not None:
            raise DiscordHTTPError(
                400,
                ErrorCode.THREAD_ALREADY_CREATED,
                "A thread has already been created for this message",
            )
        body = req.json or {}
        _check_len(body.get("name"), "name", low=1, high=100)
        ttype = (
            ChannelType.NEWS_THREAD
            if parent.type == ChannelType.NEWS
            else ChannelType.PUBLIC_THREAD
        )
        thread = self.new_thread(
            parent,
            body["name"],
            owner=self.bot_user,
            type=ttype,
            thread_id=message.id,
            auto_archive_duration=int(body.get("auto_archive_duration") or 1440),
        )
        thread.starter_message_id = message.id
        message.thread_id = thread.id
        return self._thread_reply(thread)

    async def _add_thread_member(self, req: _Request) -> _Reply:
        thread = self._channel(req.params["channel_id"])
        if not thread.is_thread:
            raise form_error("channel_id", "Not a thread.")
        thread.thread_members.add(
            int(req.params["user_id"]) if req.params["user_id"].isdigit() else self.bot_user.id
        )
        return _Reply(204)

    async def _remove_thread_member(self, req: _Request) -> _Reply:
        thread = self._channel(req.params["channel_id"])
        thread.thread_members.discard(
            int(req.params["user_id"]) if req.params["user_id"].isdigit() else self.bot_user.id
        )
        return _Reply(204)

    async def _typing(self, req: _Request) -> _Reply:
        self._channel(req.params["channel_id"])
        return _Reply(204)

    async def _add_reaction(self, req: _Request) -> _Reply:
        channel = self._channel(req.params["channel_id"])
        self._channel_message(channel, req.params["message_id"])
        return _Reply(204)

    # -- REST handlers: guilds ------------------------------------------------------------------

    async def _get_guild(self, req: _Request) -> _Reply:
        guild = self._guild(req.params["guild_id"])
        payload = self.guild_create_payload(guild, 0)
        for key in (
            "members",
            "channels",
            "threads",
            "voice_states",
            "presences",
            "member_count",
            "joined_at",
            "large",
            "unavailable",
        ):
            payload.pop(key, None)
        return _Reply(200, payload)

    async def _get_guild_channels(self, req: _Request) -> _Reply:
        guild = self._guild(req.params["guild_id"])
        return _Reply(
            200,
            [
                self.channels[c].payload()
                for c in guild.channel_ids
                if not self.channels[c].is_thread
            ],
        )

    async def _get_member(self, req: _Request) -> _Reply:
        guild = self._guild(req.params["guild_id"])
        member = (
            guild.members.get(int(req.params["user_id"]))
            if req.params["user_id"].isdigit()
            else None
        )
        if member is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MEMBER, "Unknown Member")
        return _Reply(200, member.payload())

    async def _get_active_threads(self, req: _Request) -> _Reply:
        guild = self._guild(req.params["guild_id"])
        threads = [
            self.channels[c]
            for c in guild.channel_ids
            if self.channels[c].is_thread and not self.channels[c].archived
        ]
        return _Reply(200, {"threads": [t.payload() for t in threads], "members": []})

    # -- interactions from users ----------------------------------------------------------------

    def _context(
        self, user: FakeUser | FakeMember, channel: FakeChannel
    ) -> tuple[FakeUser, FakeMember | None]:
        fake_user = user.user if isinstance(user, FakeMember) else user
        if channel.is_dm:
            return fake_user, None
        member = self.member(channel.guild_id, fake_user.id)
        if member is None:
            raise UserCannotDoThat(
                f"{fake_user.username} is not a member of the guild of #{channel.name}"
            )
        if (
            channel.type == ChannelType.PRIVATE_THREAD
            and fake_user.id not in channel.thread_members
            and not self.permissions(channel.guild_id, fake_user.id) & Perm.MANAGE_THREADS
        ):
            raise UserCannotDoThat(
                f"{fake_user.username} cannot see the private thread {channel.name}"
            )
        return fake_user, member

    async def create_interaction(
        self,
        itype: int,
        *,
        user: FakeUser | FakeMember,
        channel: FakeChannel,
        data: JSON,
        message: FakeMessage | None = None,
        label: str = "",
    ) -> FakeInteraction:
        """Make an interaction as Discord would and dispatch it as INTERACTION_CREATE."""
        if self.session is None:
            raise NoBotConnected("no bot has identified on the fake gateway")
        fake_user, member = self._context(user, channel)
        loop = asyncio.get_running_loop()
        interaction_id = self.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "token": token,
            "version": 1,
            "locale": fake_user.locale,
            "app_permissions": str(self.permissions(channel.guild_id, self.bot_user.id)),
            "entitlements": [],
            "attachment_size_limit": self.attachment_size_limit,
            "context": 1 if channel.is_dm else 0,
        }
        if member is not None and channel.guild_id is not None:
            guild = self.guilds[channel.guild_id]
            payload["guild_id"] = str(guild.id)
            payload["guild_locale"] = guild.locale
            payload["guild"] = {"id": str(guild.id), "locale": guild.locale, "features": []}
            payload["member"] = member.payload(permissions=self.permissions(guild.id, fake_user.id))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        else:
            payload["user"] = fake_user.payload()
            payload["authorizing_integration_owners"] = {"1": str(fake_user.id)}
        if message is not None:
            payload["message"] = self.message_payload(message)
        interaction = FakeInteraction(
            interaction_id,
            token,
            itype,
            self.application_id,
            fake_user,
            member,
            channel.id,
            channel.guild_id,
            data,
            payload,
            loop.time(),
            message_id=None if message is None else message.id,
            label=label,
        )
        self.interactions[interaction_id] = interaction
        self._interactions_by_token[token] = interaction
        await self.dispatch("INTERACTION_CREATE", payload, guild_id=channel.guild_id)
        await self.notify()
        return interaction

    def build_command_data(
        self,
        command: str,
        options: Mapping[str, Any],
        *,
        channel: FakeChannel,
        focused: str | None = None,
    ) -> JSON:
        """The ``data`` of an APPLICATION_COMMAND or AUTOCOMPLETE interaction.

        ``command`` may name a subcommand: ``"game move"``.  Option types come from the
        registered command (so the test writes plain values); with
        ``require_registered_commands`` off, unregistered commands get types from the values.
        """
        parts = command.strip().lstrip("/").split()
        if not parts:
            raise ValueError("empty command name")
        registered = self.find_command(parts[0], channel.guild_id)
        if registered is None and self.require_registered_commands:
            known = sorted(
                {c.name for scope in (channel.guild_id, None) for c in self.commands.get(scope, [])}
            )
            raise UserCannotDoThat(
                f"/{parts[0]} is not registered (the bot registered: {known or 'nothing'})"
            )
        resolved: JSON = {}
        data: JSON = {
            "id": str(registered.id if registered else self.snowflake()),
            "name": parts[0],
            "type": 1,
        }
        if registered is not None and registered.guild_id is not None:
            data["guild_id"] = str(registered.guild_id)
        defs: list[JSON] | None = (
            None if registered is None else list(registered.data.get("options") or [])
        )
        container: list[JSON] = []
        data["options"] = container
        for sub in parts[1:]:
            sub_def = (
                None
                if defs is None
                else next((o for o in defs if o["name"] == sub and o.get("type") in (1, 2)), None)
            )
            if defs is not None and sub_def is None:
                raise UserCannotDoThat(f"/{command}: no subcommand {sub!r}")
            node: JSON = {"name": sub, "type": sub_def["type"] if sub_def else 1, "options": []}
            container.append(node)
            container = node["options"]
            defs = None if sub_def is None else list(sub_def.get("options") or [])
        if defs is not None and any(o.get("type") in (1, 2) for o in defs):
            raise UserCannotDoThat(f"/{command} needs a subcommand")
        for name, value in options.items():
            opt_def = None if defs is None else next((o for o in defs if o["name"] == name), None)
            if defs is not None and opt_def is None:
                raise UserCannotDoThat(
                    f"/{command} has no option {name!r} (it has {[o['name'] for o in defs]})"
                )
            container.append(
                self._option(name, value, opt_def, resolved, channel, focused=name == focused)
            )
        if defs is not None and focused is None:
            missing = [o["name"] for o in defs if o.get("required") and o["name"] not in options]
            if missing:
                raise UserCannotDoThat(f"/{command} needs {missing}")
        if focused is not None and focused not in options:
            raise UserCannotDoThat(f"the focused option {focused!r} must be in options")
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        name: str,
        value: Any,
        opt_def: JSON | None,
        resolved: JSON,
        channel: FakeChannel,
        *,
        focused: bool,
    ) -> JSON:
        otype = int(opt_def["type"]) if opt_def else _infer_option_type(value)
        option: JSON = {"name": name, "type": otype}
        if focused:
            # What the user has typed so far: always text, never checked against choices.
            option["value"] = value if isinstance(value, str) else str(value)
            option["focused"] = True
            if opt_def is not None and not opt_def.get("autocomplete"):
                raise UserCannotDoThat(f"option {name!r} has no autocomplete")
            return option
        if otype in (OptionType.USER, OptionType.MENTIONABLE) and isinstance(
            value, FakeUser | FakeMember
        ):
            fake_user = value.user if isinstance(value, FakeMember) else value
            option["value"] = str(fake_user.id)
            resolved.setdefault("users", {})[str(fake_user.id)] = fake_user.payload()
            member = self.member(channel.guild_id, fake_user.id)
            if member is not None:
                resolved.setdefault("members", {})[str(fake_user.id)] = member.payload(
                    with_user=False, permissions=self.permissions(channel.guild_id, fake_user.id)
                )
        elif otype in (OptionType.ROLE, OptionType.MENTIONABLE) and isinstance(value, FakeRole):
            option["value"] = str(value.id)
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif otype == OptionType.CHANNEL and isinstance(value, FakeChannel):
            option["value"] = str(value.id)
            body = value.payload()
            body["permissions"] = str(self.permissions(channel.guild_id, self.bot_user.id))
            resolved.setdefault("channels", {})[str(value.id)] = body
        elif otype == OptionType.ATTACHMENT and isinstance(value, FakeUpload):
            upload = _Upload(0, value.filename, value.data, value.content_type)
            attachment = self._attachment_from_upload(upload, channel.id, None, ephemeral=True)
            if value.content_type:
                attachment.content_type = value.content_type
            option["value"] = str(attachment.id)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        elif otype == OptionType.STRING and isinstance(value, str):
            low, high = (
                int((opt_def or {}).get("min_length", 0)),
                int((opt_def or {}).get("max_length", MAX_STRING_OPTION)),
            )
            if not low <= len(value) <= high:
                raise UserCannotDoThat(
                    f"option {name!r}: Discord accepts {low}-{high} characters, got {len(value)}"
                )
            option["value"] = value
        elif _is_number(value, integer=otype == OptionType.INTEGER) and otype in (
            OptionType.INTEGER,
            OptionType.NUMBER,
        ):
            self._check_range(name, value, opt_def)
            option["value"] = value
        elif otype == OptionType.BOOLEAN and isinstance(value, bool):
            option["value"] = value
        else:
            raise UserCannotDoThat(f"option {name!r} (type {otype}) cannot take {value!r}")
        choices = (opt_def or {}).get("choices")
        if choices and option["value"] not in [c["value"] for c in choices]:
            raise UserCannotDoThat(
                f"option {name!r} must be one of {[c['value'] for c in choices]}"
            )
        return option

    @staticmethod
    def _check_range(name: str, value: float, opt_def: JSON | None) -> None:
        low = (opt_def or {}).get("min_value")
        high = (opt_def or {}).get("max_value")
        if (low is not None and value < low) or (high is not None and value > high):
            raise UserCannotDoThat(f"option {name!r} must be within [{low}, {high}], got {value}")

    async def post_user_message(
        self,
        channel: FakeChannel,
        user: FakeUser | FakeMember,
        content: str,
        *,
        files: Iterable[FakeUpload] = (),
    ) -> FakeMessage:
        """A member types a message: stored and dispatched as MESSAGE_CREATE (content only with
        the MESSAGE_CONTENT intent, unless the bot is mentioned, as on Discord)."""
        fake_user, member = self._context(user, channel)
        attachments = [
            self._attachment_from_upload(
                _Upload(i, f.filename, f.data, f.content_type), channel.id, None, ephemeral=False
            )
            for i, f in enumerate(files)
        ]
        message = FakeMessage(
            self.snowflake(),
            channel.id,
            channel.guild_id,
            fake_user,
            content=content,
            attachments=attachments,
            source="user",
            published=True,
        )
        self._apply_mentions(message)
        self._store(message)
        payload = self.message_payload(message)
        session = self.session
        if (
            session is not None
            and not session.intents & Intent.MESSAGE_CONTENT
            and self.bot_user.id not in message.mentioned_user_ids
            and not channel.is_dm
        ):
            payload.update(content="", embeds=[], attachments=[], components=[])
        if member is not None:
            payload["member"] = member.payload(with_user=False)
        await self.dispatch("MESSAGE_CREATE", payload, guild_id=channel.guild_id)
        await self.notify()
        return message


def _message_type(payload: JSON, interaction: FakeInteraction | None) -> int:
    if payload.get("message_reference"):
        return 19
    if interaction is not None and interaction.type == InteractionType.APPLICATION_COMMAND:
        return 20
    return 0


def _is_number(value: Any, *, integer: bool) -> bool:
    if isinstance(value, bool):
        return False
    return isinstance(value, int) if integer else isinstance(value, int | float)


def _infer_option_type(value: Any) -> int:
    """Option type from a Python value (only for commands the bot did not register)."""
    if isinstance(value, bool):
        return OptionType.BOOLEAN
    if isinstance(value, int):
        return OptionType.INTEGER
    if isinstance(value, float):
        return OptionType.NUMBER
    if isinstance(value, FakeUser | FakeMember):
        return OptionType.USER
    if isinstance(value, FakeChannel):
        return OptionType.CHANNEL
    if isinstance(value, FakeRole):
        return OptionType.ROLE
    if isinstance(value, FakeUpload):
        return OptionType.ATTACHMENT
    return OptionType.STRING
