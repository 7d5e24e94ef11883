"""One mapping from exceptions to what the user reads.

Service and rules errors carry a sentence meant for players; everything else
is a bug, logged with its traceback, and the user gets a short apology.
"""

from __future__ import annotations

import logging

from discord import app_commands

from rules import GameError, IllegalMoveError, InvalidMoveError, SfenError

from .config import ConfigError
from .services import ServiceError

log = logging.getLogger(__name__)

APOLOGY = "Sorry, something went wrong on our side. The game is unchanged; please try again."


def user_message(error: BaseException) -> str | None:
    """The sentence to show for an expected error, or None for an unexpected one."""
    if isinstance(error, ServiceError):
        return error.message
    if isinstance(error, UserInputError):
        return str(error)
    if isinstance(error, IllegalMoveError | InvalidMoveError | SfenError | GameError | ConfigError):
        return str(error)
    return None


def reply_for(error: BaseException, *, context: str) -> str:
    """What to tell the user about `error`; logs unexpected errors with their traceback."""
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This command works only inside a server."
    original = getattr(error, "original", None)  # app_commands wraps errors in CommandInvokeError
    if isinstance(original, BaseException):
        error = original
    message = user_message(error)
    if message is None:
        log.error("unexpected error in %s", context, exc_info=error)
        return APOLOGY
    log.info("refused %s: %s", context, message)
    return message


class UserInputError(Exception):
    """An option the user gave that cannot be used; the message says what to do instead."""
