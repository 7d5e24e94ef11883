"""How the bot's log lines are written: text for a person, or JSON for a machine.

`LOG_FORMAT=json` writes one JSON object a line with the time, level, logger and
message, and where known the game, the server and its shard (from the context of the
interaction or task that logged it, `bot.services.logcontext`), and this process's
shards; an exception's traceback goes in `exception`.

No secret is written, in either format, at any level: `Redactor`, a filter on the handler
installed here, rewrites every record before it is formatted. discord.py at DEBUG logs
every REST call's URL and every gateway event it receives; an interaction's token is in
the URL of its callback and follow-ups (`/interactions/{id}/{token}/callback`,
`/webhooks/{application}/{token}`) and in the `INTERACTION_CREATE` event (`'token': ...`),
and with it anyone could answer as the bot for the next quarter of an hour. The bot token
is hidden wherever it shows, with anything shaped like a Discord token (three dot-separated
base64 parts) and an `Authorization: Bot ...` value.
"""

from __future__ import annotations

import json
import logging
import re
from datetime import UTC, datetime
from typing import TextIO

from .db import ShardScope, shard_of
from .services.logcontext import current

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
HIDDEN = "[token hidden]"

#: A token in the path of an interaction's callback or a webhook's (follow-up) URL.
_PATH_TOKEN = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/\s?#'\"]+")
#: A `token` field of a payload, as a Python dict or JSON prints it.
_FIELD_TOKEN = re.compile(r"""(['"](?:token|access_token)['"]\s*:\s*['"])[^'"]*""")
#: An authorization header's value.
_AUTHORIZATION = re.compile(r"\b(Bot|Bearer)\s+[A-Za-z0-9_.\-]{16,}")
#: Anything shaped like a Discord bot token: a user id, a time and a signature in base64,
#: separated by dots. The look-behind makes a match start only where a run of such
#: characters starts, so a long run with no dot costs one pass, not one per position.
_TOKEN_SHAPE = re.compile(
    r"(?<![A-Za-z0-9_\-])[A-Za-z0-9_\-]{18,}\.[A-Za-z0-9_\-]{4,}\.[A-Za-z0-9_\-]{20,}"
)
#: Formats a traceback once, so that its text can be redacted before any handler writes it.
_TRACEBACKS = logging.Formatter()


def redact(text: str, secret: str | None = None) -> str:
    """`text` without tokens: the bot token `secret` (and its signature alone), interaction
    and webhook tokens in URLs and payloads, and anything shaped like a bot token.

    >>> redact("POST /interactions/12/aW50ZXJhY3Rpb246/callback")
    'POST /interactions/12/[token hidden]/callback'
    """
    if secret:
        text = text.replace(secret, HIDDEN)
        signature = secret.rsplit(".", 1)[-1]
        if len(signature) >= 16:
            text = text.replace(signature, HIDDEN)
    text = _PATH_TOKEN.sub(rf"\1{HIDDEN}", text)
    text = _FIELD_TOKEN.sub(rf"\1{HIDDEN}", text)
    text = _AUTHORIZATION.sub(rf"\1 {HIDDEN}", text)
    return _TOKEN_SHAPE.sub(HIDDEN, text)


class Redactor(logging.Filter):
    """Rewrites a record's message, traceback and stack without secrets (see `redact`),
    before any formatter, text or JSON, sees it. Never drops a record."""

    def __init__(self, secret: str | None = None) -> None:
        super().__init__()
        self._secret = secret or None

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact(message, self._secret)
        if clean != message or record.args:
            record.msg, record.args = clean, None
        if record.exc_info and not record.exc_text:
            record.exc_text = _TRACEBACKS.formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text, self._secret)
        if record.stack_info:
            record.stack_info = redact(record.stack_info, self._secret)
        return True


class JsonFormatter(logging.Formatter):
    """One JSON object a record."""

    def __init__(self, *, scope: ShardScope | None = None, secret: str | None = None) -> None:
        super().__init__()
        self._scope = scope
        self._secret = secret or None
        self._shards = None if scope is None else ",".join(str(s) for s in sorted(scope.shard_ids))

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        subject = current()
        game, guild = subject.game, subject.guild
        if game is not None:
            line["game"] = game
        if guild is not None:
            line["guild"] = guild
            if self._scope is not None:
                line["shard"] = shard_of(guild, self._scope.shard_count)
        if self._shards is not None:
            line["process_shards"] = self._shards
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        text = json.dumps(line, ensure_ascii=False)
        if self._secret is not None and self._secret in text:
            text = text.replace(self._secret, HIDDEN)
        return text


def log_handler(
    log_format: str,
    *,
    scope: ShardScope | None = None,
    secret: str | None = None,
    stream: TextIO | None = None,
) -> logging.Handler:
    """The handler the bot logs through: text or JSON lines on `stream` (standard error by
    default), without secrets (`Redactor`)."""
    handler = logging.StreamHandler(stream)
    handler.addFilter(Redactor(secret))
    if log_format == "json":
        handler.setFormatter(JsonFormatter(scope=scope, secret=secret))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    return handler


def configure(
    level: int, log_format: str, *, scope: ShardScope | None = None, secret: str | None = None
) -> None:
    """Set up the root logger once at start: `log_handler`'s lines on standard error."""
    handler = log_handler(log_format, scope=scope, secret=secret)
    logging.basicConfig(level=level, handlers=[handler])
