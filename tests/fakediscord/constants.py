"""Discord's numbers that the fake computes with: permission and intent bits, channel,
interaction, response and option types, message flags, JSON error codes and size limits.

Why only these: each value here is one the bot or the tests make the fake act on.  A value
Discord has but nothing here sends or checks would be a promise the fake does not keep.
"""

from __future__ import annotations

from typing import Final

#: Every REST route lives under this prefix (discord.py's ``Route.BASE`` ends with it).
API_PREFIX: Final = "/api/v10"
#: Snowflakes count milliseconds from the first second of 2015.
DISCORD_EPOCH_MS: Final = 1_420_070_400_000


class Perm:
    """Permission bits the fake grants or checks."""

    ADMINISTRATOR: Final = 1 << 3
    MANAGE_GUILD: Final = 1 << 5
    ADD_REACTIONS: Final = 1 << 6
    VIEW_CHANNEL: Final = 1 << 10
    SEND_MESSAGES: Final = 1 << 11
    MANAGE_MESSAGES: Final = 1 << 13
    EMBED_LINKS: Final = 1 << 14
    ATTACH_FILES: Final = 1 << 15
    READ_MESSAGE_HISTORY: Final = 1 << 16
    USE_EXTERNAL_EMOJIS: Final = 1 << 18
    USE_APPLICATION_COMMANDS: Final = 1 << 31
    MANAGE_THREADS: Final = 1 << 34
    CREATE_PUBLIC_THREADS: Final = 1 << 35
    SEND_MESSAGES_IN_THREADS: Final = 1 << 38
    ALL: Final = (1 << 53) - 1

    #: What @everyone may do in a freshly made test server.
    EVERYONE_DEFAULT: Final = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_EXTERNAL_EMOJIS
        | USE_APPLICATION_COMMANDS
        | CREATE_PUBLIC_THREADS
        | SEND_MESSAGES_IN_THREADS
    )
    #: What the bot's managed role adds on top of @everyone.
    BOT_DEFAULT: Final = EVERYONE_DEFAULT | MANAGE_MESSAGES | MANAGE_THREADS


class Intent:
    """Gateway intent bits that change what the fake sends."""

    GUILDS: Final = 1 << 0
    GUILD_MEMBERS: Final = 1 << 1
    GUILD_MESSAGES: Final = 1 << 9
    DIRECT_MESSAGES: Final = 1 << 12
    #: Privileged: without it a guild message's content, embeds, attachments and components
    #: arrive empty unless the message mentions the bot (see ``gateway.as_seen``).
    MESSAGE_CONTENT: Final = 1 << 15


class ApplicationFlag:
    #: The Server Members intent switched on in the developer portal, as for an
    #: application in fewer than 100 servers (no review needed).
    GUILD_MEMBERS_LIMITED: Final = 1 << 15


class ChannelType:
    """The channels the fake has: text channels, direct messages between the bot and one
    user, and the public threads started on a message."""

    TEXT: Final = 0
    DM: Final = 1
    PUBLIC_THREAD: Final = 11


class InteractionType:
    APPLICATION_COMMAND: Final = 2
    MESSAGE_COMPONENT: Final = 3
    AUTOCOMPLETE: Final = 4
    MODAL_SUBMIT: Final = 5


class ResponseType:
    """Interaction callback types the fake models (a modal, 9, with text inputs only)."""

    CHANNEL_MESSAGE: Final = 4
    DEFERRED_CHANNEL_MESSAGE: Final = 5
    DEFERRED_UPDATE_MESSAGE: Final = 6
    UPDATE_MESSAGE: Final = 7
    AUTOCOMPLETE_RESULT: Final = 8
    MODAL: Final = 9


#: Which callback types Discord accepts for which interaction type (of those modelled).
ALLOWED_RESPONSES: Final[dict[int, frozenset[int]]] = {
    InteractionType.APPLICATION_COMMAND: frozenset({4, 5, 9}),
    InteractionType.MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9}),
    InteractionType.AUTOCOMPLETE: frozenset({8}),
    InteractionType.MODAL_SUBMIT: frozenset({4, 5}),
}


class MessageFlag:
    SUPPRESS_EMBEDS: Final = 1 << 2
    EPHEMERAL: Final = 1 << 6
    LOADING: Final = 1 << 7
    SUPPRESS_NOTIFICATIONS: Final = 1 << 12


class OptionType:
    SUB_COMMAND: Final = 1
    SUB_COMMAND_GROUP: Final = 2
    STRING: Final = 3
    INTEGER: Final = 4
    BOOLEAN: Final = 5
    USER: Final = 6
    ROLE: Final = 8
    #: A user or a role: the value is either's id, resolved under ``users`` and
    #: ``members`` or under ``roles``.
    MENTIONABLE: Final = 9
    NUMBER: Final = 10
    ATTACHMENT: Final = 11


class ComponentType:
    ACTION_ROW: Final = 1
    BUTTON: Final = 2
    STRING_SELECT: Final = 3


class ButtonStyle:
    LINK: Final = 5
    PREMIUM: Final = 6


class ErrorCode:
    """Discord JSON error codes the fake answers with (0: no specific code)."""

    GENERAL: Final = 0
    UNKNOWN_CHANNEL: Final = 10003
    UNKNOWN_GUILD: Final = 10004
    UNKNOWN_MEMBER: Final = 10007
    UNKNOWN_MESSAGE: Final = 10008
    UNKNOWN_WEBHOOK: Final = 10015
    UNKNOWN_INTERACTION: Final = 10062
    UNAUTHORIZED: Final = 40001
    REQUEST_TOO_LARGE: Final = 40005
    ALREADY_ACKNOWLEDGED: Final = 40060
    #: The bot may not read this: for the list of a guild's members, the application's
    #: Server Members intent is off in the developer portal.
    MISSING_ACCESS: Final = 50001
    CANNOT_EDIT_OTHERS_MESSAGE: Final = 50005
    EMPTY_MESSAGE: Final = 50006
    #: A direct message to a user who does not accept them from the bot (they closed
    #: direct messages from server members, or blocked the bot).
    CANNOT_MESSAGE_USER: Final = 50007
    MISSING_PERMISSIONS: Final = 50013
    INVALID_RECIPIENTS: Final = 50033
    INVALID_FORM_BODY: Final = 50035
    #: An archived thread cannot take the change asked (reopen it first), or a locked one
    #: a message from someone who may not manage threads.
    THREAD_ARCHIVED: Final = 50083
    INVALID_JSON: Final = 50109
    THREAD_ALREADY_CREATED: Final = 160004
    MAX_ACTIVE_THREADS: Final = 160006


#: Discord's limits on what a bot sends.
MAX_CONTENT: Final = 2000
MAX_EMBEDS: Final = 10
MAX_EMBED_TOTAL: Final = 6000
MAX_CUSTOM_ID: Final = 100
MAX_ACTION_ROWS: Final = 5
MAX_ROW_BUTTONS: Final = 5
MAX_CHOICES: Final = 25
#: A string select: at most 25 options, labels and values of 100, a placeholder of 150.
MAX_SELECT_OPTIONS: Final = 25
MAX_OPTION_TEXT: Final = 100
MAX_PLACEHOLDER: Final = 150
MAX_FILES: Final = 10
#: An attachment's description (its alt text).
MAX_ATTACHMENT_DESCRIPTION: Final = 1024
MAX_STRING_OPTION: Final = 6000
#: The most members one page of a guild's member list holds.
MAX_MEMBER_PAGE: Final = 1000
#: What a bot may upload per file in a server without boosts (sent in every interaction).
ATTACHMENT_SIZE_LIMIT: Final = 10 * 1024 * 1024
#: Seconds Discord waits for an interaction's initial response.
INTERACTION_TIMEOUT: Final = 3.0
#: Milliseconds between heartbeats that HELLO asks for.
HEARTBEAT_INTERVAL_MS: Final = 41_250
