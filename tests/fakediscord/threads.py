"""Threads as Discord keeps them: renamed and archived by their owner or by members who may
manage threads, reopened by a post, and closed to changes while archived.

The rules modelled (Discord's "Modify Channel" for threads, and what posting does):

- Only unarchiving an unlocked thread needs no more than the right to send messages.
  Anything else needs Manage Threads, except that the thread's owner may change its
  name, `archived` and `auto_archive_duration`. Locking, and reopening a locked thread,
  always need Manage Threads.
- An archived thread takes no change unless the same request unarchives it (400, code
  50083), and its messages cannot be edited.
- Reopening a thread (by a PATCH or a post) in a guild at its cap of active threads
  (``fake.limits.active_threads``) is refused (400, code 160006), as creating one is.
- A post in an archived thread that is not locked reopens it (a THREAD_UPDATE goes out
  first); in a locked one it is refused to anyone who may not manage threads.
"""

from __future__ import annotations

import time
from typing import Final

from .constants import ErrorCode, Perm
from .models import JSON, FakeChannel
from .state import World
from .validation import DiscordHTTPError, check_length, form_error, not_modelled

ARCHIVE_DURATIONS: Final = (60, 1440, 4320, 10080)
MODELLED: Final = frozenset({"name", "archived", "locked", "auto_archive_duration"})
OWNER_MAY: Final = frozenset({"name", "archived", "auto_archive_duration"})


def archived_error() -> DiscordHTTPError:
    return DiscordHTTPError(400, ErrorCode.THREAD_ARCHIVED, "Thread is archived")


def missing_permissions() -> DiscordHTTPError:
    return DiscordHTTPError(403, ErrorCode.MISSING_PERMISSIONS, "Missing Permissions")


def _validate(body: JSON) -> None:
    unknown = set(body) - MODELLED
    if unknown:
        raise not_modelled(f"changing a thread's {', '.join(sorted(unknown))}")
    if "name" in body:
        check_length(body["name"], "name", low=1, high=100)
    for flag in ("archived", "locked"):
        if flag in body and not isinstance(body[flag], bool):
            raise form_error(flag, "Must be either true or false.", "BOOLEAN_TYPE_COERCE")
    duration = body.get("auto_archive_duration")
    if "auto_archive_duration" in body and duration not in ARCHIVE_DURATIONS:
        raise form_error("auto_archive_duration", f"Value must be one of {ARCHIVE_DURATIONS}.")


def _allowed(world: World, thread: FakeChannel, body: JSON, user_id: int) -> bool:
    perms = world.permissions(thread.guild_id, user_id)
    if not perms & Perm.VIEW_CHANNEL:
        return False
    if perms & Perm.MANAGE_THREADS:
        return True
    if "locked" in body:
        return False
    reopening = body.get("archived") is False
    if reopening and thread.locked:
        return False
    if set(body) == {"archived"} and reopening:
        return bool(perms & Perm.SEND_MESSAGES)
    return thread.owner_id == user_id and set(body) <= OWNER_MAY


def modify_thread(world: World, thread: FakeChannel, body: JSON, *, user_id: int) -> None:
    """Apply a PATCH of `thread` by `user_id`, or raise the error Discord answers with."""
    _validate(body)
    if thread.archived and body.get("archived") is not False:
        raise archived_error()
    if not _allowed(world, thread, body, user_id):
        raise missing_permissions()
    if thread.archived and body.get("archived") is False:
        world.check_thread_cap(thread.guild_id)
    if "name" in body:
        thread.name = body["name"]
    if "auto_archive_duration" in body:
        thread.auto_archive_duration = body["auto_archive_duration"]
    if "locked" in body:
        thread.locked = body["locked"]
    if "archived" in body and body["archived"] != thread.archived:
        thread.archived = body["archived"]
        thread.archive_timestamp = time.time()


def reopen_for_post(world: World, thread: FakeChannel, *, user_id: int) -> bool:
    """Before `user_id` posts in `thread`: reopen it if it is archived (True when it was),
    or refuse the post if it is locked and they may not manage threads."""
    if not thread.is_thread or not thread.archived:
        return False
    if thread.locked and not world.permissions(thread.guild_id, user_id) & Perm.MANAGE_THREADS:
        raise archived_error()
    world.check_thread_cap(thread.guild_id)
    thread.archived = False
    thread.archive_timestamp = time.time()
    return True
