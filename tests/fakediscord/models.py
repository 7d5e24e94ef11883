"""What the fake Discord stores: users, roles, members, guilds, channels and threads, messages
with their files, registered commands, interactions, and the record of every request.

Why dataclasses with a ``payload()`` each: a test reads these objects directly ("the reply's
content", "who was pinged"), and the REST and gateway code turn the same objects into the JSON
Discord would send, so the two views cannot drift apart.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .constants import DISCORD_EPOCH_MS, ChannelType, MessageFlag

JSON = dict[str, Any]


@dataclass(frozen=True)
class EncodedJSON:
    """A reply's body already written as JSON text: a large one is written a slice at a
    time between turns of the event loop, which the bot under test shares."""

    encoded: str


def iso(ts: float) -> str:
    """A Unix time as Discord writes timestamps."""
    return datetime.fromtimestamp(ts, UTC).isoformat()


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height of a PNG (from its IHDR chunk) or a GIF (from its screen
    descriptor), so attachments look like images."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None


def walk_components(components: Iterable[JSON]) -> Iterator[JSON]:
    """Every component in a tree, depth first (rows, then what they hold)."""
    for component in components:
        yield component
        children = component.get("components")
        if isinstance(children, list):
            yield from walk_components(children)


class SnowflakeFactory:
    """Real-looking, strictly increasing snowflakes, so discord.py's ``created_at`` is right
    and "posted after" can be read from two ids."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        if candidate <= self._last:
            candidate = self._last + 1
        self._last = candidate
        return candidate

    def on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake whose guild would be on ``shard_id`` of ``shard_count``: the
        shard is the id's millisecond modulo the count, so it may lie up to that many
        milliseconds ahead (a test places guilds on shards; Discord's ids fall as they do)."""
        millisecond = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
        millisecond += (shard_id - millisecond) % shard_count
        self._last = millisecond << 22
        return self._last


@dataclass(eq=False)
class FakeUser:
    """A Discord user (human or bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False
    locale: str = "en-US"
    #: Whether the bot may send them direct messages (False: they closed them, and Discord
    #: answers the bot's message with 403, code 50007).
    accepts_dms: bool = True

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
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership of one guild."""

    guild_id: int
    user: FakeUser
    roles: list[int] = field(default_factory=list)
    joined_at: float = field(default_factory=time.time)

    @property
    def id(self) -> int:
        return self.user.id

    def payload(self, *, with_user: bool = True, permissions: int | None = None) -> JSON:
        body: JSON = {
            "roles": [str(r) for r in self.roles],
            "nick": None,
            "avatar": None,
            "banner": None,
            "joined_at": iso(self.joined_at),
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
    """A guild text channel, a public thread (started on a message, or by a member), or
    the direct-message channel between the bot and one user (``recipient``; guild 0)."""

    id: int
    type: int
    name: str
    guild_id: int
    parent_id: int | None = None
    owner_id: int | None = None
    position: int = 0
    created_at: float = field(default_factory=time.time)
    message_count: int = 0
    last_message_id: int | None = None
    recipient: FakeUser | None = None
    #: A thread's state: archived (hidden, reopened by a post unless locked), locked (only
    #: members who may manage threads reopen it), and when its archived state last changed.
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: float | None = None

    @property
    def is_thread(self) -> bool:
        return self.type == ChannelType.PUBLIC_THREAD

    @property
    def is_dm(self) -> bool:
        return self.type == ChannelType.DM

    def payload(self) -> JSON:
        if self.recipient is not None:  # a DM channel: no guild, no name, its one recipient
            return {
                "id": str(self.id),
                "type": self.type,
                "last_message_id": (
                    None if self.last_message_id is None else str(self.last_message_id)
                ),
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        body: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "guild_id": str(self.guild_id),
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "rate_limit_per_user": 0,
            "flags": 0,
        }
        if self.is_thread:
            body.update(
                parent_id=str(self.parent_id),
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                member_count=1,
                total_message_sent=self.message_count,
                applied_tags=[],
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": iso(self.archive_timestamp or self.created_at),
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": iso(self.created_at),
                },
            )
        else:
            body.update(
                position=self.position,
                parent_id=None,
                permission_overwrites=[],
                nsfw=False,
                topic=None,
                default_thread_rate_limit_per_user=0,
                default_auto_archive_duration=1440,
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
class FakeAttachment:
    """A file the bot sent, with its bytes (a test decodes the PNG or reads the record)."""

    id: int
    filename: str
    data: bytes
    content_type: str
    url: str
    description: str | None = None
    ephemeral: bool = False

    def payload(self) -> JSON:
        body: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "flags": 0,
        }
        if self.description is not None:
            body["description"] = self.description
        if self.ephemeral:
            body["ephemeral"] = True
        dims = image_size(self.data)
        if dims is not None:
            body["width"], body["height"] = dims
        return body


@dataclass(frozen=True)
class UserFile:
    """A file a member picks for an attachment option in Discord's client: the client
    uploads it first, and the interaction carries it under ``resolved.attachments``."""

    filename: str
    data: bytes


@dataclass(eq=False)
class FakeMessage:
    """A message as Discord stores it, plus how it got there (``source``) and its edits."""

    id: int
    channel_id: int
    guild_id: int
    author: FakeUser
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    #: The ``allowed_mentions`` object exactly as the bot sent it (None when it sent none).
    allowed_mentions: JSON | None = None
    #: Users, roles and @everyone its content mentions after ``allowed_mentions``, as
    #: Discord's message object lists them (recomputed on an edit).
    mentions: list[FakeUser] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    #: The users it notified: Discord pings when a message is created, never on an edit,
    #: so a deferred answer ("thinking", created empty) completed by a follow-up pings
    #: nobody, whatever mentions it then carries.
    pinged_user_ids: list[int] = field(default_factory=list)
    #: "channel" (REST), "response" (interaction callback), "followup" (webhook), "user".
    source: str = "channel"
    interaction_id: int | None = None
    webhook_id: int | None = None
    #: The thread started on this message (it has the message's id).
    thread_id: int | None = None
    created_at: float = field(default_factory=time.time)
    edited_at: float | None = None
    #: Earlier versions, oldest first (content, embeds, components, attachment ids, flags).
    history: list[JSON] = field(default_factory=list)
    #: True once the HTTP reply that created it has been written: a waiting test must not
    #: act on a message before the bot has even read that it exists.
    published: bool = False
    nonce: str | None = None
    #: 0 default, 19 a reply, 20 the answer to a slash command.
    type: int = 0
    #: The message this one replies to (a member's reply), None for any other.
    reference_id: int | None = None

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "thinking"."""
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def mentioned_user_ids(self) -> list[int]:
        """Ids of the users this message really pinged (notified when it was created)."""
        return list(self.pinged_user_ids)

    @property
    def custom_ids(self) -> list[str]:
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    @property
    def labels(self) -> list[str]:
        """The labels of the message's buttons, in order."""
        return [c["label"] for c in walk_components(self.components) if "label" in c]

    def component(self, custom_id: str) -> JSON | None:
        return next(
            (c for c in walk_components(self.components) if c.get("custom_id") == custom_id),
            None,
        )

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
            "timestamp": iso(self.created_at),
            "edited_timestamp": None if self.edited_at is None else iso(self.edited_at),
            "tts": False,
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
        if self.guild_id:  # a direct message has no guild_id at all, as on Discord
            body["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            body["webhook_id"] = str(self.webhook_id)
            body["application_id"] = str(self.webhook_id)
        if self.nonce is not None:
            body["nonce"] = self.nonce
        if thread is not None:
            body["thread"] = thread.payload()
        if self.reference_id is not None:
            body["message_reference"] = {
                "type": 0,
                "message_id": str(self.reference_id),
                "channel_id": str(self.channel_id),
                **({"guild_id": str(self.guild_id)} if self.guild_id else {}),
            }
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
        body = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "nsfw": False,
            "contexts": None,
            "integration_types": [0],
            **self.data,
            "id": str(self.id),
            "application_id": str(self.application_id),
            "version": str(self.version),
        }
        if self.guild_id is not None:
            body["guild_id"] = str(self.guild_id)
        else:
            body.setdefault("dm_permission", True)
        return body


@dataclass(eq=False)
class FakeInteraction:
    """One interaction and everything the bot did in answer to it.

    ``response_*``, ``original_message_id`` and ``followup_ids`` are set only once the reply
    to the bot has been written, so a waiting test never sees a half-finished answer.
    """

    id: int
    token: str
    type: int
    user: FakeUser
    member: FakeMember
    channel_id: int
    guild_id: int
    data: JSON
    created: float
    #: The message a component sat on.
    message_id: int | None = None
    #: What the user did, for messages: "/move", "component 'ch:accept:3'".
    label: str = ""
    acknowledged: bool = False
    #: The message the initial response created or targets, as soon as it is committed.
    committed_original_id: int | None = None
    response_type: int | None = None
    response_data: JSON | None = None
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
    #: The route's key ("POST /channels/{channel_id}/messages"); None for an unknown route.
    route: str | None
    #: Loop time when the request arrived.
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
    """A misbehaviour on the next ``times`` calls of one route.

    ``status`` 429 answers with ``retry_after`` as Discord does; another ``status`` answers a
    server error; ``delay`` waits before handling (it counts against the interaction's
    3 seconds).  ``after_processing`` applies the request first and *then* answers the
    error, which is how a bot ends up retrying something Discord already did.
    """

    route: str
    status: int | None = None
    retry_after: float = 0.05
    delay: float = 0.0
    after_processing: bool = False
    times: int = 1
    hits: int = 0

    def describe(self) -> str:
        parts = []
        if self.delay:
            parts.append(f"delay {self.delay:g}s")
        if self.status is not None:
            parts.append(f"status {self.status}")
        if self.after_processing:
            parts.append("after processing")
        return ", ".join(parts) or "none"
