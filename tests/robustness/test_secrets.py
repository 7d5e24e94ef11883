"""The bot token never shows: not in logs (at DEBUG, everything), errors or exceptions.

In the test process: a bot logged in with a known fake token plays a game against the fake
Discord with a rate limit, a server error, a dropped gateway and an unexpected error on the
way, while every log record of every logger is captured at DEBUG; and a move played while
the bot logs at DEBUG through its own handlers (`bot.logs.log_handler`, text and JSON), whose
output holds no interaction token, although discord.py logs every callback and follow-up URL
and every gateway event, tokens included.  In a child process: ``python -m bot`` at
``LOG_LEVEL=DEBUG`` through a configuration error, a refused token and a normal start, with
stdout and stderr captured.  A database address's password, in its user part or its query,
never shows where the address is logged or shown.
"""

from __future__ import annotations

import asyncio
import io
import json
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
from bot.db.addresses import without_password
from bot.logs import HIDDEN, log_handler, redact
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


async def test_debug_logs_hold_no_interaction_token(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    fake = fake_discord
    fake.token = TOKEN
    settings = Settings(discord_token=TOKEN, database_path=tmp_path / "shogi.db", log_level="DEBUG")
    outputs = {"text": io.StringIO(), "json": io.StringIO()}
    handlers = [log_handler(name, secret=TOKEN, stream=out) for name, out in outputs.items()]
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.DEBUG)
    for handler in handlers:
        root.addHandler(handler)
    try:
        club = Club(fake, bot_runner, e2e_guard, tmp_path)
        club.bot = await bot_runner.start(lambda: create_bot(settings), sync_commands=True)
        game = await club.new_game()
        played = await fake.slash("move", {"move": "P-7f"}, user=club.alice, channel=game.thread)
        assert played.response_type is not None, played
        await fake.slash("move", {"move": "3c3d"}, user=club.bob, channel=game.thread)
        await club.bot.close()
    finally:
        for handler in handlers:
            root.removeHandler(handler)
        root.setLevel(level)
    tokens = list(fake.interactions_by_token)
    assert len(tokens) >= 3, "no interaction was made"
    for name, out in outputs.items():
        text = out.getvalue()
        shown = [token[:24] for token in tokens if token in text]
        assert not shown, f"{name}: {len(shown)} interaction tokens show, e.g. {shown[0]}"
        assert not leaks(text), f"{name}: the bot token shows"
        # discord.py did log the URLs and the events that carry the tokens, with them hidden.
        assert "/callback" in text and "/webhooks/" in text, text[-2000:]
        assert "INTERACTION_CREATE" in text and HIDDEN in text
    for line in outputs["json"].getvalue().splitlines():
        json.loads(line)  # the redaction left every line a JSON object


@pytest.mark.parametrize(
    ("text", "hidden"),
    [
        ("POST https://discord.com/api/v10/interactions/1/aW50ZXJhY3Rpb246abc/callback", "aW50"),
        ("PATCH https://discord.com/api/v10/webhooks/2/aW50x-y_z/messages/@original", "x-y_z"),
        ("WebSocket Event: {'t': 'INTERACTION_CREATE', 'd': {'token': 'aW50x'}}", "aW50x"),
        ('{"id": "3", "token": "aW50y"}', "aW50y"),
        ("headers {'Authorization': 'Bot " + TOKEN + "'}", TOKEN),
        ("a token: MTAxMjM0NTY3ODkwMTIzNDU2Nzg5.G1a2b3.abcdefghijklmnopqrstuvwxyz0", "G1a2b3"),
        ("the signature alone: " + TOKEN.rsplit(".", 1)[1], "SECRET"),
    ],
)  # fmt: skip
def test_redact_hides_tokens(text: str, hidden: str) -> None:
    clean = redact(text, TOKEN)
    assert hidden not in clean and HIDDEN in clean, clean


def test_redact_keeps_plain_text_and_is_linear() -> None:
    plain = "alice played P-7f in game #12 (https://discord.com/channels/1/2/3), 12.5 s"
    assert redact(plain, TOKEN) == plain
    for hostile in (
        "a" * 200_000,
        "a." * 100_000,
        ("a" * 19 + ".") * 10_000,
        "/webhooks/1" * 20_000,
    ):
        assert len(redact(hostile, TOKEN)) <= len(hostile) + len(HIDDEN) * len(hostile) // 19


@pytest.mark.parametrize(
    ("url", "secret"),
    [
        ("postgresql://shogi:hunter2@db:5432/shogi", "hunter2"),
        ("postgresql://shogi@db:5432/shogi?password=hunter2", "hunter2"),
        ("postgresql://db/shogi?sslmode=require&PASSWORD=hunter2&application_name=x", "hunter"),
        ("postgresql://db/shogi?user=shogi&sslpassword=hunter2", "hunter2"),
        ("postgresql://db/shogi?pwd=hunter2&passwd=hunter3", "hunter"),
        ("postgresql://db/shogi?pass%77ord=hunter2", "hunter2"),
        ("postgresql://db/shogi?api_token=hunter2&secret=hunter2", "hunter2"),
        ("postgresql://u:p@[db/shogi?password=hunter2", "hunter2"),
    ],
)  # fmt: skip
def test_database_address_never_shows_a_password(url: str, secret: str) -> None:
    shown = without_password(url)
    assert secret not in shown, shown
    if "[" not in url:
        settings = Settings(discord_token=TOKEN, database_url=url)
        assert secret not in settings.database_location
        assert secret not in repr(settings)
        assert shown.split("?")[0] == url.split("?")[0].replace(":hunter2@", ":***@")


def test_plain_query_parameters_stay() -> None:
    url = (
        "postgresql://shogi@db/shogi?sslmode=require&sslkey=/etc/shogi/key.pem&application_name=bot"
    )
    assert without_password(url) == url


@pytest.mark.parametrize("log_format", ["text", "json"])
def test_a_traceback_is_redacted_too(log_format: str) -> None:
    out = io.StringIO()
    handler = log_handler(log_format, secret=TOKEN, stream=out)
    logger = logging.getLogger("tests.robustness.secrets.traceback")
    logger.propagate = False
    logger.addHandler(handler)
    try:
        try:
            raise RuntimeError(f"PATCH /webhooks/1/aW50first/messages/@original with {TOKEN}")
        except RuntimeError:
            logger.exception("failed: %s", "POST /interactions/2/aW50second/callback")
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
    text = out.getvalue()
    assert "RuntimeError" in text and "Traceback" in text and HIDDEN in text, text
    assert "aW50first" not in text and "aW50second" not in text and not leaks(text), text
