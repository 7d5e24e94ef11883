"""A small fake Discord for end-to-end tests: REST under /api/v10 and the gateway websocket,
on 127.0.0.1, driven by the *unmodified* discord.py client.

Why it exists: there is no network to Discord in tests or CI, and a mock of discord.py would
test the mock.  It keeps what Discord keeps for the bot (guilds, roles, members, channels,
threads, messages with their files, commands, interactions), answers as Discord does where a bot can
get it wrong, and records everything so a test can read it back.  It models only what the bot
and the tests use; what it does not model it refuses, so that a test names the gap.

The modules, from Discord's side to the test's:

* :mod:`.constants`, :mod:`.models`, :mod:`.validation`: Discord's numbers, what it stores,
  the checks it makes (these three and the REST and gateway code do not import discord.py,
  so they describe Discord without borrowing the client's assumptions);
* :mod:`.state`: the one :class:`World` every part reads and changes, with
  :mod:`.counting` (``fake.request_counts``: REST requests by route and against Discord's
  global limit) and :mod:`.limits` (``fake.limits``: Discord's rate limits, the ban after
  invalid requests, the active-thread cap and the upload size, enforced with Discord's
  figures by default, per-route buckets on request; ``fake.rate_limited`` counts the 429s);
* :mod:`.messages`, :mod:`.rest`, :mod:`.gateway`, :mod:`.server`: the wire;
* :mod:`.members`, :mod:`.results`, :mod:`.driver`, :mod:`.runner`: what tests call.
"""

from .constants import ChannelType, ErrorCode, InteractionType, Perm, ResponseType
from .counting import RequestCounts, is_global_limited
from .driver import FakeDiscord
from .limits import Limits, RateLimitCounts, RouteLimit
from .members import UserCannotDoThat
from .models import (
    FakeAttachment,
    FakeChannel,
    FakeCommand,
    FakeGuild,
    FakeInteraction,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    RequestRecord,
    UserFile,
)
from .rest import CALLBACK, CREATE_MESSAGE, MODIFY_CHANNEL, OPEN_DM
from .results import Choice, HarnessTimeout, InteractionRejected, InteractionResult
from .runner import BotRunner, E2EGuard
from .server import DiscordPointer

__all__ = [
    "CALLBACK",
    "CREATE_MESSAGE",
    "MODIFY_CHANNEL",
    "OPEN_DM",
    "BotRunner",
    "ChannelType",
    "Choice",
    "DiscordPointer",
    "E2EGuard",
    "ErrorCode",
    "FakeAttachment",
    "FakeChannel",
    "FakeCommand",
    "FakeDiscord",
    "FakeGuild",
    "FakeInteraction",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "HarnessTimeout",
    "InteractionRejected",
    "InteractionResult",
    "InteractionType",
    "Limits",
    "Perm",
    "RateLimitCounts",
    "RequestCounts",
    "RequestRecord",
    "ResponseType",
    "RouteLimit",
    "UserCannotDoThat",
    "UserFile",
    "is_global_limited",
]
