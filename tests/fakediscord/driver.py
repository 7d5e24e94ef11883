"""The fake Discord as a test drives it: set up a server, act as its members, read back what
the bot did, and wait for it.

Why this layer: tests should read like what a player does ("run /move as alice in the game's
thread, then click Promote") and sees ("an ephemeral reply with this text", "a PNG"), not
like HTTP.  Every wait is event driven (the fake wakes waiters on each change) and has a
timeout that fails with what the fake saw (:class:`HarnessTimeout`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from .constants import ComponentType, InteractionType, ResponseType
from .gateway import Gateway, Session
from .limits import Limits
from .members import MemberActions, UserCannotDoThat
from .models import (
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Fault,
)
from .results import Choice, HarnessTimeout, InteractionResult
from .server import DiscordPointer, Server
from .state import World

#: Seconds any single wait may take before the test fails.
DEFAULT_TIMEOUT = 5.0
#: Seconds without bot traffic after which an interaction counts as finished.
DEFAULT_SETTLE = 0.05


class FakeDiscord(World):
    """Discord's state (:class:`World`) with its server, gateway and members to act as."""

    def __init__(
        self,
        *,
        default_timeout: float = DEFAULT_TIMEOUT,
        settle: float = DEFAULT_SETTLE,
        token: str = "fake-bot-token.for-tests-only",
        bot_name: str = "Shogi Bot",
        limits: Limits | None = None,
    ) -> None:
        """``limits``: Discord's limits to enforce (:class:`Limits`, Discord's figures when
        None; ``Limits.off()`` for none)."""
        super().__init__(token=token, bot_name=bot_name)
        if limits is not None:
            self.limits = limits
        self.default_timeout = default_timeout
        self.settle = settle
        self.gateway = Gateway(self)
        self.server = Server(self, self.gateway)
        self.actions = MemberActions(self, self.gateway)

    # -- the server -----------------------------------------------------------------------------

    async def start(self) -> None:
        await self.server.start()

    async def stop(self) -> None:
        await self.server.stop()

    @property
    def url(self) -> str:
        """The base URL, all a bot in another process needs (:meth:`DiscordPointer.from_url`)."""
        return self.server.url

    @property
    def api_base(self) -> str:
        return self.server.api_base

    def patched_discord(self) -> DiscordPointer:
        """``with``: discord.py talks to this fake until the block ends."""
        return DiscordPointer(self.server.api_base, self.server.gateway_url, self.server.cdn_base)

    def inject_fault(
        self,
        route: str,
        *,
        status: int | None = None,
        retry_after: float = 0.05,
        delay: float = 0.0,
        after_processing: bool = False,
        times: int = 1,
    ) -> Fault:
        """Misbehave on the next ``times`` calls of ``route`` (see :class:`Fault`)."""
        return self.server.add_fault(
            Fault(route, status, retry_after, delay, after_processing, times)
        )

    @property
    def session(self) -> Session | None:
        """The gateway session of the bot that identified last."""
        return self.gateway.session

    async def drop_gateway(self, *, resumable: bool = True, abort: bool = False) -> None:
        """Cut the bot's gateway connection (see :meth:`Gateway.drop`)."""
        await self.gateway.drop(resumable=resumable, abort=abort)

    # -- setting up a server --------------------------------------------------------------------

    def add_guild(
        self,
        name: str = "Shogi Club",
        *,
        channels: tuple[str, ...] = (),
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """A guild with @everyone, the bot as a member, and text ``channels``.  Add guilds
        before the bot connects: the fake announces them only in answer to IDENTIFY.
        ``shard=(shard_id, shard_count)`` gives it an id on that shard."""
        guild = self.new_guild(name, shard=shard)
        for channel in channels:
            self.new_channel(guild, channel)
        return guild

    def add_member(
        self, guild: FakeGuild, name: str, *, bot: bool = False, same_as: FakeMember | None = None
    ) -> FakeMember:
        """A member: a new user, or the same person as ``same_as`` (a member elsewhere)."""
        fake_user = same_as.user if same_as is not None else self.new_user(name, bot=bot)
        member = FakeMember(guild.id, fake_user)
        guild.members[fake_user.id] = member
        return member

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0) -> FakeRole:
        """A role of ``guild`` (sent in its GUILD_CREATE: add it before the bot connects)."""
        role = FakeRole(self.snowflake(), guild.id, name, permissions, len(guild.roles))
        guild.roles[role.id] = role
        return role

    async def give_role(self, member: FakeMember, role: FakeRole) -> None:
        """``member`` gets ``role`` (as a moderator gives it in the client): the member's
        ``roles`` list has it, and a bot with the members intent receives
        GUILD_MEMBER_UPDATE, as from Discord (one without it is told nothing)."""
        if role.guild_id != member.guild_id:
            raise UserCannotDoThat(f"{role.name} is a role of another server")
        if role.id == role.guild_id:
            raise UserCannotDoThat("every member has @everyone: it is never given")
        if role.id in member.roles:
            return
        member.roles.append(role.id)
        payload = member.payload()
        payload["guild_id"] = str(member.guild_id)
        await self.gateway.dispatch("GUILD_MEMBER_UPDATE", payload)
        await self.notify()

    def add_thread(self, parent: FakeChannel, name: str, *, owner: FakeMember) -> FakeChannel:
        """A thread a member made (the bot learns of it when it is used)."""
        return self.new_thread(parent, name, owner_id=owner.id)

    def channel(self, name: str, guild: FakeGuild) -> FakeChannel:
        """A channel or thread of ``guild`` by name."""
        for channel in self.channels.values():
            if channel.name == name and channel.guild_id == guild.id:
                return channel
        raise LookupError(f"no channel named {name!r}")

    # -- acting as members ----------------------------------------------------------------------

    async def slash(
        self,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        user: FakeMember,
        channel: FakeChannel,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """``user`` runs ``/command`` in ``channel``.  Option values are plain: a str, a
        FakeMember for a member option, a FakeRole for a role option (either for a
        mentionable one).  With ``wait``, returns after :meth:`InteractionResult.wait_final`."""
        data = self.actions.command_data(command, options or {}, channel=channel)
        interaction = await self.actions.create_interaction(
            InteractionType.APPLICATION_COMMAND,
            member=user,
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
        options: Mapping[str, Any],
        *,
        focused: str,
        user: FakeMember,
        channel: FakeChannel,
        timeout: float | None = None,
    ) -> list[Choice]:
        """What the bot suggests while ``user`` types into option ``focused`` of ``/command``."""
        data = self.actions.command_data(command, options, channel=channel, focused=focused)
        interaction = await self.actions.create_interaction(
            InteractionType.AUTOCOMPLETE,
            member=user,
            channel=channel,
            data=data,
            label=f"autocomplete /{command.lstrip('/')} {focused}",
        )
        result = await InteractionResult(self, interaction).wait_response(timeout)
        if result.response_type != ResponseType.AUTOCOMPLETE_RESULT:
            raise AssertionError(f"autocomplete answered with type {result.response_type}")
        return result.choices

    async def click(
        self,
        where: FakeMessage | InteractionResult,
        custom_id: str,
        *,
        user: FakeMember,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """``user`` clicks the button ``custom_id`` on a message (or on a result's messages)."""
        if isinstance(where, InteractionResult):
            found = [m for m in where.messages if m.component(custom_id) is not None]
            if not found:
                raise UserCannotDoThat(
                    f"no button {custom_id!r} on the messages of {where.interaction.label} "
                    f"(custom_ids: {where.custom_ids})"
                )
            where = found[-1]
        self.actions.check_clickable(where, custom_id, user)
        result = await self.forge_click(
            where, custom_id, user=user, channel=self.channels[where.channel_id]
        )
        if wait:
            await result.wait_final(timeout)
        return result

    async def choose(
        self,
        where: FakeMessage | InteractionResult,
        custom_id: str,
        value: str,
        *,
        user: FakeMember,
        wait: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """``user`` picks the option ``value`` of the select ``custom_id`` on a message (or
        on a result's messages)."""
        if isinstance(where, InteractionResult):
            found = [m for m in where.messages if m.component(custom_id) is not None]
            if not found:
                raise UserCannotDoThat(
                    f"no select {custom_id!r} on the messages of {where.interaction.label} "
                    f"(custom_ids: {where.custom_ids})"
                )
            where = found[-1]
        self.actions.check_clickable(where, custom_id, user, ComponentType.STRING_SELECT)
        select = where.component(custom_id) or {}
        offered = [option.get("value") for option in select.get("options", [])]
        if value not in offered:
            raise UserCannotDoThat(f"the select {custom_id!r} offers no {value!r} ({offered})")
        result = await self.forge_choice(
            where, custom_id, [value], user=user, channel=self.channels[where.channel_id]
        )
        if wait:
            await result.wait_final(timeout)
        return result

    async def forge_choice(
        self,
        message: FakeMessage,
        custom_id: str,
        values: list[Any],
        *,
        user: FakeMember,
        channel: FakeChannel,
    ) -> InteractionResult:
        """A choice in a select as a modified client can send it: any custom_id and any
        values, on any message; the bot must check.  Returns at once."""
        interaction = await self.actions.create_interaction(
            InteractionType.MESSAGE_COMPONENT,
            member=user,
            channel=channel,
            data={"custom_id": custom_id, "component_type": 3, "values": values},
            message=message,
            label=f"select {custom_id!r}",
        )
        return InteractionResult(self, interaction)

    async def forge_click(
        self, message: FakeMessage, custom_id: str, *, user: FakeMember, channel: FakeChannel
    ) -> InteractionResult:
        """A click as a modified client can send it: any custom_id, on any message, in any
        channel; the bot must check.  Returns at once."""
        interaction = await self.actions.create_interaction(
            InteractionType.MESSAGE_COMPONENT,
            member=user,
            channel=channel,
            data={"custom_id": custom_id, "component_type": 2},
            message=message,
            label=f"component {custom_id!r}",
        )
        return InteractionResult(self, interaction)

    async def submit(
        self,
        shown: InteractionResult,
        values: Mapping[str, str],
        *,
        user: FakeMember,
        wait: bool = True,
    ) -> InteractionResult:
        """``user`` fills in the modal the bot answered ``shown`` with (``values`` by each
        text input's custom_id; one left out is sent empty) and submits it."""
        await shown.wait_response()
        modal = shown.interaction.response_data
        if shown.response_type != ResponseType.MODAL or modal is None:
            raise UserCannotDoThat(f"{shown.interaction.label} was not answered with a modal")
        fields = [row["components"][0]["custom_id"] for row in modal["components"]]
        unknown = set(values) - set(fields)
        if unknown:
            raise UserCannotDoThat(f"the modal has no field {sorted(unknown)} (it has {fields})")
        rows = [
            {"type": 1, "components": [{"type": 4, "custom_id": f, "value": values.get(f, "")}]}
            for f in fields
        ]
        interaction = await self.actions.create_interaction(
            InteractionType.MODAL_SUBMIT,
            member=user,
            channel=self.channels[shown.interaction.channel_id],
            data={"custom_id": modal["custom_id"], "components": rows},
            label=f"modal {modal['custom_id']!r}",
        )
        result = InteractionResult(self, interaction)
        if wait:
            await result.wait_final()
        return result

    async def say(
        self,
        channel: FakeChannel,
        user: FakeMember,
        content: str,
        *,
        reply_to: FakeMessage | None = None,
        ping: bool = True,
    ) -> FakeMessage:
        """``user`` posts a plain message in ``channel`` (a reply to ``reply_to``, pinging
        its author unless ``ping`` is False, as the client's reply toggle does)."""
        return await self.actions.post_message(channel, user, content, reply_to=reply_to, ping=ping)

    # -- reading back ---------------------------------------------------------------------------

    def channel_history(self, channel: FakeChannel) -> list[FakeMessage]:
        """What everyone sees in a channel or thread: bot and member messages, oldest first."""
        return [
            m
            for m in self.messages.values()
            if m.channel_id == channel.id and m.published and not m.ephemeral and not m.loading
        ]

    def last_message(self, channel: FakeChannel) -> FakeMessage:
        history = self.channel_history(channel)
        if not history:
            raise LookupError(f"nothing was posted in #{channel.name}")
        return history[-1]

    def direct_messages(self, user: FakeMember | FakeUser) -> list[FakeMessage]:
        """What the bot sent ``user`` in direct messages, oldest first."""
        person = user.user if isinstance(user, FakeMember) else user
        channel = self.dm_channels.get(person.id)
        return [] if channel is None else self.channel_history(channel)

    async def delete_thread(self, thread: FakeChannel) -> None:
        """A moderator deletes ``thread``: it is gone (404, code 10003, from then on) and
        the bot hears THREAD_DELETE."""
        await self.gateway.dispatch("THREAD_DELETE", self.remove_thread(thread))

    def close_dms(self, user: FakeMember | FakeUser) -> None:
        """``user`` no longer accepts direct messages from the bot: Discord then answers a
        message to them with 403, code 50007.  A test that provokes it declares that code
        with :meth:`expect_rejections`."""
        person = user.user if isinstance(user, FakeMember) else user
        person.accepts_dms = False

    def threads(self, parent: FakeChannel) -> list[FakeChannel]:
        return [c for c in self.channels.values() if c.is_thread and c.parent_id == parent.id]

    def registered_commands(self, guild: FakeGuild | None = None) -> list[FakeCommand]:
        return list(self.commands.get(None if guild is None else guild.id, []))

    def expect_rejections(self, *codes: int) -> None:
        """Declare 4xx JSON codes this test provokes on purpose (e.g. 40060, 10062)."""
        self.expected_rejection_codes.update(codes)

    # -- waiting --------------------------------------------------------------------------------

    def recent(self, count: int = 8) -> str:
        """The last requests, for a failure message."""
        return "\n".join(f"  {r}" for r in self.requests[-count:]) or "  (no requests)"

    async def wait_for(
        self, predicate: Callable[[], bool], *, what: str, timeout: float | None = None
    ) -> None:
        """Until ``predicate()`` holds (checked whenever the fake's state changes)."""
        timeout = self.default_timeout if timeout is None else timeout
        try:
            async with self.condition:
                await asyncio.wait_for(self.condition.wait_for(predicate), timeout)
        except TimeoutError:
            unknown = f"\nunknown routes: {self.unknown_requests}" if self.unknown_requests else ""
            raise HarnessTimeout(
                f"waited {timeout:g}s for {what}; last requests the fake saw:\n{self.recent()}"
                + unknown
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

        The calm counts from ``since`` (loop time; default now), so right after sending an
        interaction this waits at least ``quiet`` even if the bot has not started.  With
        ``interaction``, only calls for that interaction's token count.
        """
        quiet = self.settle if quiet is None else quiet
        timeout = self.default_timeout if timeout is None else timeout
        loop = asyncio.get_running_loop()
        start = loop.time() if since is None else since
        deadline = loop.time() + timeout
        while True:
            now = loop.time()
            if interaction is None:
                busy, last = self.server.in_flight > 0, max(self.server.last_activity, start)
            else:
                busy, last = False, max(interaction.last_activity, start)
            if not busy and now - last >= quiet:
                return
            if now >= deadline:
                raise HarnessTimeout(
                    f"the bot did not go quiet for {quiet:g}s within {timeout:g}s; "
                    f"last requests:\n{self.recent()}"
                )
            pause = deadline - now if busy else min(deadline - now, quiet - (now - last))
            async with self.condition:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.condition.wait(), max(pause, 0.0))

    async def wait_connected(self, *, identifies: int = 1, timeout: float | None = None) -> None:
        """Until a bot has identified ``identifies`` times and its session is connected."""
        gateway = self.gateway
        await self.wait_for(
            lambda: (
                gateway.identify_count >= identifies
                and gateway.session is not None
                and gateway.session.connected
            ),
            what=f"gateway connection #{identifies}",
            timeout=timeout,
        )

    async def wait_resumed(self, resumes: int = 1, *, timeout: float | None = None) -> None:
        """Until the current session has been resumed ``resumes`` times and is connected."""
        gateway = self.gateway
        await self.wait_for(
            lambda: (
                gateway.session is not None
                and gateway.session.resumes >= resumes
                and gateway.session.connected
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
