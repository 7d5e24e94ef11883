"""Settings: a missing or malformed value stops the bot with a sentence naming the key."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import DEFAULT_DATABASE, ConfigError, Settings, shard_scope

TOKEN = "fake.token-for-tests.0123456789"


def test_minimal_settings_use_defaults() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": TOKEN})
    assert settings.discord_token == TOKEN
    assert settings.database_path == DEFAULT_DATABASE
    assert settings.dev_guild_id is None
    assert settings.log_level == "INFO"


def test_all_keys_read() -> None:
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": TOKEN,
            "DATABASE_PATH": "/tmp/x.db",
            "DEV_GUILD_ID": "123",
            "LOG_LEVEL": "debug",
        }
    )
    assert settings.database_path == Path("/tmp/x.db")
    assert settings.dev_guild_id == 123
    assert settings.log_level == "DEBUG"


@pytest.mark.parametrize(
    ("values", "key"),
    [
        ({}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "   "}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": "two words"}, "DISCORD_TOKEN"),
        ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "my server"}, "DEV_GUILD_ID"),
        ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "mysql://db/shogi"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://db:port/shogi"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql://db:5432/"}, "DATABASE_URL"),
        ({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": "postgresql:///shogi"}, "DATABASE_URL"),
        (
            {
                "DISCORD_TOKEN": TOKEN,
                "DATABASE_URL": "postgresql://db/shogi",
                "DATABASE_PATH": "/tmp/x.db",
            },
            "DATABASE_URL and DATABASE_PATH",
        ),
    ],
)
def test_bad_values_name_the_key(values: dict[str, str], key: str) -> None:
    with pytest.raises(ConfigError, match=key):
        Settings.from_mapping(values)


def test_token_never_in_repr() -> None:
    settings = Settings.from_mapping({"DISCORD_TOKEN": TOKEN})
    assert TOKEN not in repr(settings)
    assert TOKEN not in str(settings)


def test_database_url_replaces_the_file_and_its_password_is_never_shown() -> None:
    url = "postgresql://shogi:s3cret-pw@db.example:5432/shogi"
    settings = Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "DATABASE_URL": url})
    assert settings.database == url
    assert settings.database_location == "postgresql://shogi:***@db.example:5432/shogi"
    assert "s3cret-pw" not in repr(settings)
    plain = Settings.from_mapping({"DISCORD_TOKEN": TOKEN})
    assert plain.database == DEFAULT_DATABASE
    assert plain.database_location == str(DEFAULT_DATABASE)


def test_env_file_read_and_environment_wins(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=WARNING\nDEV_GUILD_ID=42\n")
    settings = Settings.from_env({"LOG_LEVEL": "ERROR"}, env_file=env_file)
    assert settings.discord_token == TOKEN
    assert settings.log_level == "ERROR"
    assert settings.dev_guild_id == 42


def test_example_file_documents_every_key() -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    for key in ("DISCORD_TOKEN", "DATABASE_PATH", "DATABASE_URL", "DEV_GUILD_ID", "LOG_LEVEL"):
        assert f"\n{key}=" in example


def test_python_m_bot_stops_with_a_sentence_without_a_token(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / ".env").write_text("DISCORD_TOKEN=\n")
    assert main(["--env-file", str(tmp_path / ".env")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("Configuration error: DISCORD_TOKEN is missing")
    assert "Traceback" not in err


def test_shard_options_name_the_shards_of_this_process() -> None:
    assert shard_scope(None, None) is None
    scope = shard_scope("0-3", 8)
    assert scope is not None and scope.shard_ids == frozenset(range(4))
    assert scope.shard_count == 8
    scope = shard_scope(" 0, 2,5-7", 8)
    assert scope is not None and scope.shard_ids == frozenset({0, 2, 5, 6, 7})


@pytest.mark.parametrize(
    ("shards", "count", "says"),
    [
        ("0-3", None, "go together"),
        (None, 4, "go together"),
        ("0-3", 0, "1 or more"),
        ("0-8", 8, "from 0 to 7"),
        ("3-1", 8, "backwards"),
        ("a", 8, "like 0-3"),
        ("1-", 8, "like 0-3"),
        ("-1", 8, "like 0-3"),
    ],
)
def test_bad_shard_options_are_one_sentence(
    shards: str | None, count: int | None, says: str
) -> None:
    with pytest.raises(ConfigError, match=says):
        shard_scope(shards, count)


def test_bad_shard_options_stop_the_bot_before_it_connects(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from bot.__main__ import main

    env = tmp_path / "env"
    env.write_text(f"DISCORD_TOKEN={TOKEN}\n")
    assert main(["--env-file", str(env), "--shards", "4", "--shard-count", "4"]) == 2
    assert "shard ids go from 0 to 3" in capsys.readouterr().err


def test_engine_settings_are_read_and_checked(tmp_path: Path) -> None:
    program = tmp_path / "engine"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    settings = Settings.from_mapping(
        {
            "DISCORD_TOKEN": TOKEN,
            "ENGINE_PATH": str(program),
            "ENGINE_OPTIONS": "Hash=64; USI_OwnBook=false",
            "ENGINE_JOBS": "2",
        }
    )
    assert settings.engine_path == str(program) and settings.engine_jobs == 2
    assert dict(settings.engine_options) == {"Hash": "64", "USI_OwnBook": "false"}
    assert Settings.from_mapping({"DISCORD_TOKEN": TOKEN}).engine_path is None
    for values, key in [
        ({"ENGINE_PATH": str(tmp_path / "missing")}, "ENGINE_PATH"),
        ({"ENGINE_PATH": str(tmp_path)}, "ENGINE_PATH"),
        ({"ENGINE_OPTIONS": "Hash"}, "ENGINE_OPTIONS"),
        ({"ENGINE_JOBS": "0"}, "ENGINE_JOBS"),
        ({"ENGINE_JOBS": "many"}, "ENGINE_JOBS"),
    ]:
        with pytest.raises(ConfigError, match=key):
            Settings.from_mapping({"DISCORD_TOKEN": TOKEN, **values})


def test_the_outbox_rate_is_a_pace_under_discords_limit() -> None:
    assert Settings.from_mapping({"DISCORD_TOKEN": TOKEN}).outbox_rate == 30
    chosen = Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "OUTBOX_RATE": "12.5"})
    assert chosen.outbox_rate == 12.5
    for written in ("0", "-3", "51", "many", "nan", "inf"):
        with pytest.raises(ConfigError, match="OUTBOX_RATE"):
            Settings.from_mapping({"DISCORD_TOKEN": TOKEN, "OUTBOX_RATE": written})
