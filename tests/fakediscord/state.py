"""Everything the fake Discord knows, in one place: the application and its bot user, guilds
with roles, members and channels, messages, registered commands and interactions, plus the
record of every request and every refusal.

Why one object: the REST routes, the gateway and the test driver all read and change the same
Discord, and each wakes waiting tests through :meth:`World.notify` after a change.  Keeping the
state apart from the HTTP and websocket code lets each of those stay small.
"""

from __future__ import annotations

import asyncio
import time

from .constants import (
    INTERACTION_TIMEOUT,
    ApplicationFlag,
    ChannelType,
    ErrorCode,
    Intent,
    Perm,
)
from .counting import RequestCounts
from .limits import Limits, RateLimitCounts, RateLimiter
from .models import (
    JSON,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    RequestRecord,
    SnowflakeFactory,
    iso,
)
from .validation import DiscordHTTPError


class World:
    """Discord's side of the conversation: state, lookups that answer with Discord's errors,
    payload builders, and the records that fail a test (see :meth:`problems`)."""

    def __init__(self, *, token: str, bot_name: str) -> None:
        self.token = token
        #: Seconds Discord waits for an initial response (3 s); tests may shorten it.
        self.interaction_timeout = INTERACTION_TIMEOUT
        self.snowflake = SnowflakeFactory()
        self.application_id = self.snowflake()
        self.application_name = bot_name
        #: The application's Server Members intent as its owner set it in the developer
        #: portal: off by default, as for a new application. Without it Discord refuses
        #: the list of a guild's members (403, Missing Access); with it, the application's
        #: flags say so. Change freely.
        self.members_intent = False
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
        #: The direct-message channel with each user the bot opened one with, by user id.
        self.dm_channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, FakeMessage] = {}
        self.commands: dict[int | None, list[FakeCommand]] = {}
        self.command_puts: list[RequestRecord] = []
        self.interactions: dict[int, FakeInteraction] = {}
        self.interactions_by_token: dict[str, FakeInteraction] = {}
        #: Where attachment URLs point (the server sets it once it has a port).
        self.cdn_base = "http://127.0.0.1/cdn"
        #: Files members uploaded for attachment options, by their path under the CDN.
        self.cdn_files: dict[str, bytes] = {}

        self.requests: list[RequestRecord] = []
        #: REST requests counted by route and against Discord's global limit; reset freely.
        self.request_counts = RequestCounts()
        #: Discord's limits as the fake enforces them (see :mod:`.limits`); change freely.
        self.limits = Limits()
        #: Their state: global windows, route buckets, invalid requests.
        self.limiter = RateLimiter()
        #: Requests to routes (and gateway opcodes) the fake does not know: a test failure.
        self.unknown_requests: list[RequestRecord] = []
        #: 4xx answers from validation (bad payloads, late or second responses ...).
        self.rejections: list[RequestRecord] = []
        #: Rejection codes a test provokes on purpose; :meth:`problems` leaves them out.
        self.expected_rejection_codes: set[int] = set()
        #: Exceptions inside the fake itself (a bug here, not in the bot).
        self.internal_errors: list[str] = []

        #: Bumped on every change; waiting tests re-check their condition then.
        self.version = 0
        self.condition = asyncio.Condition()

    async def notify(self) -> None:
        """Wake everything waiting on :attr:`condition`."""
        self.version += 1
        async with self.condition:
            self.condition.notify_all()

    @property
    def rate_limited(self) -> RateLimitCounts:
        """Requests refused by a rate limit (global, per route, the ban); reset freely."""
        return self.limiter.counts

    @property
    def invalid_requests(self) -> int:
        """Invalid requests (401, 403, 429) in the ban's window now."""
        return self.limiter.invalid_in_window(self.limits)

    def active_threads(self, guild_id: int) -> int:
        """Threads of the guild that are not archived."""
        return sum(
            1
            for c in self.channels.values()
            if c.is_thread and c.guild_id == guild_id and not c.archived
        )

    def check_thread_cap(self, guild_id: int) -> None:
        """400, code 160006, when another active thread would pass the guild's cap."""
        cap = self.limits.active_threads
        if cap is not None and self.active_threads(guild_id) >= cap:
            raise DiscordHTTPError(
                400, ErrorCode.MAX_ACTIVE_THREADS, "Maximum number of active threads reached"
            )

    # -- building -------------------------------------------------------------------------------

    def new_user(self, username: str, *, bot: bool = False) -> FakeUser:
        user = FakeUser(self.snowflake(), username, username, bot=bot)
        self.users[user.id] = user
        return user

    def new_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> FakeGuild:
        """A guild with @everyone, the bot as a member with its managed role, no channels;
        with ``shard`` (``(shard_id, shard_count)``), an id on that shard."""
        guild_id = self.snowflake() if shard is None else self.snowflake.on_shard(*shard)
        guild = FakeGuild(guild_id, name, self.owner.id)
        guild.roles[guild.id] = FakeRole(guild.id, guild.id, "@everyone", Perm.EVERYONE_DEFAULT)
        bot_role = FakeRole(
            self.snowflake(),
            guild.id,
            self.bot_user.global_name or "bot",
            Perm.BOT_DEFAULT,
            position=1,
            managed=True,
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = FakeMember(guild.id, self.bot_user, [bot_role.id])
        self.guilds[guild.id] = guild
        return guild

    def new_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        channel = FakeChannel(
            self.snowflake(), ChannelType.TEXT, name, guild.id, position=len(guild.channel_ids)
        )
        return self._add_channel(guild, channel)

    def new_thread(
        self, parent: FakeChannel, name: str, *, owner_id: int, thread_id: int | None = None
    ) -> FakeChannel:
        """A public thread; one started on a message has the message's id."""
        thread = FakeChannel(
            thread_id or self.snowflake(),
            ChannelType.PUBLIC_THREAD,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=owner_id,
        )
        return self._add_channel(self.guilds[parent.guild_id], thread)

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's direct-message channel with ``user``: one per user, opened once and
        the same ever after (as Discord answers every "open a DM" with the same channel)."""
        channel = self.dm_channels.get(user.id)
        if channel is None:
            channel = FakeChannel(self.snowflake(), ChannelType.DM, "", 0, recipient=user)
            self.channels[channel.id] = channel
            self.dm_channels[user.id] = channel
        return channel

    def _add_channel(self, guild: FakeGuild, channel: FakeChannel) -> FakeChannel:
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def remove_thread(self, thread: FakeChannel) -> JSON:
        """Delete ``thread`` from the world; returns the THREAD_DELETE event's payload."""
        del self.channels[thread.id]
        self.guilds[thread.guild_id].channel_ids.remove(thread.id)
        return {
            "id": str(thread.id),
            "guild_id": str(thread.guild_id),
            "parent_id": str(thread.parent_id),
            "type": thread.type,
        }

    def member(self, guild_id: int, user_id: int) -> FakeMember | None:
        guild = self.guilds.get(guild_id)
        return None if guild is None else guild.members.get(user_id)

    def permissions(self, guild_id: int, user_id: int) -> int:
        """Guild-level permissions of a member (roles only; no channel overwrites)."""
        guild = self.guilds.get(guild_id)
        if guild is None:
            return 0
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

    def find_command(self, name: str, guild_id: int) -> FakeCommand | None:
        """A registered slash command visible in ``guild_id``: the guild's first, then global."""
        for scope in (guild_id, None):
            for command in self.commands.get(scope, []):
                if command.name == name and command.type == 1:
                    return command
        return None

    # -- lookups that answer with Discord's errors ----------------------------------------------

    def channel_or_404(self, channel_id: str) -> FakeChannel:
        channel = self.channels.get(int(channel_id)) if channel_id.isdigit() else None
        if channel is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_CHANNEL, "Unknown Channel")
        return channel

    def guild_or_404(self, guild_id: str) -> FakeGuild:
        guild = self.guilds.get(int(guild_id)) if guild_id.isdigit() else None
        if guild is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_GUILD, "Unknown Guild")
        return guild

    def message_or_404(self, channel: FakeChannel, message_id: str) -> FakeMessage:
        """A message of ``channel`` the bot can fetch (not an ephemeral one)."""
        message = self.messages.get(int(message_id)) if message_id.isdigit() else None
        if message is None or message.ephemeral or message.channel_id != channel.id:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return message

    def require(self, channel: FakeChannel, perm: int) -> None:
        """403 unless the bot has ``perm`` in the channel's guild."""
        if not self.permissions(channel.guild_id, self.bot_user.id) & perm:
            raise DiscordHTTPError(403, ErrorCode.MISSING_PERMISSIONS, "Missing Permissions")

    # -- payloads -------------------------------------------------------------------------------

    def guild_create_payload(self, guild: FakeGuild, intents: int) -> JSON:
        """GUILD_CREATE: every member with the members intent, else only the bot itself.

        ``member_count`` equals the members sent, so discord.py never asks for chunks.
        """
        members = [
            m
            for m in guild.members.values()
            if intents & Intent.GUILD_MEMBERS or m.user.id == self.bot_user.id
        ]
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
            "joined_at": iso(time.time()),
            "large": False,
            "unavailable": False,
            "member_count": len(members),
            "voice_states": [],
            "members": [m.payload() for m in members],
            "channels": [c.payload() for c in channels if not c.is_thread],
            "threads": [c.payload() for c in channels if c.is_thread],
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
            "flags": ApplicationFlag.GUILD_MEMBERS_LIMITED if self.members_intent else 0,
            "interactions_endpoint_url": None,
            "approximate_guild_count": len(self.guilds),
            "tags": [],
        }

    def message_payload(self, message: FakeMessage) -> JSON:
        thread = self.channels.get(message.thread_id) if message.thread_id else None
        return message.payload(thread=thread)

    # -- what fails a test ----------------------------------------------------------------------

    def problems(self) -> list[str]:
        """Unknown routes, refusals the test did not expect, and bugs in the fake itself."""
        out = [f"the bot called a route the fake does not know: {r}" for r in self.unknown_requests]
        out += [
            f"the fake refused a bot request: {r}"
            for r in self.rejections
            if r.code not in self.expected_rejection_codes
        ]
        out += [f"internal error in the fake: {e}" for e in self.internal_errors]
        return out
