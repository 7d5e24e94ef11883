"""The operator's view of a running bot: `/healthz` and `/metrics` on 127.0.0.1 when
`METRICS_PORT` is set, and JSON log lines that say which game and server they are about.

The real bot against the fake Discord, its endpoint read over HTTP and its metrics parsed
by prometheus-client's own parser."""

from __future__ import annotations

import json
import logging
import socket
from dataclasses import replace
from datetime import timedelta
from pathlib import Path

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from bot.__main__ import main
from bot.config import Settings
from bot.logs import HIDDEN, JsonFormatter
from bot.monitoring import LAG_LIMIT, MISSING
from tests.fakediscord import BotRunner, E2EGuard, ErrorCode, FakeDiscord
from tests.support.club import Club


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class MonitoredClub(Club):
    port = free_port()

    @property
    def settings(self) -> Settings:
        return replace(super().settings, metrics_port=self.port)


async def read(port: int, path: str) -> tuple[int, str]:
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"http://127.0.0.1:{port}{path}") as reply,
    ):
        return reply.status, await reply.text()


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    found = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            found[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return found


async def test_health_and_metrics_follow_the_games(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    monitored = MonitoredClub(fake_discord, bot_runner, e2e_guard, tmp_path)
    club = monitored
    await monitored.start()
    port = monitored.port

    status, body = await read(port, "/healthz")
    assert status == 200
    assert json.loads(body) == {
        "ready": True,
        "database": True,
        "scheduler_lag_seconds": 0,
        "active_games": 0,
    }

    lines: list[str] = []
    handler = logging.Handler()
    formatter = JsonFormatter(secret=monitored.settings.discord_token)
    handler.emit = lambda record: lines.append(formatter.format(record))  # type: ignore[method-assign]
    logger = logging.getLogger("bot")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    try:
        table = await monitored.new_game(time="1d")
        await monitored.play(table, [(club.alice, "P-7f"), (club.bob, "P-3d")])
    finally:
        logger.removeHandler(handler)
        logger.setLevel(level)
    moved = [json.loads(line) for line in lines if "ply 2" in line]
    assert moved and moved[0]["game"] == table.game_id and moved[0]["guild"] == club.guild.id

    status, text = await read(port, "/metrics")
    assert status == 200
    found = samples(text)
    assert found[("shogi_moves_total", ())] == 2
    assert found[("shogi_active_games", ())] == 1
    assert found[("shogi_move_transaction_seconds_count", ())] == 2
    assert found[("shogi_render_seconds_count", (("kind", "board"),))] >= 3  # start + 2 moves
    assert found[("shogi_ready", ())] == 1 and found[("shogi_database_up", ())] == 1
    assert found[("shogi_outbox_waiting", ())] == 0

    # The clock passes the reminder and the deadline: the task, woken, claims both.
    monitored.clock.advance(timedelta(days=1, minutes=5))
    monitored.wake_deadlines()
    await monitored.posts(table.thread, "ran out of time")
    await monitored.fake.wait_quiet(0.2)  # the check goes on after the post
    found = samples((await read(port, "/metrics"))[1])
    assert found[("shogi_deadline_lateness_seconds_count", (("kind", "timeout"),))] == 1
    assert found[("shogi_deadline_lateness_seconds_sum", (("kind", "timeout"),))] >= 300
    assert found[("shogi_active_games", ())] == 0
    assert found[("shogi_outbox_sends_total", ())] >= 1  # the ending, from the outbox

    # A deadline task that does not wake for its next moment makes the bot unhealthy.
    await monitored.new_game(time="1d")
    monitored.wake_deadlines()
    await monitored.fake.wait_quiet(0.2)
    monitored.clock.advance(timedelta(days=1) + LAG_LIMIT * 2)
    status, body = await read(port, "/healthz")
    assert status == 503 and json.loads(body)["scheduler_lag_seconds"] > LAG_LIMIT.total_seconds()
    monitored.wake_deadlines()
    await monitored.fake.wait_quiet(0.2)
    assert (await read(port, "/healthz"))[0] == 200


async def test_discord_refusals_are_counted_by_status(
    fake_discord: FakeDiscord, bot_runner: BotRunner, e2e_guard: E2EGuard, tmp_path: Path
) -> None:
    """A direct message Discord refuses (403) reaches `/metrics` through discord.py's own
    HTTP client: by status, and among the invalid requests of the last 10 minutes that
    Discord bans for."""
    club = MonitoredClub(fake_discord, bot_runner, e2e_guard, tmp_path)
    await club.start()
    before = samples((await read(club.port, "/metrics"))[1])
    assert before[("shogi_discord_invalid_requests_10m", ())] == 0
    assert not [key for key in before if key[0] == "shogi_discord_rejections_total"]

    await club.prefer(club.bob, notifications="each")
    fake_discord.close_dms(club.bob)
    fake_discord.expect_rejections(ErrorCode.CANNOT_MESSAGE_USER)
    table = await club.new_game()
    await club.play(table, [(club.alice, "P-7f")])
    await fake_discord.wait_for(lambda: bool(fake_discord.rejections), what="the refusal")
    await fake_discord.wait_quiet()

    found = samples((await read(club.port, "/metrics"))[1])
    assert found[("shogi_discord_rejections_total", (("status", "403"),))] == 1
    assert found[("shogi_discord_invalid_requests_10m", ())] == 1
    assert len(fake_discord.rejections) == 1
    # The start's posts went through the pacing and met no 429.
    for scope in ("global", "user", "shared"):
        assert found[("shogi_discord_rate_limited_total", (("scope", scope),))] == 0
    assert found[("shogi_global_limit_waited_seconds_total", ())] >= 0

    # The 429s the pacing counted (its own tests provoke them) reach /metrics by scope.
    assert club.bot is not None
    club.bot.pacing.throttled.update({"global": 2, "shared": 1})
    found = samples((await read(club.port, "/metrics"))[1])
    assert found[("shogi_discord_rate_limited_total", (("scope", "global"),))] == 2
    assert found[("shogi_discord_rate_limited_total", (("scope", "shared"),))] == 1


def test_a_json_line_never_carries_the_token() -> None:
    record = logging.LogRecord(
        "bot", logging.INFO, __file__, 1, "token=%s", ("sekrit.t0ken",), None
    )
    line = JsonFormatter(secret="sekrit.t0ken").format(record)
    assert "sekrit" not in line and json.loads(line)["message"] == f"token={HIDDEN}"


def test_a_metrics_port_without_prometheus_client_is_one_sentence(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.__main__.metrics_available", lambda: False)
    env = tmp_path / "env"
    env.write_text("DISCORD_TOKEN=x.y.z\nMETRICS_PORT=9464\n")
    assert main(["--env-file", str(env)]) == 2
    assert capsys.readouterr().err.strip() == f"Configuration error: {MISSING}"
