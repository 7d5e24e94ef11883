"""The REST routes the bot calls, each answering as Discord does, rules included.

Why only these: the route table was cut to the calls the bot, discord.py's start-up and the
tests make (found by recording every route hit over the end-to-end and robustness tests and
the end-to-end benchmark).  Any other route is answered 404 and recorded as a problem by the
server, so a bot that starts calling something new fails its tests until the fake learns it.

Interaction rules enforced here: one initial response per interaction (a second gets 400,
code 40060); follow-ups and ``@original`` only after it (404, code 10015); an initial
response later than :attr:`World.interaction_timeout` (3 s) is refused (404, code 10062).
"""

from __future__ import annotations

import asyncio
import heapq
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

from .constants import (
    ALLOWED_RESPONSES,
    MAX_MEMBER_PAGE,
    ChannelType,
    ErrorCode,
    InteractionType,
    MessageFlag,
    Perm,
    ResponseType,
)
from .gateway import Gateway
from .messages import Publish, Upload, apply_edit, message_type, new_message, publish, store
from .models import (
    JSON,
    EncodedJSON,
    FakeChannel,
    FakeCommand,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    RequestRecord,
)
from .state import World
from .threads import ARCHIVE_DURATIONS, archived_error, modify_thread, reopen_for_post
from .validation import (
    DiscordHTTPError,
    check_length,
    form_error,
    not_modelled,
    validate_choices,
    validate_commands,
    validate_message,
    validate_modal,
)

#: Members written between two turns of the event loop in a page of a guild's members.
_SLICE = 100
#: Flags a bot may set on a new message; ephemeral only in answer to an interaction.
CHANNEL_FLAGS: Final = MessageFlag.SUPPRESS_EMBEDS | MessageFlag.SUPPRESS_NOTIFICATIONS
INTERACTION_FLAGS: Final = CHANNEL_FLAGS | MessageFlag.EPHEMERAL


@dataclass
class Request:
    """What a handler reads: the route's parameters, the query, the JSON body and the files."""

    params: dict[str, str]
    query: dict[str, str]
    json: Any
    files: list[Upload]
    record: RequestRecord


@dataclass
class Reply:
    status: int
    body: Any = None
    #: Run after the reply has been written: this is where observers are woken.
    publish: list[Publish] = field(default_factory=list)


Handler = Callable[["RestApi", Request], Awaitable[Reply]]


@dataclass(frozen=True)
class Route:
    method: str
    template: str
    handler: Handler
    #: Interaction callbacks and webhooks are authorised by their token, not the bot's.
    auth: bool
    regex: re.Pattern[str]

    @property
    def key(self) -> str:
        """How faults and records name the route: ``"POST /channels/{channel_id}/messages"``."""
        return f"{self.method} {self.template}"


class RestApi:
    """The handlers: each takes a :class:`Request` and returns a :class:`Reply`, or raises
    :class:`DiscordHTTPError` with the answer Discord would give."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    def match(self, method: str, path: str) -> tuple[Route | None, dict[str, str]]:
        for route in ROUTES:
            found = route.regex.match(path) if route.method == method else None
            if found:
                return route, found.groupdict()
        return None, {}

    # -- identity and commands ------------------------------------------------------------------

    async def get_me(self, req: Request) -> Reply:
        return Reply(200, self.world.bot_user.payload())

    async def open_dm(self, req: Request) -> Reply:
        """Open (or find) the bot's DM channel with a user. Discord opens it even when the
        user does not accept messages: only sending one is refused (403, code 50007)."""
        world = self.world
        body = req.json if isinstance(req.json, dict) else {}
        raw = str(body.get("recipient_id", ""))
        user = world.users.get(int(raw)) if raw.isdigit() else None
        if user is None or user.id == world.bot_user.id:
            raise DiscordHTTPError(400, ErrorCode.INVALID_RECIPIENTS, "Invalid Recipient(s)")
        return Reply(200, world.dm_channel(user).payload())

    async def get_application(self, req: Request) -> Reply:
        return Reply(200, self.world.application_payload())

    def _scope(self, req: Request) -> int | None:
        """The guild of a command route (None: global), after checking the application."""
        if req.params["application_id"] != str(self.world.application_id):
            raise DiscordHTTPError(
                403, ErrorCode.UNAUTHORIZED, "Unauthorized: not your application"
            )
        if "guild_id" not in req.params:
            return None
        return self.world.guild_or_404(req.params["guild_id"]).id

    async def get_commands(self, req: Request) -> Reply:
        return Reply(200, [c.payload() for c in self.world.commands.get(self._scope(req), [])])

    async def put_commands(self, req: Request) -> Reply:
        """Bulk overwrite: a command that keeps its name and type keeps its id, as on Discord."""
        world = self.world
        scope = self._scope(req)
        validate_commands(req.json)
        old = {(c.type, c.name): c for c in world.commands.get(scope, [])}
        new = []
        for data in req.json:
            previous = old.get((int(data.get("type", 1)), str(data["name"])))
            command_id = previous.id if previous else world.snowflake()
            new.append(
                FakeCommand(command_id, world.application_id, scope, dict(data), world.snowflake())
            )
        world.commands[scope] = new
        world.command_puts.append(req.record)
        return Reply(200, [c.payload() for c in new])

    # -- interactions ---------------------------------------------------------------------------

    async def callback(self, req: Request) -> Reply:
        """The initial response: once, in time, of a type that fits the interaction."""
        world = self.world
        loop = asyncio.get_running_loop()
        raw_id = req.params["interaction_id"]
        interaction = world.interactions.get(int(raw_id)) if raw_id.isdigit() else None
        if interaction is None or interaction.token != req.params["token"]:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        req.record.interaction_id = interaction.id
        interaction.last_activity = loop.time()
        if interaction.acknowledged:
            raise DiscordHTTPError(
                400, ErrorCode.ALREADY_ACKNOWLEDGED, "Interaction has already been acknowledged."
            )
        if loop.time() - interaction.created > world.interaction_timeout:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_INTERACTION, "Unknown interaction")
        body = req.json
        if not isinstance(body, dict) or not isinstance(body.get("type"), int):
            raise form_error("type", "This field is required", "BASE_TYPE_REQUIRED")
        kind = int(body["type"])
        data = body.get("data") or {}
        if not isinstance(data, dict):
            raise form_error("data", "Must be an object.")
        if kind not in ALLOWED_RESPONSES[interaction.type]:
            raise form_error(
                "type",
                f"Response type {kind} is not valid for interaction type {interaction.type}.",
                "INTERACTION_RESPONSE_TYPE_INVALID",
            )
        message, event = self._respond(interaction, kind, data, req.files)
        interaction.acknowledged = True
        reply: JSON = {
            "interaction": {
                "id": str(interaction.id),
                "type": interaction.type,
                "response_message_loading": kind == ResponseType.DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        actions: list[Publish] = []
        if message is not None:
            interaction.committed_original_id = message.id
            reply["interaction"]["response_message_id"] = str(message.id)
            reply["resource"]["message"] = world.message_payload(message)
            if event:
                actions.append(publish(self.gateway, message, event))

        async def record_response() -> None:
            interaction.response_type = kind
            interaction.response_data = data
            if message is not None:
                interaction.original_message_id = message.id

        return Reply(200, reply, [*actions, record_response])

    def _respond(
        self, interaction: FakeInteraction, kind: int, data: JSON, files: list[Upload]
    ) -> tuple[FakeMessage | None, str]:
        """The message an initial response creates or edits, and the event that announces it."""
        world = self.world
        channel = world.channels[interaction.channel_id]
        if kind == ResponseType.CHANNEL_MESSAGE:
            message = new_message(
                world, channel, data, files, source="response", allowed_flags=INTERACTION_FLAGS,
                interaction=interaction, path="data.",
            )  # fmt: skip
            store(world, message)
            return message, "MESSAGE_CREATE"
        if kind == ResponseType.DEFERRED_CHANNEL_MESSAGE:
            message = FakeMessage(
                world.snowflake(),
                channel.id,
                channel.guild_id,
                world.bot_user,
                flags=(int(data.get("flags") or 0) & MessageFlag.EPHEMERAL) | MessageFlag.LOADING,
                source="response",
                interaction_id=interaction.id,
                webhook_id=world.application_id,
                type=message_type(interaction),
            )
            store(world, message)
            return message, "MESSAGE_CREATE"
        if kind == ResponseType.UPDATE_MESSAGE:
            message = world.messages[interaction.message_id or 0]
            apply_edit(world, message, data, files, allowed_flags=INTERACTION_FLAGS, path="data.")
            return message, "MESSAGE_UPDATE"
        if kind == ResponseType.DEFERRED_UPDATE_MESSAGE:
            # Nothing shows yet; "@original" is now the message the pressed button is on.
            return world.messages[interaction.message_id or 0], ""
        if kind == ResponseType.MODAL:
            validate_modal(data)  # the member sees the box; nothing is posted
            return None, ""
        validate_choices(data.get("choices"), _focused_type(interaction.data.get("options") or []))
        return None, ""

    def _token_interaction(self, req: Request) -> FakeInteraction:
        """The interaction of a webhook route's token, once it has been answered."""
        interaction = self.world.interactions_by_token.get(req.params["token"])
        if interaction is None or req.params["application_id"] != str(self.world.application_id):
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        req.record.interaction_id = interaction.id
        interaction.last_activity = asyncio.get_running_loop().time()
        if not interaction.acknowledged or interaction.type == InteractionType.AUTOCOMPLETE:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_WEBHOOK, "Unknown Webhook")
        return interaction

    async def followup(self, req: Request) -> Reply:
        """A follow-up; the first one after a deferred response replaces "thinking"."""
        world = self.world
        interaction = self._token_interaction(req)
        payload = req.json or {}
        loading = world.messages.get(interaction.committed_original_id or 0)
        actions: list[Publish] = []
        if loading is not None and loading.loading:
            validate_message(payload, allowed_flags=INTERACTION_FLAGS)
            edit = {k: v for k, v in payload.items() if k != "flags"}
            apply_edit(world, loading, edit, req.files, allowed_flags=INTERACTION_FLAGS)
            message = loading
        else:
            channel = world.channels[interaction.channel_id]
            message = new_message(
                world, channel, payload, req.files, source="followup",
                allowed_flags=INTERACTION_FLAGS, interaction=interaction,
            )  # fmt: skip
            store(world, message)

            async def record_followup() -> None:
                interaction.followup_ids.append(message.id)

            actions.append(record_followup)
        actions.insert(0, publish(self.gateway, message))
        if req.query.get("wait", "false").lower() in ("1", "true"):
            return Reply(200, world.message_payload(message), actions)
        return Reply(204, None, actions)

    async def get_webhook_message(self, req: Request) -> Reply:
        """``@original`` or a follow-up of this interaction."""
        _, message = self._webhook_message(req)
        return Reply(200, self.world.message_payload(message))

    def _webhook_message(self, req: Request) -> tuple[FakeInteraction, FakeMessage]:
        interaction = self._token_interaction(req)
        raw = req.params["message_id"]
        if raw == "@original":
            message = self.world.messages.get(interaction.committed_original_id or 0)
        else:
            found = self.world.messages.get(int(raw)) if raw.isdigit() else None
            message = found if found is not None and _answers(found, interaction) else None
        if message is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MESSAGE, "Unknown Message")
        return interaction, message

    async def edit_webhook_message(self, req: Request) -> Reply:
        """Edit ``@original`` (for a deferred button, the message the button is on) or a
        follow-up of this interaction."""
        _, message = self._webhook_message(req)
        apply_edit(self.world, message, req.json or {}, req.files, allowed_flags=INTERACTION_FLAGS)
        return Reply(
            200,
            self.world.message_payload(message),
            [publish(self.gateway, message, "MESSAGE_UPDATE")],
        )

    async def delete_webhook_message(self, req: Request) -> Reply:
        """Delete ``@original`` or a follow-up: it is gone for everyone, and the next
        follow-up is a new message."""
        _, message = self._webhook_message(req)
        del self.world.messages[message.id]
        payload = {"id": str(message.id), "channel_id": str(message.channel_id)}
        if message.guild_id:
            payload["guild_id"] = str(message.guild_id)

        async def announce() -> None:
            if message.published and not message.ephemeral and not message.loading:
                await self.gateway.dispatch("MESSAGE_DELETE", payload)

        return Reply(204, None, [announce])

    # -- channels and messages ------------------------------------------------------------------

    async def get_member(self, req: Request) -> Reply:
        """One member of a guild, as Discord gives it without the members intent."""
        world = self.world
        guild = world.guild_or_404(req.params["guild_id"])
        raw = req.params["user_id"]
        member = guild.members.get(int(raw)) if raw.isdigit() else None
        if member is None:
            raise DiscordHTTPError(404, ErrorCode.UNKNOWN_MEMBER, "Unknown Member")
        return Reply(200, member.payload())

    async def list_members(self, req: Request) -> Reply:
        """A page of a guild's members by ascending user id: ``limit`` (1 to 1000, default
        1) of those whose id is above ``after``. Discord answers only an application whose
        Server Members intent is on in the developer portal (:attr:`World.members_intent`),
        whatever intents its gateway session asked for."""
        world = self.world
        guild = world.guild_or_404(req.params["guild_id"])
        if not world.members_intent:
            raise DiscordHTTPError(403, ErrorCode.MISSING_ACCESS, "Missing Access")
        limit, after = req.query.get("limit", "1"), req.query.get("after", "0")
        if not limit.isdigit() or not 1 <= int(limit) <= MAX_MEMBER_PAGE:
            raise form_error(
                "limit", f"int value should be <= {MAX_MEMBER_PAGE} and >= 1.", "NUMBER_TYPE_MAX"
            )
        if not after.isdigit():
            raise form_error("after", "Value is not snowflake.", "NUMBER_TYPE_COERCE")
        page = heapq.nsmallest(
            int(limit), (m for m in guild.members.values() if m.id > int(after)), key=_user_id
        )
        written: list[str] = []
        for start in range(0, len(page), _SLICE):
            written += (json.dumps(m.payload()) for m in page[start : start + _SLICE])
            await asyncio.sleep(0)
        return Reply(200, EncodedJSON("[" + ",".join(written) + "]"))

    async def get_channel(self, req: Request) -> Reply:
        return Reply(200, self.world.channel_or_404(req.params["channel_id"]).payload())

    async def list_messages(self, req: Request) -> Reply:
        world = self.world
        channel = world.channel_or_404(req.params["channel_id"])
        limit = max(1, min(100, int(req.query.get("limit", "50"))))
        visible = [
            m
            for m in world.messages.values()
            if m.channel_id == channel.id and not m.ephemeral and not m.loading
        ]
        if "before" in req.query:
            visible = [m for m in visible if m.id < int(req.query["before"])]
        if "after" in req.query:
            visible = [m for m in visible if m.id > int(req.query["after"])][:limit]
        visible.sort(key=lambda m: m.id, reverse=True)
        return Reply(200, [world.message_payload(m) for m in visible[:limit]])

    async def get_message(self, req: Request) -> Reply:
        channel = self.world.channel_or_404(req.params["channel_id"])
        message = self.world.message_or_404(channel, req.params["message_id"])
        return Reply(200, self.world.message_payload(message))

    async def create_message(self, req: Request) -> Reply:
        world = self.world
        channel = world.channel_or_404(req.params["channel_id"])
        if channel.recipient is not None:  # a DM: no permissions, but the user's consent
            if not channel.recipient.accepts_dms:
                raise DiscordHTTPError(
                    403, ErrorCode.CANNOT_MESSAGE_USER, "Cannot send messages to this user"
                )
        else:
            world.require(
                channel, Perm.SEND_MESSAGES_IN_THREADS if channel.is_thread else Perm.SEND_MESSAGES
            )
            if req.files:
                world.require(channel, Perm.ATTACH_FILES)
        message = new_message(
            world, channel, req.json or {}, req.files, source="channel", allowed_flags=CHANNEL_FLAGS
        )
        announce = [publish(self.gateway, message)]
        if reopen_for_post(world, channel, user_id=world.bot_user.id):
            announce.insert(0, self._thread_update(channel))
        store(world, message)
        return Reply(200, world.message_payload(message), announce)

    def _thread_update(self, thread: FakeChannel) -> Publish:
        payload = thread.payload()

        async def announce() -> None:
            await self.gateway.dispatch("THREAD_UPDATE", payload)

        return announce

    async def modify_channel(self, req: Request) -> Reply:
        """A thread renamed, archived, reopened or locked (see `threads`)."""
        world = self.world
        channel = world.channel_or_404(req.params["channel_id"])
        if not channel.is_thread:
            raise not_modelled("changing a channel that is not a thread")
        modify_thread(world, channel, req.json or {}, user_id=world.bot_user.id)
        return Reply(200, channel.payload(), [self._thread_update(channel)])

    async def edit_message(self, req: Request) -> Reply:
        world = self.world
        channel = world.channel_or_404(req.params["channel_id"])
        message = world.message_or_404(channel, req.params["message_id"])
        if channel.archived:
            raise archived_error()
        if message.author.id != world.bot_user.id:
            raise DiscordHTTPError(
                403,
                ErrorCode.CANNOT_EDIT_OTHERS_MESSAGE,
                "Cannot edit a message authored by another user",
            )
        apply_edit(world, message, req.json or {}, req.files, allowed_flags=CHANNEL_FLAGS)
        return Reply(
            200, world.message_payload(message), [publish(self.gateway, message, "MESSAGE_UPDATE")]
        )

    async def create_message_thread(self, req: Request) -> Reply:
        """A public thread started on a message: it takes the message's id."""
        world = self.world
        parent = world.channel_or_404(req.params["channel_id"])
        message = world.message_or_404(parent, req.params["message_id"])
        if parent.type != ChannelType.TEXT:
            raise form_error("channel_id", "Cannot start a thread here.")
        world.require(parent, Perm.CREATE_PUBLIC_THREADS)
        if message.thread_id is not None:
            raise DiscordHTTPError(
                400,
                ErrorCode.THREAD_ALREADY_CREATED,
                "A thread has already been created for this message",
            )
        thread = self._open_thread(parent, req.json or {}, thread_id=message.id)
        message.thread_id = thread.id
        return self._thread_created(thread)

    async def create_thread(self, req: Request) -> Reply:
        """A public thread started in a channel without a message (Discord's default for
        this route is a private thread: the fake models public ones only, so a bot that
        forgets to ask for a public thread is told)."""
        parent = self.world.channel_or_404(req.params["channel_id"])
        if parent.type != ChannelType.TEXT:
            raise form_error("channel_id", "Cannot start a thread here.")
        self.world.require(parent, Perm.CREATE_PUBLIC_THREADS)
        body = req.json or {}
        if body.get("type") != ChannelType.PUBLIC_THREAD:
            raise not_modelled(f"a thread of type {body.get('type')!r} (private by default)")
        return self._thread_created(self._open_thread(parent, body, thread_id=None))

    async def delete_channel(self, req: Request) -> Reply:
        """A thread deleted by its owner (the bot) or by someone who may manage threads."""
        world = self.world
        thread = world.channel_or_404(req.params["channel_id"])
        if not thread.is_thread:
            raise not_modelled("deleting a channel that is not a thread")
        if thread.owner_id != world.bot_user.id:
            world.require(thread, Perm.MANAGE_THREADS)
        gone = world.remove_thread(thread)

        async def announce() -> None:
            await self.gateway.dispatch("THREAD_DELETE", gone)

        return Reply(200, thread.payload(), [announce])

    def _open_thread(
        self, parent: FakeChannel, body: JSON, *, thread_id: int | None
    ) -> FakeChannel:
        check_length(body.get("name"), "name", low=1, high=100)
        duration = body.get("auto_archive_duration") or 1440  # the parent's default
        if duration not in ARCHIVE_DURATIONS:
            raise form_error("auto_archive_duration", f"Value must be one of {ARCHIVE_DURATIONS}.")
        world = self.world
        world.check_thread_cap(parent.guild_id)
        thread = world.new_thread(
            parent, body["name"], owner_id=world.bot_user.id, thread_id=thread_id
        )
        thread.auto_archive_duration = duration
        return thread

    def _thread_created(self, thread: FakeChannel) -> Reply:
        created = {**thread.payload(), "newly_created": True}

        async def announce() -> None:
            await self.gateway.dispatch("THREAD_CREATE", created)

        return Reply(201, thread.payload(), [announce])


def _answers(message: FakeMessage, interaction: FakeInteraction) -> bool:
    """Whether ``message`` is one the interaction's token may reach: one it sent, or the
    message its initial response targets."""
    own = message.interaction_id == interaction.id
    return own or message.id == interaction.committed_original_id


def _user_id(member: FakeMember) -> int:
    return member.id


def _focused_type(options: list[JSON]) -> int | None:
    """The type of the option an autocomplete interaction is about."""
    return next((int(o["type"]) for o in options if o.get("focused")), None)


def _route(method: str, template: str, handler: Handler, *, auth: bool = True) -> Route:
    pattern = re.sub(r"\{(\w+)\}", r"(?P<\1>[^/]+)", template)
    return Route(method, template, handler, auth, re.compile(f"^{pattern}$"))


_COMMANDS = "/applications/{application_id}/commands"
_GUILD_COMMANDS = "/applications/{application_id}/guilds/{guild_id}/commands"
_WEBHOOK = "/webhooks/{application_id}/{token}"

#: Every route the fake knows.
ROUTES: Final[tuple[Route, ...]] = (
    _route("GET", "/users/@me", RestApi.get_me),
    _route("POST", "/users/@me/channels", RestApi.open_dm),
    _route("GET", "/oauth2/applications/@me", RestApi.get_application),
    _route("GET", _COMMANDS, RestApi.get_commands),
    _route("PUT", _COMMANDS, RestApi.put_commands),
    _route("PUT", _GUILD_COMMANDS, RestApi.put_commands),
    _route("POST", "/interactions/{interaction_id}/{token}/callback", RestApi.callback, auth=False),
    _route("POST", _WEBHOOK, RestApi.followup, auth=False),
    _route("GET", _WEBHOOK + "/messages/{message_id}", RestApi.get_webhook_message, auth=False),
    _route("PATCH", _WEBHOOK + "/messages/{message_id}", RestApi.edit_webhook_message, auth=False),
    _route(
        "DELETE", _WEBHOOK + "/messages/{message_id}", RestApi.delete_webhook_message, auth=False
    ),
    _route("GET", "/guilds/{guild_id}/members", RestApi.list_members),
    _route("GET", "/guilds/{guild_id}/members/{user_id}", RestApi.get_member),
    _route("GET", "/channels/{channel_id}", RestApi.get_channel),
    _route("PATCH", "/channels/{channel_id}", RestApi.modify_channel),
    _route("DELETE", "/channels/{channel_id}", RestApi.delete_channel),
    _route("POST", "/channels/{channel_id}/threads", RestApi.create_thread),
    _route("GET", "/channels/{channel_id}/messages", RestApi.list_messages),
    _route("POST", "/channels/{channel_id}/messages", RestApi.create_message),
    _route("GET", "/channels/{channel_id}/messages/{message_id}", RestApi.get_message),
    _route("PATCH", "/channels/{channel_id}/messages/{message_id}", RestApi.edit_message),
    _route(
        "POST",
        "/channels/{channel_id}/messages/{message_id}/threads",
        RestApi.create_message_thread,
    ),
)
ROUTE_KEYS: Final = frozenset(r.key for r in ROUTES)

#: Route keys the fault tests aim at.
CALLBACK: Final = "POST /interactions/{interaction_id}/{token}/callback"
CREATE_MESSAGE: Final = "POST /channels/{channel_id}/messages"
OPEN_DM: Final = "POST /users/@me/channels"
MODIFY_CHANNEL: Final = "PATCH /channels/{channel_id}"
