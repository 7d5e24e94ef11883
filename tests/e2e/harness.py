"""The test-facing API of the end-to-end harness.

Why a layer on top of :mod:`tests.e2e.fake_discord`: tests should read like what a player does
("run /move as Alice in #shogi, then click Accept") and what they see ("an ephemeral reply
with this text", "a PNG"), not like HTTP.  This module provides:

* :class:`FakeDiscord` - the fake server plus building guilds/members, sending slash commands,
  autocomplete, clicks, selects and modal submissions as a member, and reading back all the bot
  sent.  Every wait is event driven and has a timeout that fails with a description of what the
  fake saw (:class:`HarnessTimeout`).
* :class:`DiscordPointer` - points discord.py at the fake (``Route.BASE``, ``DEFAULT_GATEWAY``,
  ``Asset.BASE``) and restores it; also usable in a separate bot process.
* :class:`BotRunner` - starts any ``discord.Client``/``commands.Bot`` (or a factory returning
  one) against the fake, waits for ``on_ready``, and closes it cleanly.
* :class:`E2EGuard` - what fails a test at teardown: discord.py ERROR logs, exceptions that
  reached the event loop, leaked tasks (plus the fake's unknown routes and unexpected 4xx).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Self, TypeVar, cast

import discord
import discord.asset
import discord.gateway
import discord.http
import yarl

from tests.e2e.fake_discord import (
    ChannelType,
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeDiscordServer,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUpload,
    FakeUser,
    InteractionType,
    Perm,
    RequestRecord,
    ResponseType,
    UserCannotDoThat,
)

__all__ = [
    "BotRunner",
    "Choice",
    "DiscordPointer",
    "E2EGuard",
    "FakeDiscord",
    "HarnessTimeout",
    "InteractionRejected",
    "InteractionResult",
]

JSON = dict[str, Any]
ClientT = TypeVar("ClientT", bound=discord.Client)

#: Seconds any single wait may take before the test fails.
DEFAULT_TIMEOUT = 5.0
#: Seconds without bot traffic after which an interaction counts as finished.
DEFAULT_SETTLE = 0.05


class HarnessTimeout(AssertionError):
    """A wait ran out: the message says what was awaited and what the fake saw meanwhile."""


class InteractionRejected(AssertionError):
    """The fake refused the bot's answer to an interaction (late, second, or malformed)."""

    def __init__(self, interaction: FakeInteraction, record: RequestRecord) -> None:
        super().__init__(f"the fake refused the bot's answer to {interaction.label}: {record}")
        self.interaction = interaction
        self.record = record


@dataclass(frozen=True)
class Choice:
    """One autocomplete choice the bot offered."""

    name: str
    value: str | int | float


# --- pointing discord.py at the fake -------------------------------------------------------------


class DiscordPointer:
    """Points discord.py's three base URLs at the fake, and restores them on exit.

    Works as ``with`` and ``async with``.  ``discord.http._set_api_version()`` overwrites
    ``Route.BASE``; call it (if at all) before entering.
    """

    def __init__(self, api_base: str, gateway_url: str, cdn_base: str) -> None:
        self.api_base = api_base
        self.gateway_url = gateway_url
        self.cdn_base = cdn_base
        self._saved: tuple[str, yarl.URL, str] | None = None

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

    async def __aenter__(self) -> Self:
        return self.__enter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.__exit__(exc_type, exc, tb)

    @classmethod
    def from_url(cls, url: str) -> DiscordPointer:
        """From the fake's base URL alone (``FakeDiscord.url``), e.g. passed to a bot process."""
        base = yarl.URL(url)
        gateway = base.with_scheme("wss" if base.scheme == "https" else "ws").with_path("/gateway/")
        return cls(str(base.with_path("/api/v10")), str(gateway), str(base.with_path("/cdn")))

    @staticmethod
    def is_pointed_at(api_base: str) -> bool:
        return api_base == discord.http.Route.BASE


# --- results of interactions ---------------------------------------------------------------------


class InteractionResult:
    """What the bot did in answer to one interaction; fields fill in as the bot answers.

    ``reply`` is the message the user sees as the answer (the initial response, the updated
    message, or - after a deferred update - the first follow-up).  ``sent`` is everything the bot
    posted anywhere since the interaction was dispatched (including channel messages that are
    not tied to the interaction token, e.g. a board posted in a game thread).
    """

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.interaction.label} response={self.response_type} "
            f"content={self.content!r}>"
        )

    # -- waiting --------------------------------------------------------------------------------

    def _unexpected_rejection(self) -> RequestRecord | None:
        expected = self.fake.expected_rejection_codes
        return next((r for r in self.interaction.rejections if r.code not in expected), None)

    async def wait_response(self, timeout: float | None = None) -> Self:
        """Until the initial response has been written back to the bot.

        Fails at once (:class:`InteractionRejected`) if the fake refuses an answer with a code
        the test did not declare with :meth:`FakeDiscord.expect_rejections`; declared ones are
        waited through, since the bot may recover.
        """
        await self.fake.wait_for(
            lambda: (
                self.interaction.response_type is not None
                or self._unexpected_rejection() is not None
            ),
            what=f"the bot's initial response to {self.interaction.label}",
            timeout=timeout,
        )
        refused = self._unexpected_rejection()
        if self.interaction.response_type is None and refused is not None:
            raise InteractionRejected(self.interaction, refused)
        return self

    async def wait_final(
        self,
        timeout: float | None = None,
        *,
        quiet: float | None = None,
        scope: str = "all",
    ) -> Self:
        """Initial response, then (after a defer) the real answer, then ``quiet`` seconds of calm.

        ``scope="all"`` waits until the bot makes no HTTP call at all (right for one player);
        ``scope="interaction"`` only for calls carrying this interaction's token (for many
        games in parallel).
        """
        await self.wait_response(timeout)
        if self.interaction.response_type == ResponseType.DEFERRED_CHANNEL_MESSAGE:
            await self.fake.wait_for(
                lambda: (
                    (self.original is not None and not self.original.loading)
                    or bool(self.interaction.followup_ids)
                ),
                what=f"the answer after deferring {self.interaction.label}",
                timeout=timeout,
            )
        elif self.interaction.response_type == ResponseType.DEFERRED_UPDATE_MESSAGE:
            pass  # the bot may or may not edit; the quiet period below covers it
        await self.fake.wait_quiet(
            quiet,
            timeout=timeout,
            interaction=self.interaction if scope == "interaction" else None,
            since=self.interaction.created,
        )
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> Self:
        """Until at least ``count`` follow-ups have been sent.

        As on Discord, the first follow-up after a deferred response replaces the "thinking"
        message: it is the :attr:`original`, not a follow-up.
        """
        await self.wait_response(timeout)
        await self.fake.wait_for(
            lambda: len(self.interaction.followup_ids) >= count,
            what=f"{count} follow-up(s) to {self.interaction.label}",
            timeout=timeout,
        )
        return self

    async def wait_rejection(self, timeout: float | None = None) -> RequestRecord:
        """Until the fake refuses a call for this interaction; returns the refused request."""
        await self.fake.wait_for(
            lambda: bool(self.interaction.rejections),
            what=f"a refused answer to {self.interaction.label}",
            timeout=timeout,
        )
        return self.interaction.rejections[0]

    # -- reading --------------------------------------------------------------------------------

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.response_type in (
            ResponseType.DEFERRED_CHANNEL_MESSAGE,
            ResponseType.DEFERRED_UPDATE_MESSAGE,
        )

    @property
    def original(self) -> FakeMessage | None:
        """The message of the initial response (new, or the one a component sat on)."""
        if self.interaction.original_message_id is None:
            return None
        return self.fake.messages.get(self.interaction.original_message_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [
            m
            for m in (self.fake.messages.get(i) for i in self.interaction.followup_ids)
            if m is not None and not m.deleted
        ]

    @property
    def messages(self) -> list[FakeMessage]:
        """Messages tied to this interaction: the response's own message and the follow-ups."""
        out: list[FakeMessage] = []
        original = self.original
        if (
            original is not None
            and not original.deleted
            and (original.interaction_id == self.interaction.id or self.response_type == 7)
        ):
            out.append(original)
        out.extend(self.followups)
        return out

    @property
    def reply(self) -> FakeMessage | None:
        if self.response_type in (4, 5, 7):
            original = self.original
            if original is not None and not original.deleted:
                return original
        followups = self.followups
        return followups[0] if followups else None

    @property
    def content(self) -> str:
        reply = self.reply
        return "" if reply is None else reply.content

    @property
    def ephemeral(self) -> bool:
        reply = self.reply
        return bool(reply and reply.ephemeral)

    @property
    def files(self) -> list[FakeAttachment]:
        return [a for m in self.messages for a in m.attachments]

    @property
    def custom_ids(self) -> list[str]:
        return [cid for m in self.messages for cid in m.custom_ids]

    @property
    def choices(self) -> list[Choice]:
        if self.response_type != ResponseType.AUTOCOMPLETE_RESULT:
            return []
        data = self.interaction.response_data or {}
        return [Choice(c["name"], c["value"]) for c in data.get("choices", [])]

    @property
    def modal(self) -> JSON | None:
        if self.response_type != ResponseType.MODAL:
            return None
        return self.interaction.response_data

    @property
    def rejections(self) -> list[RequestRecord]:
        return list(self.interaction.rejections)

    @property
    def sent(self) -> list[FakeMessage]:
        """Every message the bot created since this interaction was dispatched."""
        return [
            m
            for m in self.fake.messages.values()
            if m.id > self.interaction.id
            and m.published
            and m.author.id == self.fake.bot_user.id
            and not m.deleted
        ]

    @property
    def channel_messages(self) -> list[FakeMessage]:
        """Messages the bot posted through the channel API since the interaction."""
        return [m for m in self.sent if m.source == "channel"]

    @property
    def threads(self) -> list[FakeChannel]:
        """Threads created since the interaction."""
        return [c for c in self.fake.threads() if c.id > self.interaction.id]


# --- the fake with a test API --------------------------------------------------------------------


class FakeDiscord(FakeDiscordServer):
    """The fake Discord server plus the API tests use.  See the module docstring."""

    def __init__(
        self,
        *,
        default_timeout: float = DEFAULT_TIMEOUT,
        settle: float = DEFAULT_SETTLE,
        **server_options: Any,
    ) -> None:
        super().__init__(**server_options)
        self.default_timeout = default_timeout
        self.settle = settle

    # -- setup ----------------------------------------------------------------------------------

    def patched_discord(self) -> DiscordPointer:
        """``with``/``async with``: discord.py talks to this fake until exit."""
        return DiscordPointer(self.api_base, self.gateway_url, self.cdn_base)

    def add_guild(
        self,
        name: str = "Shogi Club",
        *,
        channels: Iterable[str] = ("general",),
        owner: FakeUser | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, the bot as a member, and text ``channels``.

        Add guilds before the bot connects; later ones are announced with GUILD_CREATE only if
        you call :meth:`announce_guild`.
        """
        guild = self.new_guild(name, owner=owner)
        for channel_name in channels:
            self.new_channel(guild, channel_name)
        return guild

    async def announce_guild(self, guild: FakeGuild) -> None:
        """Send GUILD_CREATE for a guild added while the bot is connected (the bot "joins")."""
        session = self.session
        if session is not None:
            await self.dispatch(
                "GUILD_CREATE", self.guild_create_payload(guild, session.intents), guild_id=guild.id
            )

    def add_member(
        self,
        guild: FakeGuild,
        name: str,
        *,
        bot: bool = False,
        roles: Iterable[FakeRole] = (),
        nick: str | None = None,
        user: FakeUser | None = None,
    ) -> FakeMember:
        """A member (a new user unless ``user`` is given, e.g. the same person in two guilds)."""
        fake_user = user or self.new_user(name, bot=bot)
        member = FakeMember(guild.id, fake_user, [r.id for r in roles], nick)
        guild.members[fake_user.id] = member
        return member

    def add_role(
        self,
        guild: FakeGuild,
        name: str,
        *,
        permissions: int = 0,
        mentionable: bool = False,
    ) -> FakeRole:
        role = FakeRole(
            self.snowflake(),
            guild.id,
            name,
            permissions,
            len(guild.roles),
            mentionable=mentionable,
        )
        guild.roles[role.id] = role
        return role

    def add_channel(self, guild: FakeGuild, name: str) -> FakeChannel:
        return self.new_channel(guild, name)

    def add_thread(self, parent: FakeChannel, name: str, *, owner: FakeMember) -> FakeChannel:
        """A thread a member made (the bot learns of it from GUILD_CREATE or when used)."""
        return self.new_thread(parent, name, owner=owner.user)

    def channel(self, name: str, guild: FakeGuild | None = None) -> FakeChannel:
        """A channel or thread by name (in ``guild`` if given)."""
        for channel in self.channels.values():
            if channel.name == name and (guild is None or channel.guild_id == guild.id):
                return channel
        raise LookupError(f"no channel named {name!r}")

    @property
    def default_channel(self) -> FakeChannel:
        for channel in self.channels.values():
            if channel.type == ChannelType.TEXT:
                return channel
        raise LookupError("no text channel: call add_guild() first")

    @property
    def default_user(self) -> FakeMember:
        guild_id = self.default_channel.guild_id
        for member in self.guilds[guild_id or 0].members.values():
            if not member.user.bot:
                return member
        raise LookupError("no human member: call add_member() first")

    def make_admin(self, guild: FakeGuild, member: FakeMember) -> FakeRole:
        """Give ``member`` a role with ADMINISTRATOR."""
        role = self.add_role(guild, "Admin", permissions=Perm.ADMINISTRATOR)
        member.roles.append(role.id)
        return role

    # -- acting as users ------------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeMember | FakeUser | None = None,
        channel: FakeChannel | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Run ``/command`` (``"group sub"`` for subcommands) with ``options`` as ``user``.

        Values are plain Python: str, int, float, bool, a FakeMember/FakeUser for user options,
        FakeChannel, FakeRole, FakeUpload for attachments.  With ``wait`` (the default) this
        returns after :meth:`InteractionResult.wait_final`.
        """
        channel = channel or self.default_channel
        data = self.build_command_data(command, dict(options or {}), channel=channel)
        interaction = await self.create_interaction(
            InteractionType.APPLICATION_COMMAND,
            user=user or self.default_user,
            channel=channel,
            data=data,
            label=f"/{command.lstrip('/')}",
        )
        result = InteractionResult(self, interaction)
        if wait:
            await result.wait_final(timeout)
        return result

    async def autocomplete(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        user: FakeMember | FakeUser | None = None,
        channel: FakeChannel | None = None,
        timeout: float | None = None,
    ) -> list[Choice]:
        """What the bot suggests while ``user`` types into option ``focused`` of ``/command``."""
        channel = channel or self.default_channel
        data = self.build_command_data(
            command, dict(options or {}), channel=channel, focused=focused
        )
        interaction = await self.create_interaction(
            InteractionType.AUTOCOMPLETE,
            user=user or self.default_user,
            channel=channel,
            data=data,
            label=f"autocomplete /{command.lstrip('/')} {focused}",
        )
        result = InteractionResult(self, interaction)
        await result.wait_response(timeout)
        if result.response_type != ResponseType.AUTOCOMPLETE_RESULT:
            raise AssertionError(f"autocomplete answered with type {result.response_type}")
        return result.choices

    def _find_component_message(
        self, where: FakeMessage | InteractionResult | int, custom_id: str
    ) -> FakeMessage:
        if isinstance(where, InteractionResult):
            for message in reversed(where.messages):
                if message.component(custom_id) is not None:
                    return message
            raise UserCannotDoThat(
                f"no component {custom_id!r} on the messages of {where.interaction.label} "
                f"(custom_ids: {where.custom_ids})"
            )
        found = self.messages.get(where if isinstance(where, int) else where.id)
        if found is None:
            raise LookupError(f"no message {where}")
        return found

    def _check_can_use(
        self, message: FakeMessage, custom_id: str, user: FakeUser, kinds: tuple[int, ...]
    ) -> JSON:
        if message.deleted:
            raise UserCannotDoThat(f"message {message.id} was deleted")
        component = message.component(custom_id)
        if component is None:
            raise UserCannotDoThat(
                f"message {message.id} has no component {custom_id!r} (it has {message.custom_ids})"
            )
        if component.get("type") not in kinds:
            raise UserCannotDoThat(f"{custom_id!r} is a type {component.get('type')} component")
        if component.get("disabled"):
            raise UserCannotDoThat(f"{custom_id!r} is disabled")
        if message.ephemeral:
            owner = self.interactions.get(message.interaction_id or 0)
            if owner is not None and owner.user.id != user.id:
                raise UserCannotDoThat(
                    f"{user.username} cannot see {owner.user.username}'s ephemeral message"
                )
        return component

    async def click(
        self,
        message: FakeMessage | InteractionResult | int,
        custom_id: str,
        *,
        user: FakeMember | FakeUser | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Click the button ``custom_id`` on ``message`` (or on a result's messages) as ``user``."""
        return await self._component(message, custom_id, user, None, wait, timeout, (2,))

    async def select(
        self,
        message: FakeMessage | InteractionResult | int,
        custom_id: str,
        values: Iterable[str],
        *,
        user: FakeMember | FakeUser | None = None,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Pick ``values`` in the select menu ``custom_id``."""
        return await self._component(
            message, custom_id, user, list(values), wait, timeout, (3, 5, 6, 7, 8)
        )

    async def _component(
        self,
        where: FakeMessage | InteractionResult | int,
        custom_id: str,
        user: FakeMember | FakeUser | None,
        values: list[str] | None,
        wait: bool,
        timeout: float | None,
        kinds: tuple[int, ...],
    ) -> InteractionResult:
        message = self._find_component_message(where, custom_id)
        actor = user or self.default_user
        actor_user = actor.user if isinstance(actor, FakeMember) else actor
        component = self._check_can_use(message, custom_id, actor_user, kinds)
        data: JSON = {"custom_id": custom_id, "component_type": component["type"]}
        if values is not None:
            if component["type"] == 3:
                allowed = {o["value"] for o in component.get("options", [])}
                if not set(values) <= allowed:
                    raise UserCannotDoThat(f"{values} are not all options of {custom_id!r}")
            low, high = component.get("min_values", 1), component.get("max_values", 1)
            if not low <= len(values) <= high:
                raise UserCannotDoThat(f"{custom_id!r} takes {low}-{high} values")
            data["values"] = values
        interaction = await self.create_interaction(
            InteractionType.MESSAGE_COMPONENT,
            user=actor,
            channel=self.channels[message.channel_id],
            data=data,
            message=message,
            label=f"component {custom_id!r}",
        )
        result = InteractionResult(self, interaction)
        if wait:
            await result.wait_final(timeout)
        return result

    async def submit_modal(
        self,
        shown: InteractionResult,
        values: Mapping[str, str],
        *,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """Fill in and submit the modal the bot showed in answer to ``shown``."""
        modal = shown.modal
        if modal is None:
            raise UserCannotDoThat(f"{shown.interaction.label} did not open a modal")

        def submitted(component: JSON) -> JSON:
            cid = component.get("custom_id", "")
            value = values.get(cid, component.get("value") or "")
            if component.get("required", True) and not value and component.get("type") == 4:
                raise UserCannotDoThat(f"the modal field {cid!r} is required")
            low, high = component.get("min_length", 0), component.get("max_length", 4000)
            if value and not low <= len(value) <= high:
                raise UserCannotDoThat(f"the modal field {cid!r} takes {low}-{high} characters")
            return {"type": component.get("type", 4), "custom_id": cid, "value": value}

        components: list[JSON] = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                children = [submitted(c) for c in top.get("components", [])]
                components.append({"type": 1, "components": children})
            elif top.get("type") == 18:
                components.append({"type": 18, "component": submitted(top["component"])})
        unknown = set(values) - {
            c.get("custom_id")
            for top in modal.get("components", [])
            for c in top.get("components", []) + ([top["component"]] if "component" in top else [])
        }
        if unknown:
            raise UserCannotDoThat(f"the modal has no fields {sorted(unknown)}")
        origin = shown.interaction
        message = self.messages.get(origin.message_id or 0)
        interaction = await self.create_interaction(
            InteractionType.MODAL_SUBMIT,
            user=origin.member or origin.user,
            channel=self.channels[origin.channel_id],
            data={"custom_id": modal["custom_id"], "components": components},
            message=message,
            label=f"modal {modal['custom_id']!r}",
        )
        result = InteractionResult(self, interaction)
        if wait:
            await result.wait_final(timeout)
        return result

    async def say(
        self,
        channel: FakeChannel,
        user: FakeMember | FakeUser,
        content: str,
        *,
        files: Iterable[FakeUpload] = (),
    ) -> FakeMessage:
        """``user`` posts a plain message (MESSAGE_CREATE)."""
        return await self.post_user_message(channel, user, content, files=files)

    # -- reading back ---------------------------------------------------------------------------

    def sent_messages(
        self,
        channel: FakeChannel | None = None,
        *,
        ephemeral: bool | None = False,
        include_deleted: bool = False,
    ) -> list[FakeMessage]:
        """Messages the bot sent (oldest first); ``ephemeral=None`` includes both kinds."""
        return [
            m
            for m in self.messages.values()
            if m.author.id == self.bot_user.id
            and m.published
            and (channel is None or m.channel_id == channel.id)
            and (ephemeral is None or m.ephemeral == ephemeral)
            and (include_deleted or not m.deleted)
        ]

    def ephemeral_messages(self, user: FakeMember | FakeUser | None = None) -> list[FakeMessage]:
        """Ephemeral messages, optionally only those ``user`` could see."""
        user_id = None if user is None else user.id
        out = []
        for message in self.sent_messages(ephemeral=True):
            owner = self.interactions.get(message.interaction_id or 0)
            if user_id is None or (owner is not None and owner.user.id == user_id):
                out.append(message)
        return out

    def channel_history(self, channel: FakeChannel) -> list[FakeMessage]:
        """What everyone sees in a channel or thread: bot and user messages, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id
            and m.published
            and not m.deleted
            and not m.ephemeral
            and not m.loading
        ]

    def last_message(self, channel: FakeChannel) -> FakeMessage:
        history = self.channel_history(channel)
        if not history:
            raise LookupError(f"nothing was posted in #{channel.name}")
        return history[-1]

    def threads(self, parent: FakeChannel | None = None) -> list[FakeChannel]:
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (parent is None or c.parent_id == parent.id)
        ]

    def files(self, channel: FakeChannel | None = None) -> list[FakeAttachment]:
        """Every file the bot sent (in ``channel`` if given), oldest first."""
        return [a for m in self.sent_messages(channel, ephemeral=None) for a in m.attachments]

    def registered_commands(self, guild: FakeGuild | None = None) -> list[FakeCommand]:
        return list(self.commands.get(None if guild is None else guild.id, []))

    # -- waiting --------------------------------------------------------------------------------

    def _recent(self, count: int = 8) -> str:
        lines = [f"  {r}" for r in self.requests[-count:]]
        return "\n".join(lines) or "  (no requests)"

    async def wait_for(
        self,
        predicate: Callable[[], bool],
        *,
        what: str,
        timeout: float | None = None,
    ) -> None:
        """Until ``predicate()`` holds (checked whenever the fake's state changes)."""
        timeout = self.default_timeout if timeout is None else timeout
        cond = self.condition
        try:
            async with cond:
                await asyncio.wait_for(cond.wait_for(predicate), timeout)
        except TimeoutError:
            raise HarnessTimeout(
                f"waited {timeout:g}s for {what}; last requests the fake saw:\n{self._recent()}"
                + (f"\nunknown routes: {self.unknown_requests}" if self.unknown_requests else "")
            ) from None

    async def wait_quiet(
        self,
        quiet: float | None = None,
        *,
        timeout: float | None = None,
        interaction: FakeInteraction | None = None,
        since: float | None = None,
    ) -> None:
        """Until no bot HTTP call is in flight and none arrived for ``quiet`` seconds.

        The calm is counted from ``since`` (loop time; default: now), so calling this right
        after sending an interaction waits at least ``quiet`` even if the bot has not started.
        With ``interaction``, only calls for that interaction's token count.
        """
        quiet = self.settle if quiet is None else quiet
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        start = loop.time() if since is None else since
        deadline = loop.time() + timeout
        cond = self.condition
        while True:
            now = loop.time()
            if interaction is None:
                busy, last = self.in_flight > 0, max(self.last_activity, start)
            else:
                busy, last = False, max(interaction.last_activity, start)
            if not busy and now - last >= quiet:
                return
            if now >= deadline:
                raise HarnessTimeout(
                    f"the bot did not go quiet for {quiet:g}s within {timeout:g}s; "
                    f"last requests:\n{self._recent()}"
                )
            pause = deadline - now if busy else min(deadline - now, quiet - (now - last))
            async with cond:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(cond.wait(), max(pause, 0.0))

    async def wait_connected(self, *, identifies: int = 1, timeout: float | None = None) -> None:
        """Until a bot has identified ``identifies`` times and its session is connected."""
        await self.wait_for(
            lambda: (
                self.identify_count >= identifies
                and self.session is not None
                and self.session.connected
            ),
            what=f"gateway connection #{identifies}",
            timeout=timeout,
        )

    async def wait_resumed(self, resumes: int = 1, *, timeout: float | None = None) -> None:
        """Until the current session has been resumed ``resumes`` times and is connected."""
        await self.wait_for(
            lambda: (
                self.session is not None
                and self.session.resumes >= resumes
                and self.session.connected
            ),
            what=f"gateway RESUME #{resumes}",
            timeout=timeout,
        )

    async def wait_commands_synced(self, puts: int = 1, *, timeout: float | None = None) -> None:
        await self.wait_for(
            lambda: len(self.command_puts) >= puts,
            what=f"{puts} command sync(s) (PUT .../commands)",
            timeout=timeout,
        )

    # -- checks ---------------------------------------------------------------------------------

    def expect_rejections(self, *codes: int) -> None:
        """Declare 4xx JSON codes this test provokes on purpose (e.g. 40060, 10062)."""
        self.expected_rejection_codes.update(codes)

    def problems(self) -> list[str]:
        """What must fail the test: unknown routes, unexpected 4xx answers, fake-internal bugs."""
        out = [f"the bot called a route the fake does not know: {r}" for r in self.unknown_requests]
        out += [
            f"the fake refused a bot request: {r}"
            for r in self.rejections
            if r.code not in self.expected_rejection_codes
        ]
        out += [f"internal error in the fake: {e}" for e in self.internal_errors]
        return out


# --- guarding a test -----------------------------------------------------------------------------


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
            if any(s in text for s in self._expected_logs):
                continue
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


# --- running a bot against the fake -------------------------------------------------------------


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
        #: Views (and modals) still listening when their bot closed; see stop_live_views().
        self.views_stopped = 0

    @property
    def bots(self) -> list[discord.Client]:
        return [r.bot for r in self._running]

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
        (global, and every fake guild that has guild commands) for bots that do not sync
        themselves.
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
        task = asyncio.get_running_loop().create_task(
            client.connect(reconnect=True), name=f"bot-connect-{len(self._running)}"
        )
        self._running.append(_Running(client, task))
        ready = asyncio.get_running_loop().create_task(client.wait_until_ready())
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
                f"the bot was not ready within {timeout:g}s; last requests:\n{self.fake._recent()}"
            )
        if sync_commands:
            await client_tree_sync(client, self.fake)
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
            if self.guard is not None:
                self.guard.extra_problems.append(f"the bot's connect task failed: {exc!r}")
            else:
                raise

    async def close_all(self) -> None:
        for running in list(self._running):
            await self.stop(running.bot)


def stop_live_views(client: discord.Client) -> int:
    """Stop the views and modals a closed client still listens for; return how many.

    discord.py's ``Client.close()`` leaves its view store alone, so every view with a timeout
    keeps a timer task alive after the bot is gone.  A real process exits and never notices;
    a test would see a leaked task that is discord.py's, not the bot's.  This reaches into the
    (private) view store because discord.py exposes only the persistent views.
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
    for modal in list(getattr(store, "_modals", {}).values()):
        views[id(modal)] = modal
    stopped = 0
    for view in views.values():
        if not view.is_finished():
            view.stop()
            stopped += 1
    return stopped


async def client_tree_sync(client: discord.Client, fake: FakeDiscord) -> None:
    """Sync a bot's app-command tree like a deploy script would (global + guild commands)."""
    tree = getattr(client, "tree", None)
    if tree is None:
        return
    await tree.sync()
    for guild_id in fake.guilds:
        if tree.get_commands(guild=discord.Object(guild_id)):
            await tree.sync(guild=discord.Object(guild_id))
