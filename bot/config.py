"""Settings from the environment and a `.env` file, checked once at start-up.

A bad value stops the bot before it connects, with a sentence that names the
key, so a newcomer never meets a stack trace from deep inside discord.py.
The token and the database address (which may carry a password) are kept out of
`repr()` so they cannot leak into logs; `database_location` is the address to log.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import dotenv_values

from .db.addresses import without_password
from .db.limiters import DISCORD_RATE, Pace
from .db.shards import ShardScope
from .engine.pool import parse_options

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "shogi.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
#: Discord's global limit: the outbox's pace may come close, never beyond.
MAX_OUTBOX_RATE = 50


class ConfigError(ValueError):
    """A missing or malformed setting; the message names the key."""


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything the bot reads from its environment."""

    discord_token: str = field(repr=False)
    database_path: Path = DEFAULT_DATABASE
    #: A PostgreSQL server's address (`postgresql://user:password@host:port/name`), which
    #: replaces the SQLite file when set.
    database_url: str | None = field(default=None, repr=False)
    dev_guild_id: int | None = None
    log_level: str = "INFO"
    #: `text` (one line a record, for a person) or `json` (one object a line, for a machine).
    log_format: str = "text"
    #: The port of `/healthz` and `/metrics` on 127.0.0.1 (None: no such endpoint).
    metrics_port: int | None = None
    #: A USI engine to play the computer's games and analyse finished ones (None: none).
    engine_path: str | None = None
    engine_options: Mapping[str, str] = field(default_factory=dict)
    #: How many engine searches may run at once, over the whole bot.
    engine_jobs: int = 1
    #: The `LIMIT_...` settings as written: the budgets per member and server, which the
    #: service reads (`bot.services.budgets.from_settings` checks them).
    limits: Mapping[str, str] = field(default_factory=dict)
    #: At most this many of the bot's own sends a second (reminders, time-outs, direct
    #: messages, digests: the outbox), below Discord's 50 requests a second per bot, so
    #: that members' own requests keep room.
    outbox_rate: float = 30.0
    #: How fast the bot's requests may go against Discord's global limit (all processes).
    pace: Pace = field(default_factory=Pace)
    #: Whether the processes share one bucket of that limit (in Redis, else in PostgreSQL);
    #: off, each keeps its own (one process, or a test that wants the limit broken).
    rate_limit_shared: bool = True
    #: A Redis server's address (`redis://host:6379/0`) for the shared bucket, which
    #: replaces the PostgreSQL one when set.
    redis_url: str | None = field(default=None, repr=False)

    @classmethod
    def from_env(
        cls, environ: Mapping[str, str] | None = None, *, env_file: str | Path | None = ".env"
    ) -> Settings:
        """Read settings: real environment variables win over the `.env` file."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ if environ is None else environ)
        return cls.from_mapping(values)

    @staticmethod
    def values(env_file: str | Path | None = ".env") -> dict[str, str]:
        """The raw settings: the `.env` file, then the real environment over it."""
        values: dict[str, str] = {}
        if env_file is not None and Path(env_file).is_file():
            values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
        values.update(os.environ)
        return values

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError(
                "DISCORD_TOKEN is missing: put the bot token from the Discord developer portal "
                "in .env (see .env.example)."
            )
        if any(c.isspace() for c in token):
            raise ConfigError("DISCORD_TOKEN contains spaces; paste the token alone.")
        database = values.get("DATABASE_PATH", "").strip()
        database_url = _database_url(values.get("DATABASE_URL", "").strip())
        if database_url is not None and database:
            raise ConfigError(
                "DATABASE_URL and DATABASE_PATH are both set: keep DATABASE_URL for "
                "PostgreSQL or DATABASE_PATH for a SQLite file, not both."
            )
        guild_text = values.get("DEV_GUILD_ID", "").strip()
        dev_guild_id = None
        if guild_text:
            if not guild_text.isdigit():
                raise ConfigError("DEV_GUILD_ID must be a server id (a number), or left empty.")
            dev_guild_id = int(guild_text)
        level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}.")
        log_format = values.get("LOG_FORMAT", "text").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise ConfigError(f"LOG_FORMAT must be one of {', '.join(LOG_FORMATS)}.")
        port_text = values.get("METRICS_PORT", "").strip()
        metrics_port = None
        if port_text:
            if not port_text.isdigit() or not 1 <= int(port_text) <= 65535:
                raise ConfigError("METRICS_PORT must be a port number (1 to 65535), or left empty.")
            metrics_port = int(port_text)
        engine_path, engine_options, engine_jobs = _engine_settings(values)
        rate_text = values.get("OUTBOX_RATE", "").strip() or "30"
        try:
            outbox_rate = float(rate_text)
        except ValueError:
            outbox_rate = 0.0
        if not 0 < outbox_rate <= MAX_OUTBOX_RATE:
            raise ConfigError(
                f"OUTBOX_RATE must be a number of sends a second above 0 and at most "
                f"{MAX_OUTBOX_RATE} (Discord's limit is 50 requests a second), or left empty."
            )
        pace, shared, redis_url = _rate_limit_settings(values)
        return cls(
            discord_token=token,
            database_path=Path(database) if database else DEFAULT_DATABASE,
            database_url=database_url,
            dev_guild_id=dev_guild_id,
            log_level=level,
            log_format=log_format,
            metrics_port=metrics_port,
            engine_path=engine_path,
            engine_options=engine_options,
            engine_jobs=engine_jobs,
            limits={key: text for key, text in values.items() if key.startswith("LIMIT_")},
            outbox_rate=outbox_rate,
            pace=pace,
            rate_limit_shared=shared,
            redis_url=redis_url,
        )

    @property
    def database(self) -> str | Path:
        """What `open_database` takes: the PostgreSQL address, or the SQLite file."""
        return self.database_path if self.database_url is None else self.database_url

    @property
    def database_location(self) -> str:
        """Where the data lives, fit for a log: the address without its password."""
        if self.database_url is None:
            return str(self.database_path)
        return without_password(self.database_url)

    @property
    def logging_level(self) -> int:
        return int(logging.getLevelName(self.log_level))


def _database_url(text: str) -> str | None:
    """DATABASE_URL checked: empty, or a PostgreSQL address naming a host and a database."""
    if not text:
        return None
    parts = urlsplit(text)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ConfigError(
            "DATABASE_URL must be a PostgreSQL address, "
            "postgresql://user:password@host:5432/database (or empty for the SQLite file)."
        )
    try:
        port = parts.port
    except ValueError:
        port = -1
    if not parts.hostname or port == -1 or parts.path.strip("/") == "":
        raise ConfigError(
            "DATABASE_URL must name a host and a database: "
            "postgresql://user:password@host:5432/database."
        )
    return text


def database_path(values: Mapping[str, str]) -> Path:
    """Where the SQLite database is (`DATABASE_PATH`, else the default), for the tools
    that need the database but not Discord (`python -m bot.db`)."""
    database = values.get("DATABASE_PATH", "").strip()
    return Path(database) if database else DEFAULT_DATABASE


def shard_scope(shards: str | None, shard_count: int | None) -> ShardScope | None:
    """The shards one process runs, from `--shards 0-3 --shard-count 8` (ranges and
    single ids separated by commas: `0-1,4`); None without either option: one process
    for every server, with the shard count Discord recommends."""
    if shards is None and shard_count is None:
        return None
    if shards is None or shard_count is None:
        raise ConfigError("--shards and --shard-count go together: give both, or neither.")
    if shard_count < 1:
        raise ConfigError("--shard-count must be 1 or more.")
    chosen: set[int] = set()
    for part in shards.split(","):
        first, dash, last = part.strip().partition("-")
        if not first.isdigit() or (dash and not last.isdigit()):
            raise ConfigError(
                f"--shards {shards!r}: write shard ids and ranges like 0-3 or 0,2,5-7."
            )
        low, high = int(first), int(last) if dash else int(first)
        if low > high:
            raise ConfigError(f"--shards {shards!r}: the range {part.strip()} runs backwards.")
        chosen.update(range(low, high + 1))
    if max(chosen) >= shard_count:
        raise ConfigError(
            f"--shards {shards!r}: with --shard-count {shard_count} the shard ids go from 0 "
            f"to {shard_count - 1}."
        )
    return ShardScope(frozenset(chosen), shard_count)


def _engine_settings(values: Mapping[str, str]) -> tuple[str | None, dict[str, str], int]:
    """`ENGINE_PATH` (an executable program), `ENGINE_OPTIONS` (`Name=value;...`) and
    `ENGINE_JOBS` (a positive number), checked now rather than at the first search."""
    path = values.get("ENGINE_PATH", "").strip()
    if path and not (Path(path).is_file() and os.access(path, os.X_OK)):
        raise ConfigError(
            f"ENGINE_PATH is {path!r}, which is not a program this user can run "
            "(install one, e.g. apt-get install fairy-stockfish, or leave ENGINE_PATH empty)."
        )
    try:
        options = parse_options(values.get("ENGINE_OPTIONS", ""))
    except ValueError as error:
        raise ConfigError(f"ENGINE_OPTIONS: {error} (e.g. Hash=64;USI_OwnBook=false).") from None
    jobs_text = values.get("ENGINE_JOBS", "1").strip() or "1"
    if not jobs_text.isdigit() or int(jobs_text) < 1:
        raise ConfigError("ENGINE_JOBS must be a whole number of engine searches, 1 or more.")
    return path or None, options, int(jobs_text)


def _rate_limit_settings(values: Mapping[str, str]) -> tuple[Pace, bool, str | None]:
    """`RATE_LIMIT_PER_SECOND` (above 0, at most Discord's 50), `RATE_LIMIT_BURST` (1 or
    more), `RATE_LIMIT_SHARED` (`on` or `off`) and `REDIS_URL` (empty, or `redis://...`)."""
    default = Pace()
    rate_text = values.get("RATE_LIMIT_PER_SECOND", "").strip()
    rate = default.rate
    if rate_text:
        try:
            rate = float(rate_text)
        except ValueError:
            rate = -1.0
        if not 0 < rate <= DISCORD_RATE:
            raise ConfigError(
                f"RATE_LIMIT_PER_SECOND must be a number of requests a second above 0 and at "
                f"most Discord's {DISCORD_RATE:g} (default {default.rate:g}), or left empty."
            )
    burst_text = values.get("RATE_LIMIT_BURST", "").strip()
    burst = default.burst
    if burst_text:
        if not burst_text.isdigit() or not 1 <= int(burst_text) <= 50:
            raise ConfigError(
                f"RATE_LIMIT_BURST must be a whole number of requests from 1 to 50 "
                f"(default {default.burst}), or left empty."
            )
        burst = int(burst_text)
    shared_text = values.get("RATE_LIMIT_SHARED", "").strip().lower() or "on"
    if shared_text not in ("on", "off"):
        raise ConfigError("RATE_LIMIT_SHARED must be on (the default) or off.")
    redis_url = values.get("REDIS_URL", "").strip() or None
    if redis_url is not None:
        parts = urlsplit(redis_url)
        if parts.scheme not in ("redis", "rediss", "unix") or not (parts.hostname or parts.path):
            raise ConfigError(
                "REDIS_URL must be a Redis address, redis://host:6379/0 (or empty: the "
                "processes share the limit through PostgreSQL)."
            )
    return Pace(rate, burst), shared_text == "on", redis_url
