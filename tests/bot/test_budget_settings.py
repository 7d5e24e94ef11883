"""The budgets' settings: read from `.env` into the service's `Budgets`, every one
documented in `.env.example`, and a bad one stopping the bot with one sentence before it
connects."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings
from bot.services import Budgets
from bot.services.budgets import SETTINGS, from_settings

TOKEN = "MTIzNDU2Nzg5.abc.def"


def test_the_limits_reach_the_budgets_through_the_settings(tmp_path: Path) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nLIMIT_NAMED_CHALLENGES=25\nLIMIT_ANALYSES=\n")
    settings = Settings.from_env({"LIMIT_NOTES": "200"}, env_file=env_file)
    budgets = from_settings(settings.limits)
    assert (budgets.named_challenges, budgets.notes) == (25, 200)
    assert budgets.analyses_per_member == Budgets().analyses_per_member


def test_example_file_documents_every_limit() -> None:
    example = (Path(__file__).resolve().parents[2] / ".env.example").read_text()
    for key, _ in SETTINGS.values():
        assert f"\n{key}=" in example, key


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("LIMIT_COMPUTER_GAMES=many", "LIMIT_COMPUTER_GAMES must be a whole number from 1"),
        ("LIMIT_COMPUTER_GAME=3", "LIMIT_COMPUTER_GAME is no setting of the bot"),
    ],
)
def test_a_bad_limit_stops_the_bot_before_it_connects(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    line: str,
    said: str,
) -> None:
    from bot.__main__ import main

    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n{line}\n")
    assert main(["--env-file", str(tmp_path / ".env")]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"Configuration error: {said}")
    assert "Traceback" not in err
