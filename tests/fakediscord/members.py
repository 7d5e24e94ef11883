"""What members do in Discord's own client, turned into the events the bot receives: slash
commands and autocomplete (INTERACTION_CREATE with the options' types and the members and
roles they resolve to), button clicks, and plain messages (MESSAGE_CREATE).

Why it refuses as the client would: a test that runs an unregistered command, leaves out a
required option, picks a value outside an option's choices or clicks a disabled button would
prove nothing about the bot, so it fails at once with :class:`UserCannotDoThat`.
"""

from __future__ import annotations

import asyncio
import mimetypes
import secrets
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from .constants import (
    ATTACHMENT_SIZE_LIMIT,
    MAX_STRING_OPTION,
    ComponentType,
    OptionType,
)
from .gateway import Gateway, NoBotConnected
from .models import (
    JSON,
    FakeAttachment,
    FakeChannel,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    UserFile,
)
from .state import World
from .threads import reopen_for_post
from .validation import compute_mentions

#: The option types a member fills with a member, and those filled with a role.
_MEMBER_OPTIONS = (OptionType.USER, OptionType.MENTIONABLE)
_ROLE_OPTIONS = (OptionType.ROLE, OptionType.MENTIONABLE)


class UserCannotDoThat(AssertionError):
    """A test asked a member to do what Discord's own client would not let them do."""


class MemberActions:
    """Makes interactions and messages as members would, and dispatches them to the bot."""

    def __init__(self, world: World, gateway: Gateway) -> None:
        self.world = world
        self.gateway = gateway

    def _in_guild_of(self, member: FakeMember, channel: FakeChannel) -> FakeMember:
        """The same person's membership of the channel's guild (they may be in several)."""
        found = self.world.member(channel.guild_id, member.id)
        if found is None:
            raise UserCannotDoThat(
                f"{member.user.username} is not a member of the guild of #{channel.name}"
            )
        return found

    async def create_interaction(
        self,
        kind: int,
        *,
        member: FakeMember,
        channel: FakeChannel,
        data: JSON,
        message: FakeMessage | None = None,
        label: str = "",
    ) -> FakeInteraction:
        """Make an interaction as Discord would and dispatch it as INTERACTION_CREATE."""
        world = self.world
        if self.gateway.session is None:
            raise NoBotConnected("no bot has identified on the fake gateway")
        member = self._in_guild_of(member, channel)
        guild = world.guilds[channel.guild_id]
        interaction_id = world.snowflake()
        token = "aW50ZXJhY3Rpb246" + secrets.token_urlsafe(48)
        payload: JSON = {
            "id": str(interaction_id),
            "application_id": str(world.application_id),
            "type": kind,
            "data": data,
            "guild_id": str(guild.id),
            "guild_locale": guild.locale,
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            "channel": channel.payload(),
            "member": member.payload(permissions=world.permissions(guild.id, member.id)),
            "token": token,
            "version": 1,
            "locale": member.user.locale,
            "app_permissions": str(world.permissions(guild.id, world.bot_user.id)),
            "entitlements": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = world.message_payload(message)
        interaction = FakeInteraction(
            interaction_id,
            token,
            kind,
            member.user,
            member,
            channel.id,
            guild.id,
            data,
            asyncio.get_running_loop().time(),
            message_id=None if message is None else message.id,
            label=label,
        )
        world.interactions[interaction_id] = interaction
        world.interactions_by_token[token] = interaction
        await self.gateway.dispatch("INTERACTION_CREATE", payload)
        await world.notify()
        return interaction

    def command_data(
        self,
        command: str,
        options: Mapping[str, Any],
        *,
        channel: FakeChannel,
        focused: str | None = None,
    ) -> JSON:
        """The ``data`` of an APPLICATION_COMMAND or AUTOCOMPLETE interaction: the option
        types come from the registered command, so the test writes plain values."""
        name = command.strip().lstrip("/")
        registered = self.world.find_command(name, channel.guild_id)
        if registered is None:
            known = sorted(
                {
                    c.name
                    for scope in (channel.guild_id, None)
                    for c in self.world.commands.get(scope, [])
                }
            )
            raise UserCannotDoThat(
                f"/{name} is not registered (the bot registered: {known or 'nothing'})"
            )
        definitions: list[JSON] = list(registered.data.get("options") or [])
        resolved: JSON = {}
        data: JSON = {"id": str(registered.id), "name": name, "type": 1}
        if registered.guild_id is not None:
            data["guild_id"] = str(registered.guild_id)
        data["options"] = []
        for key, value in options.items():
            definition = next((o for o in definitions if o["name"] == key), None)
            if definition is None:
                raise UserCannotDoThat(
                    f"/{name} has no option {key!r} (it has {[o['name'] for o in definitions]})"
                )
            data["options"].append(
                self._option(key, value, definition, resolved, channel, focused=key == focused)
            )
        if focused is None:
            missing = [
                o["name"] for o in definitions if o.get("required") and o["name"] not in options
            ]
            if missing:
                raise UserCannotDoThat(f"/{name} needs {missing}")
        elif focused not in options:
            raise UserCannotDoThat(f"the focused option {focused!r} must be in options")
        if resolved:
            data["resolved"] = resolved
        return data

    def _option(
        self,
        name: str,
        value: Any,
        definition: JSON,
        resolved: JSON,
        channel: FakeChannel,
        *,
        focused: bool,
    ) -> JSON:
        kind = int(definition["type"])
        option: JSON = {"name": name, "type": kind}
        if focused:  # what the member has typed so far: text, not checked against choices
            if not definition.get("autocomplete"):
                raise UserCannotDoThat(f"option {name!r} has no autocomplete")
            return {**option, "value": str(value), "focused": True}
        if kind in _MEMBER_OPTIONS and isinstance(value, FakeMember):
            option["value"] = str(value.id)
            resolved.setdefault("users", {})[str(value.id)] = value.user.payload()
            resolved.setdefault("members", {})[str(value.id)] = value.payload(
                with_user=False, permissions=self.world.permissions(channel.guild_id, value.id)
            )
        elif kind in _ROLE_OPTIONS and isinstance(value, FakeRole):
            if value.guild_id != channel.guild_id:
                raise UserCannotDoThat(f"option {name!r}: {value.name} is another server's role")
            option["value"] = str(value.id)
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif kind == OptionType.STRING and isinstance(value, str):
            low = int(definition.get("min_length", 0))
            high = int(definition.get("max_length", MAX_STRING_OPTION))
            if not low <= len(value) <= high:
                raise UserCannotDoThat(
                    f"option {name!r}: Discord accepts {low}-{high} characters, got {len(value)}"
                )
            option["value"] = value
        elif kind == OptionType.BOOLEAN and isinstance(value, bool):
            option["value"] = value
        elif kind == OptionType.ATTACHMENT and isinstance(value, UserFile):
            attachment = self._upload(value)
            option["value"] = str(attachment.id)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.payload()
        elif kind == OptionType.INTEGER and isinstance(value, int) and not isinstance(value, bool):
            least, most = definition.get("min_value"), definition.get("max_value")
            if (least is not None and value < least) or (most is not None and value > most):
                raise UserCannotDoThat(
                    f"option {name!r}: Discord accepts {least} to {most}, got {value}"
                )
            option["value"] = value
        else:
            raise UserCannotDoThat(f"option {name!r} (type {kind}) cannot take {value!r} here")
        choices = definition.get("choices")
        if choices and option["value"] not in [c["value"] for c in choices]:
            raise UserCannotDoThat(
                f"option {name!r} must be one of {[c['value'] for c in choices]}"
            )
        return option

    def _upload(self, file: UserFile) -> FakeAttachment:
        """What the client does before sending a command with a file: upload it, up to the
        member's upload limit, to an ephemeral CDN address the bot may download from."""
        if len(file.data) > ATTACHMENT_SIZE_LIMIT:
            raise UserCannotDoThat(
                f"{file.filename}: Discord takes files up to {ATTACHMENT_SIZE_LIMIT} bytes"
            )
        attachment_id = self.world.snowflake()
        path = f"ephemeral-attachments/{self.world.application_id}/{attachment_id}/{file.filename}"
        self.world.cdn_files[path] = file.data
        content_type = mimetypes.guess_type(file.filename)[0] or "application/octet-stream"
        url = f"{self.world.cdn_base}/{quote(path)}"
        return FakeAttachment(
            attachment_id, file.filename, file.data, content_type, url, ephemeral=True
        )

    def check_clickable(
        self,
        message: FakeMessage,
        custom_id: str,
        member: FakeMember,
        kind: int = ComponentType.BUTTON,
    ) -> None:
        """Fails unless ``member`` can see and use the component ``custom_id`` (a button,
        or a select with ``kind``) on ``message``."""
        button = message.component(custom_id)
        if button is None:
            raise UserCannotDoThat(
                f"message {message.id} has no component {custom_id!r} (it has {message.custom_ids})"
            )
        if button.get("type") != kind:
            raise UserCannotDoThat(f"{custom_id!r} is a type {button.get('type')} component")
        if button.get("disabled"):
            raise UserCannotDoThat(f"{custom_id!r} is disabled")
        if message.ephemeral:
            owner = self.world.interactions.get(message.interaction_id or 0)
            if owner is not None and owner.user.id != member.id:
                raise UserCannotDoThat(
                    f"{member.user.username} cannot see {owner.user.username}'s ephemeral message"
                )

    async def post_message(
        self,
        channel: FakeChannel,
        member: FakeMember,
        content: str,
        *,
        reply_to: FakeMessage | None = None,
        ping: bool = True,
    ) -> FakeMessage:
        """A member types a message: stored, and dispatched as MESSAGE_CREATE to a bot with
        the guild messages intent (emptied, as Discord does, for a bot without the message
        content intent that it does not mention: see ``gateway.as_seen``).

        Its ``mentions`` are the users its content writes as ``<@id>`` (a member's message
        pings everyone it names), and with ``reply_to`` and ``ping`` (the client's default
        for a reply) the replied-to author too, unless that message answers an interaction:
        Discord does not count a reply to an interaction's answer as a mention of its bot
        (discord/discord-api-docs#5395), so such a reply must name the bot to reach it."""
        world = self.world
        member = self._in_guild_of(member, channel)
        message = FakeMessage(
            world.snowflake(), channel.id, channel.guild_id, member.user, content=content,
            source="user", published=True,
        )  # fmt: skip
        users, roles, everyone = compute_mentions(content, None)
        if reply_to is not None:
            if reply_to.channel_id != channel.id:
                raise UserCannotDoThat("a reply must be in the channel of the message it answers")
            message.reference_id, message.type = reply_to.id, 19
            if ping and reply_to.interaction_id is None and reply_to.author.id != member.id:
                users.add(reply_to.author.id)
        message.mentions = [world.users[u] for u in sorted(users) if u in world.users]
        message.mention_role_ids, message.mention_everyone = sorted(roles), everyone
        message.pinged_user_ids = [u.id for u in message.mentions]
        reopened = reopen_for_post(world, channel, user_id=member.user.id)
        world.messages[message.id] = message
        channel.last_message_id = message.id
        if reopened:
            await self.gateway.dispatch("THREAD_UPDATE", channel.payload())
        payload = world.message_payload(message)
        payload["member"] = member.payload(with_user=False)
        await self.gateway.dispatch("MESSAGE_CREATE", payload)
        await world.notify()
        return message
