"""Publishing the slash commands by themselves at start, and the invite link.

Why the bot publishes its own commands: a newcomer who starts it for the first
time must see its commands in Discord without knowing about a deploy step.
Why only when they changed: publishing is a bulk overwrite that Discord rate
limits per application (a few hundred a day), and a bot that restarts in a
loop must not exhaust that. So the payload the tree would send is hashed and
compared with what was last published to that scope, stored in the database.

Scopes: without `DEV_GUILD_ID` the commands are global (Discord may take up to
an hour to show a change everywhere). With it, they are copied to that one
server, where changes show at once, and the global list is emptied: a
developer's server would otherwise show every command twice (its own copy and
the global one). When the setting changes or goes away, the copies left in the
previous server are taken back. Only scopes this bot recorded are cleaned, apart
from one check of the global list the first time a dev server is used (or on
`--sync`), for commands published before the bot kept records.

Only `bot.client` and `bot.__main__` import this module: it is start-up wiring,
and keeping it out of the game code keeps the game code testable without it.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol

import discord
from discord import app_commands

from .db import Database, PublicationRow

log = logging.getLogger(__name__)

#: OAuth2 scopes of the invite: `bot` makes it a member, `applications.commands` lets the
#: server show its slash commands.
INVITE_SCOPES = ("bot", "applications.commands")

Payload = list[dict[str, Any]]


def bot_permissions() -> discord.Permissions:
    """What the bot does in a channel, and nothing more (a server owner reads the list).

    It sees the channel and posts challenges there (or a game, where no thread can be
    opened); opens a public thread on the accepted challenge and posts moves and board
    images in it; at start it reads the thread's recent history (to check whether an
    ending was posted) and fetches a challenge message to mark it expired. Editing its
    own messages and answering interactions need no permission; it posts no embeds.
    """
    return discord.Permissions(
        view_channel=True,
        send_messages=True,
        send_messages_in_threads=True,
        create_public_threads=True,
        attach_files=True,
        read_message_history=True,
    )


def invite_url(application_id: int) -> str:
    """The link a server admin opens to add the bot with exactly `bot_permissions()`."""
    return discord.utils.oauth_url(
        application_id, permissions=bot_permissions(), scopes=INVITE_SCOPES
    )


async def command_payload(tree: app_commands.CommandTree[Any], *, guild_id: int | None) -> Payload:
    """What `tree.sync` would send for that scope, translations included.

    The same calls as discord.py's `CommandTree.sync`, so the digest changes exactly
    when what Discord would receive changes.
    """
    guild = None if guild_id is None else discord.Object(guild_id)
    commands = tree.get_commands(guild=guild)
    translator = tree.translator
    if translator is not None:
        return [await command.get_translated_payload(tree, translator) for command in commands]
    return [command.to_dict(tree) for command in commands]


def payload_digest(payload: Iterable[dict[str, Any]]) -> str:
    """A digest of a command payload that ignores key order and the order of commands.

    Keys are sorted because nothing promises a stable dict order across discord.py
    versions; commands are sorted by type and name because a bulk overwrite does not
    depend on their order. Lists inside a command (options, choices) keep their order,
    which Discord shows as given.
    """
    commands = sorted(payload, key=lambda c: (int(c.get("type", 1)), str(c.get("name", ""))))
    text = json.dumps(commands, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class PublicationStore(Protocol):
    """Where the last publication of each scope is remembered (`DatabasePublications`)."""

    async def published(self, application_id: int) -> list[PublicationRow]: ...

    async def remember(self, publication: PublicationRow) -> None: ...

    async def forget(self, application_id: int, guild_id: int | None) -> None: ...


class DatabasePublications:
    """`PublicationStore` on the bot's database, one short transaction per call."""

    def __init__(self, database: Database) -> None:
        self._database = database

    async def published(self, application_id: int) -> list[PublicationRow]:
        async with self._database.query() as session:
            return await session.publications.for_application(application_id)

    async def remember(self, publication: PublicationRow) -> None:
        async with self._database.transaction() as session:
            await session.publications.save(publication)

    async def forget(self, application_id: int, guild_id: int | None) -> None:
        async with self._database.transaction() as session:
            await session.publications.forget(application_id, guild_id)


def scope_name(guild_id: int | None) -> str:
    return "globally" if guild_id is None else f"in server {guild_id}"


@dataclass(frozen=True, slots=True)
class PublishReport:
    """What a start did about the commands, for the ready log and for tests."""

    #: Where the commands are meant to be: None is global, else the dev server.
    guild_id: int | None
    #: True if they were sent this time, False if what was there was already the same.
    published: bool
    command_count: int
    #: Scopes whose copies were taken back (None is the global list).
    removed_from: tuple[int | None, ...] = ()
    #: Scopes with copies that could not be taken back this time (tried again next start).
    not_removed_from: tuple[int | None, ...] = ()

    def describe(self) -> str:
        where = scope_name(self.guild_id)
        if self.published:
            text = f"published {self.command_count} commands {where}"
            if self.guild_id is None:
                text += " (Discord can take up to an hour to show them in every server)"
        else:
            text = f"{self.command_count} commands already up to date {where}"
        if self.removed_from:
            text += "; took back the copies " + ", ".join(map(scope_name, self.removed_from))
        if self.not_removed_from:
            text += "; could not take back the copies " + ", ".join(
                map(scope_name, self.not_removed_from)
            )
        return text


async def _empty_scope(
    tree: app_commands.CommandTree[Any], application_id: int, guild_id: int | None
) -> None:
    """Overwrite a scope's commands with none (`tree.sync` cannot: it sends the tree's)."""
    http = tree.client.http
    if guild_id is None:
        await http.bulk_upsert_global_commands(application_id, payload=[])
    else:
        await http.bulk_upsert_guild_commands(application_id, guild_id, payload=[])


async def _take_back(
    tree: app_commands.CommandTree[Any], application_id: int, guild_id: int | None
) -> bool | None:
    """Remove our copies from a scope that should not have them: True if removed, None if
    they are gone anyway, False if it failed for a reason that may pass (try next start)."""
    try:
        await _empty_scope(tree, application_id, guild_id)
    except (discord.Forbidden, discord.NotFound):
        # The bot left that server (or lost the commands scope there): its commands went
        # with it, and no later start could remove them either.
        log.warning(
            "could not take back the commands %s (the bot is no longer there); forgetting them",
            scope_name(guild_id),
        )
        return None
    except discord.HTTPException:
        log.warning("could not take back the commands %s", scope_name(guild_id), exc_info=True)
        return False
    return True


async def publish_commands(
    tree: app_commands.CommandTree[Any],
    store: PublicationStore,
    *,
    application_id: int,
    dev_guild_id: int | None,
    force: bool,
    clock: Callable[[], datetime] = lambda: datetime.now(UTC),
) -> PublishReport:
    """Publish the tree's commands to their scope if they changed (or if `force`), after
    taking back copies this bot left in scopes that should no longer have them.

    Stale copies go first so that a server never shows a command twice, at the price
    of a moment with none. A failure to publish raises (`discord.HTTPException`) and
    records nothing, so the next start tries again.
    """
    target = dev_guild_id
    if target is not None:
        tree.copy_global_to(guild=discord.Object(target))
    payload = await command_payload(tree, guild_id=target)
    digest = payload_digest(payload)
    known = {row.guild_id: row for row in await store.published(application_id)}

    removed: list[int | None] = []
    kept: list[int | None] = []
    for guild_id in known:
        if guild_id is None or guild_id == target:
            continue
        done = await _take_back(tree, application_id, guild_id)
        if done is False:
            kept.append(guild_id)
            continue
        if done:
            removed.append(guild_id)
        await store.forget(application_id, guild_id)
    if target is not None:
        # The global list must be empty while a dev server has the commands. Ours are known
        # from the record; without one (commands published by an older version's `--sync`,
        # say) or when forced, Discord is asked once, and the empty list is recorded.
        row = known.get(None)
        if row is None or force:
            there = len(await tree.client.http.get_global_commands(application_id))
        else:
            there = row.command_count
        done = await _take_back(tree, application_id, None) if there else None
        if done is False:
            kept.append(None)
        else:
            if done:
                removed.append(None)
            if row is None or row.command_count or done:
                empty = PublicationRow(application_id, None, payload_digest([]), 0, clock())
                await store.remember(empty)

    current = known.get(target)
    published = force or current is None or current.digest != digest
    if published:
        await tree.sync(guild=None if target is None else discord.Object(target))
        await store.remember(PublicationRow(application_id, target, digest, len(payload), clock()))
        log.debug("published %d commands %s", len(payload), scope_name(target))
    return PublishReport(
        guild_id=target,
        published=published,
        command_count=len(payload),
        removed_from=tuple(removed),
        not_removed_from=tuple(kept),
    )


async def publish_at_start(
    tree: app_commands.CommandTree[Any],
    database: Database,
    *,
    application_id: int,
    dev_guild_id: int | None,
    force: bool,
) -> PublishReport | None:
    """`publish_commands` for the bot's start: a failure is logged, not raised.

    The bot still serves the commands Discord already has (and runs the games' clocks),
    so a refused or failed publication must not keep it down; nothing is recorded, and
    the next start tries again.
    """
    try:
        return await publish_commands(
            tree,
            DatabasePublications(database),
            application_id=application_id,
            dev_guild_id=dev_guild_id,
            force=force,
        )
    except discord.HTTPException as error:
        hint = ""
        if dev_guild_id is not None and isinstance(error, discord.Forbidden | discord.NotFound):
            hint = (
                f" Is the bot in server {dev_guild_id} (DEV_GUILD_ID), invited with the"
                " applications.commands scope?"
            )
        log.error(
            "could not publish the slash commands %s: %s.%s The next start tries again.",
            scope_name(dev_guild_id),
            error,
            hint,
        )
        return None


def announce_ready(
    client: discord.Client, report: PublishReport | None, *, publishes: bool = True
) -> None:
    """The lines a newcomer needs once the bot is up: who it is, where, its commands, and
    the link that adds it to a server (nothing else says what the bot is called or how to
    invite it). `publishes`: False for a shard process that leaves the commands to the
    one that runs shard 0."""
    user = client.user
    who = "an unknown user" if user is None else f"{user} (id {user.id})"
    servers = len(client.guilds)
    log.info("logged in as %s, in %d server%s", who, servers, "" if servers == 1 else "s")
    if not publishes:
        log.info("slash commands: published by the process that runs shard 0")
    elif report is None:
        log.info("slash commands: not published (see the error above); the next start retries")
    else:
        log.info("slash commands: %s", report.describe())
    if client.application_id is not None:
        log.info("invite link: %s", invite_url(client.application_id))
