"""The bot token never shows: not in logs (at DEBUG, everything), errors or exceptions.

In the test process: a bot logged in with a known fake token plays a game against the fake
Discord with a rate limit, a server error, a dropped gateway and an unexpected error on the
way, while every log record of every logger is captured at DEBUG.  In a child process:
``python -m bot`` at ``LOG_LEVEL=DEBUG`` through a configuration error, a refused token and a
normal start, with stdout and stderr captured.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
import traceback
from pathlib import Path

import discord
import pytest

from bot import create_bot
from bot.config import ConfigError, Settings
from tests.fakediscord import CALLBACK, CREATE_MESSAGE, BotRunner, E2EGuard, FakeDiscord
from tests.support.club import Club

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "MTI3NzQ1Njc4OTAxMjM0NTY3OA.GkRbst.robustness-SECRET-token-4f9a2c7e1b"
SECRET_PARTS = (TOKEN, TOKEN.rsplit(".", 1)[1], "robustness-SECRET")


def leaks(text: str) -> list[str]:
    return [part for part in SECRET_PARTS if part in text]


def render(record: logging.LogRecord) -> str:
    """Everything a handler could write for the record: message, args, traceback, stack."""
    formatter = logging.Formatter("%(name)s %(levelname)s %(message)s")
    text = formatter.format(record)
    return f"{text} {record.args!r} {record.__dict__!r}"


async def test_token_not_in_logs_errors_or_exceptions(
    fake_discord: FakeDiscord,
    bot_runner: BotRunner,
    e2e_guard: E2EGuard,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fake = fake_discord
    fake.token = TOKEN  # the fake accepts only this token, the bot logs in with it
    caplog.set_level(logging.DEBUG)
    settings = Settings(discord_token=TOKEN, database_path=tmp_path / "shogi.db")
    seen: list[str] = [repr(settings), str(settings)]

    club = Club(fake, bot_runner, e2e_guard, tmp_path)
    alice, bob = club.alice, club.bob
    bot = club.bot = await bot_runner.start(lambda: create_bot(settings), sync_commands=True)
    game = await club.new_game()

    fake.inject_fault(CALLBACK, status=429, retry_after=0.05)
    await fake.slash("move", {"move": "P-7f"}, user=alice, channel=game.thread)
    fake.inject_fault(CREATE_MESSAGE, status=500)
    await fake.slash("move", {"move": "3c3d"}, user=bob, channel=game.thread, timeout=10)
    await fake.drop_gateway(resumable=True)
    await fake.wait_resumed(1)
    await fake.slash("move", {"move": "not a move"}, user=alice, channel=game.thread)

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the export failed")

    monkeypatch.setattr(bot.service.exports, "file", broken)
    apology = await fake.slash("export", {}, user=alice, channel=game.thread)
    seen.append(apology.content)

    wrong = create_bot(Settings(discord_token="x" + TOKEN, database_path=tmp_path / "w.db"))
    with pytest.raises(discord.LoginFailure) as refused:
        await wrong.login("x" + TOKEN)  # a token the fake does not know: 401
    await wrong.close()
    seen.append("".join(traceback.format_exception(refused.value)))
    for bad in ({"DISCORD_TOKEN": TOKEN + " x"}, {"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "LOUD"}):
        with pytest.raises(ConfigError) as config:
            Settings.from_mapping(bad)
        seen.append("".join(traceback.format_exception(config.value)))

    seen += [render(record) for record in caplog.records]
    seen += [m.content for m in fake.messages.values()]
    assert len(caplog.records) > 50, "DEBUG logging was not captured"
    assert any("unexpected error" in r.getMessage() for r in caplog.records)
    found = [text[:300] for text in seen if leaks(text)]
    assert not found, f"the token shows in {len(found)} places, e.g.:\n" + "\n".join(found[:3])
    # The deliberate unexpected error is logged at ERROR by the bot, as it should be.
    e2e_guard.expect_error_log("the export failed")


CHILD = """
import sys, faulthandler; faulthandler.dump_traceback_later(5, exit=True)
from tests.fakediscord import DiscordPointer
DiscordPointer.from_url(sys.argv[1]).__enter__()
from bot.__main__ import main
sys.exit(main(["--env-file", sys.argv[2]]))
"""


async def run_child(
    fake: FakeDiscord, env: dict[str, str], tmp_path: Path, *, until_connected: bool = False
) -> tuple[int, str]:
    """Run ``python -m bot`` against the fake; output goes to a file (a pipe left unread
    while the child logs at DEBUG would fill up and stall it)."""
    environ = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "LOG_LEVEL")}
    environ.update(env)
    environ["PYTHONPATH"] = str(ROOT)
    environ["DATABASE_PATH"] = str(tmp_path / "child.db")
    log = tmp_path / f"child-{len(list(tmp_path.glob('child-*')))}.txt"
    with log.open("wb") as sink:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-c", CHILD, fake.url, str(tmp_path / "no.env"),
            cwd=ROOT, env=environ, stdout=sink, stderr=sink,
        )  # fmt: skip
        try:
            if until_connected:
                await fake.wait_connected(timeout=30)
                process.send_signal(signal.SIGINT)
            await asyncio.wait_for(process.wait(), 60)
        finally:
            if process.returncode is None:
                process.kill()
                await process.wait()
    return process.returncode or 0, log.read_text("utf-8", "replace")


async def test_token_not_in_the_output_of_python_m_bot(
    fake_discord: FakeDiscord, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.token = TOKEN
    fake.add_guild("Shogi Club", channels=("shogi",))
    runs = {
        "config error": await run_child(fake, {"DISCORD_TOKEN": TOKEN + " extra"}, tmp_path),
        "refused token": await run_child(
            fake, {"DISCORD_TOKEN": "x" + TOKEN, "LOG_LEVEL": "DEBUG"}, tmp_path
        ),
        "normal start": await run_child(
            fake, {"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "DEBUG"}, tmp_path, until_connected=True
        ),
    }
    assert runs["config error"][0] == 2, runs["config error"]
    assert runs["refused token"][0] == 1, runs["refused token"]
    assert "DEBUG" in runs["normal start"][1], runs["normal start"][1][-2000:]
    found = {name: leaks(output) for name, (_, output) in runs.items() if leaks(output)}
    assert not found, f"the token shows in the output of {sorted(found)}"
    fake.expect_rejections(0)  # the refused token's 401
