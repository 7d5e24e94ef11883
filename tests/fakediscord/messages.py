"""Messages the bot sends or edits: checked, built with their files and pings, stored, and
announced on the gateway once the HTTP reply has been written.

Why shared by several routes: a channel message, an interaction's response, a follow-up and
an edit all go through the same rules (limits, files, allowed_mentions), as on Discord.
"""

from __future__ import annotations

import mimetypes
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from urllib.parse import quote

from .constants import (
    ATTACHMENT_SIZE_LIMIT,
    MAX_ATTACHMENT_DESCRIPTION,
    MAX_FILES,
    ErrorCode,
    InteractionType,
    MessageFlag,
)
from .gateway import Gateway
from .models import JSON, FakeAttachment, FakeChannel, FakeInteraction, FakeMessage
from .state import World
from .validation import DiscordHTTPError, compute_mentions, form_error, validate_message

#: Work to do after the reply to the bot has been written (see :func:`publish`).
Publish = Callable[[], Awaitable[None]]


@dataclass
class Upload:
    """One ``files[n]`` part of a multipart request."""

    index: int
    filename: str
    data: bytes


def _attachment(
    world: World, upload: Upload, channel_id: int, entry: JSON | None, *, ephemeral: bool
) -> FakeAttachment:
    if len(upload.data) > ATTACHMENT_SIZE_LIMIT:
        raise DiscordHTTPError(413, ErrorCode.REQUEST_TOO_LARGE, "Request entity too large")
    filename = str((entry or {}).get("filename") or upload.filename)
    attachment_id = world.snowflake()
    return FakeAttachment(
        attachment_id,
        filename,
        upload.data,
        mimetypes.guess_type(filename)[0] or "application/octet-stream",
        f"{world.cdn_base}/attachments/{channel_id}/{attachment_id}/{quote(filename)}",
        (entry or {}).get("description"),
        ephemeral,
    )


def _attachments(
    world: World,
    payload: JSON,
    uploads: list[Upload],
    channel_id: int,
    existing: list[FakeAttachment],
    *,
    ephemeral: bool,
) -> list[FakeAttachment] | None:
    """The new attachment list, or None to keep the current one (an edit without files).

    ``attachments`` in the payload lists what to keep (by id) and describes the new files
    (by ``files[n]`` index); files it does not list are added after.
    """
    if len(uploads) > MAX_FILES:
        raise form_error("files", "Must be 10 or fewer in length.")
    entries = payload.get("attachments")
    if entries is None:
        if not uploads:
            return None
        new = [_attachment(world, u, channel_id, None, ephemeral=ephemeral) for u in uploads]
        return existing + new
    if not isinstance(entries, list):
        raise form_error("attachments", "Must be an array.")
    by_index = {u.index: u for u in uploads}
    kept = {a.id: a for a in existing}
    result: list[FakeAttachment] = []
    used: set[int] = set()
    for i, entry in enumerate(entries):
        try:
            ref = int(entry.get("id"))
        except (TypeError, ValueError):
            raise form_error(
                f"attachments.{i}.id", "Must be a snowflake or a file index."
            ) from None
        description = entry.get("description")
        if description is not None and len(str(description)) > MAX_ATTACHMENT_DESCRIPTION:
            raise form_error(
                f"attachments.{i}.description",
                f"Must be {MAX_ATTACHMENT_DESCRIPTION} or fewer in length.",
                "BASE_TYPE_MAX_LENGTH",
            )
        if ref in by_index and ref not in used:
            used.add(ref)
            result.append(_attachment(world, by_index[ref], channel_id, entry, ephemeral=ephemeral))
        elif ref in kept:
            result.append(kept[ref])
        else:
            raise form_error(
                f"attachments.{i}.id",
                f"Unknown attachment {ref} (no files[{ref}] part).",
                "ATTACHMENT_NOT_FOUND",
            )
    result += [
        _attachment(world, u, channel_id, None, ephemeral=ephemeral)
        for u in uploads
        if u.index not in used
    ]
    return result


def _apply_mentions(world: World, message: FakeMessage) -> None:
    users, roles, everyone = compute_mentions(message.content, message.allowed_mentions)
    message.mentions = [world.users[u] for u in sorted(users) if u in world.users]
    message.mention_role_ids = sorted(roles)
    message.mention_everyone = everyone


def new_message(
    world: World,
    channel: FakeChannel,
    payload: JSON,
    uploads: list[Upload],
    *,
    source: str,
    allowed_flags: int,
    interaction: FakeInteraction | None = None,
    path: str = "",
) -> FakeMessage:
    """Check and build (not store) a message from the bot's payload."""
    validate_message(payload, allowed_flags=allowed_flags, path=path)
    flags = int(payload.get("flags") or 0)
    ephemeral = bool(flags & MessageFlag.EPHEMERAL)
    attachments = _attachments(world, payload, uploads, channel.id, [], ephemeral=ephemeral) or []
    content = payload.get("content") or ""
    if not (content.strip() or payload.get("embeds") or attachments or payload.get("components")):
        raise DiscordHTTPError(400, ErrorCode.EMPTY_MESSAGE, "Cannot send an empty message")
    message = FakeMessage(
        world.snowflake(),
        channel.id,
        channel.guild_id,
        world.bot_user,
        content=content,
        embeds=list(payload.get("embeds") or []),
        components=list(payload.get("components") or []),
        attachments=attachments,
        flags=flags,
        allowed_mentions=payload.get("allowed_mentions"),
        source=source,
        interaction_id=None if interaction is None else interaction.id,
        webhook_id=None if interaction is None else world.application_id,
        nonce=None if payload.get("nonce") is None else str(payload["nonce"]),
        type=message_type(interaction),
    )
    reference = payload.get("message_reference")
    if isinstance(reference, dict) and reference.get("message_id") is not None:
        message.reference_id, message.type = int(reference["message_id"]), 19
    _apply_mentions(world, message)
    message.pinged_user_ids = [u.id for u in message.mentions]
    return message


def message_type(interaction: FakeInteraction | None) -> int:
    """20 for the answer to a slash command, else 0 (a default message)."""
    if interaction is not None and interaction.type == InteractionType.APPLICATION_COMMAND:
        return 20
    return 0


def store(world: World, message: FakeMessage) -> None:
    world.messages[message.id] = message
    channel = world.channels.get(message.channel_id)
    if channel is not None and not message.ephemeral:
        channel.last_message_id = message.id
        if channel.is_thread:
            channel.message_count += 1


def apply_edit(
    world: World,
    message: FakeMessage,
    payload: JSON,
    uploads: list[Upload],
    *,
    allowed_flags: int,
    path: str = "",
) -> None:
    """A PATCH (channel message or UPDATE_MESSAGE callback), or the follow-up that replaces a
    deferred "thinking" message; the old version goes to ``history``."""
    validate_message(
        payload,
        allowed_flags=allowed_flags | MessageFlag.EPHEMERAL | MessageFlag.LOADING,
        path=path,
    )
    attachments = _attachments(
        world,
        payload,
        uploads,
        message.channel_id,
        message.attachments,
        ephemeral=message.ephemeral,
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
    if payload.get("flags") is not None:
        kept = message.flags & MessageFlag.EPHEMERAL
        message.flags = kept | (int(payload["flags"]) & MessageFlag.SUPPRESS_EMBEDS)
    was_loading = message.loading
    message.flags &= ~MessageFlag.LOADING
    if was_loading and not (
        message.content.strip() or message.embeds or message.attachments or message.components
    ):
        raise DiscordHTTPError(400, ErrorCode.EMPTY_MESSAGE, "Cannot send an empty message")
    message.edited_at = None if was_loading else time.time()
    _apply_mentions(world, message)


def publish(gateway: Gateway, message: FakeMessage, event: str = "MESSAGE_CREATE") -> Publish:
    """After the reply: mark the message visible and, unless only its author sees it,
    dispatch ``event``."""

    async def action() -> None:
        message.published = True
        if not message.ephemeral and not message.loading:
            await gateway.dispatch(event, gateway.world.message_payload(message))

    return action
