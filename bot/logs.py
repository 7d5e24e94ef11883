"""How the bot's log lines are written: text for a person, or JSON for a machine.

`LOG_FORMAT=json` writes one JSON object a line with the time, level, logger and
message, and where known the game, the server and its shard (from the context of the
interaction or task that logged it, `bot.services.logcontext`), and this process's
shards; an exception's traceback goes in `exception`. The token is never written:
should any message contain it, it is replaced before the line is written.
"""

from __future__ import annotations

import json
import logging
from datetime import UTC, datetime

from .db import ShardScope, shard_of
from .services.logcontext import current

TEXT_FORMAT = "%(asctime)s %(levelname)-8s %(name)s: %(message)s"
HIDDEN = "[token hidden]"


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
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        text = json.dumps(line, ensure_ascii=False)
        if self._secret is not None and self._secret in text:
            text = text.replace(self._secret, HIDDEN)
        return text


def configure(
    level: int, log_format: str, *, scope: ShardScope | None = None, secret: str | None = None
) -> None:
    """Set up the root logger once at start: text or JSON lines on standard error."""
    handler = logging.StreamHandler()
    if log_format == "json":
        handler.setFormatter(JsonFormatter(scope=scope, secret=secret))
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    logging.basicConfig(level=level, handlers=[handler])
