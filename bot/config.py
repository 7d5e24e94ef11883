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

from .db.database import without_password
from .engine.pool import parse_options

DEFAULT_DATABASE = Path(__file__).resolve().parent.parent / "data" / "shogi.db"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


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
    #: A USI engine to play the computer's games and analyse finished ones (None: none).
    engine_path: str | None = None
    engine_options: Mapping[str, str] = field(default_factory=dict)
    #: How many engine searches may run at once, over the whole bot.
    engine_jobs: int = 1

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
        engine_path, engine_options, engine_jobs = _engine_settings(values)
        return cls(
            discord_token=token,
            database_path=Path(database) if database else DEFAULT_DATABASE,
            database_url=database_url,
            dev_guild_id=dev_guild_id,
            log_level=level,
            engine_path=engine_path,
            engine_options=engine_options,
            engine_jobs=engine_jobs,
        )

    @property
    def database(self) -> str | Path:
        """What `Database.open` takes: the PostgreSQL address, or the SQLite file."""
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
