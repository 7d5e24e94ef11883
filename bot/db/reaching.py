"""Why a PostgreSQL database could not be opened, in one sentence for the operator.

asyncpg reports each failure to connect as its own exception, often several frames deep
(a refused port as an `OSError` out of asyncio, a missing database as the server's
`InvalidCatalogNameError`); shown as they come they are a long traceback, and a refused
port even read as "Could not reach Discord", since both are `OSError`s. `connecting(url)`
wraps a connection attempt and turns each kind into a `DatabaseUnreachable` that names
it: the server not answering (down, or the host or port wrong), the database missing, the
password refused, the role refused, with the address shown without its password. Only
asyncpg is imported here, and only when a PostgreSQL address is opened: it is an extra.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import unquote, urlsplit

import asyncpg

from .addresses import without_password
from .errors import DatabaseUnreachable

#: Seconds to wait for the server to accept a connection and answer its start-up.
CONNECT_TIMEOUT = 15.0


def unreachable(error: BaseException, url: str) -> DatabaseUnreachable | None:
    """The sentence for `error`, raised while connecting to `url`; None if it is not one
    of the ways a connection fails.

    >>> str(unreachable(ConnectionRefusedError(111, "Connection refused"), "postgresql://u:pw@db:5/x"))
    'Could not reach the PostgreSQL server at postgresql://u:***@db:5/x (Connection refused): ...'
    """
    where = without_password(url)
    parts = urlsplit(url)
    role = unquote(parts.username or "") or "(the system user's name)"
    name = unquote(parts.path.lstrip("/")) or role
    if isinstance(error, asyncpg.InvalidCatalogNameError):
        sentence = (
            f"The PostgreSQL server at {where} has no database {name!r}: create it "
            f"(createdb -O {role} {name}, as the postgres user) or correct the address."
        )
    elif isinstance(error, asyncpg.InvalidPasswordError):
        sentence = (
            f"The PostgreSQL server at {where} refused the password for role {role!r} "
            "(or there is no such role): check the user name and password in the address."
        )
    elif isinstance(error, asyncpg.InvalidAuthorizationSpecificationError):
        sentence = (
            f"The PostgreSQL server at {where} refused role {role!r} ({_reason(error)}): "
            "create the role (createuser --pwprompt, as the postgres user) or correct the "
            "user name in the address."
        )
    elif isinstance(error, TimeoutError | asyncio.TimeoutError):
        sentence = (
            f"The PostgreSQL server at {where} did not answer within {CONNECT_TIMEOUT:.0f} s: "
            "check the host and port in the address, and that the server is running."
        )
    elif isinstance(error, OSError):
        sentence = (
            f"Could not reach the PostgreSQL server at {where} ({_reason(error)}): is it "
            "running, and are the host and port in the address right?"
        )
    elif isinstance(error, asyncpg.PostgresError):
        sentence = f"The PostgreSQL server at {where} refused the connection: {_reason(error)}."
    elif isinstance(error, asyncpg.InterfaceError):  # the address itself, before any server
        sentence = f"The PostgreSQL address {where} cannot be used: {_reason(error)}."
    else:
        return None
    password = parts.password if parts.password else None
    if password is not None:
        sentence = sentence.replace(unquote(password), "***").replace(password, "***")
    return DatabaseUnreachable(sentence)


def _reason(error: BaseException) -> str:
    """The error's own words on one line: the server's message, or the system's."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    text = " ".join(str(error).split()) or type(error).__name__
    return text.rstrip(".")


@asynccontextmanager
async def connecting(url: str) -> AsyncIterator[None]:
    """Around a first connection to `url`: a failure to connect becomes the
    `DatabaseUnreachable` that names it (`unreachable`), without the chain behind it."""
    try:
        yield
    except Exception as error:
        sentence = unreachable(error, url)
        if sentence is None:
            raise
        raise sentence from None
