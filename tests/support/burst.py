"""Reminders falling due at once in two shard processes on one PostgreSQL, sent through
the fake Discord, which enforces Discord's global limit: the scene of the shared limit's
end-to-end test (``tests/robustness/test_global_limit.py``) and of its benchmark
(``bench/bench_reminder_burst.py``).

Two servers, one on each shard of two, each with a few channels; ``reminders`` games
bulk-loaded across them, each with its reminder due; and one game per server played in a
thread of its own, whose ``/move`` answers are timed before the burst and during it. The
processes are ``tests/support/bot_process.py``, started with the environment given (the
global limit's settings, the outbox's rate); the clock file is touched to wake their
deadline tasks at once. Each reminder is one post with a Give-time button whose id
names its game, so the posts are counted per game.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.db import BulkGame, DeadlineRow, NewGame, PlayerRow, Terms, open_database
from rules import Handicap
from rules.notation import read_record
from tests.fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMember
from tests.support.bot_process import write_offset

ROOT = Path(__file__).resolve().parents[2]
SHARDS = 2
CHANNELS = 4  # per server
REMINDER = "your move is due"
RECORD = ROOT / "tests/data/records/bioshogi_sample.csa"
START_WAIT = 60.0
#: When the loaded reminders fall due: the clock jumps there when the burst begins (a move
#: played before wakes the deadline tasks, which must find nothing due then).
REMINDED_IN = timedelta(days=1)
MICROSECOND = timedelta(microseconds=1)


@dataclass
class Server:
    guild: FakeGuild
    channels: list[FakeChannel]
    alice: FakeMember
    bob: FakeMember
    thread: FakeChannel | None = None
    game_id: int = 0


@dataclass
class Burst:
    """What a burst gave: reminders posted per game, the seconds from the first to the
    last, the 429s the fake answered, and the ``/move`` answers' times (seconds)."""

    posted: Counter[int] = field(default_factory=Counter)
    expected: set[int] = field(default_factory=set)
    seconds: float = 0.0
    global_429s: int = 0
    route_429s: int = 0
    quiet_answers: list[float] = field(default_factory=list)
    burst_answers: list[float] = field(default_factory=list)
    logs: list[str] = field(default_factory=list)


def _moves() -> list[str]:
    return [move.usi() for move in read_record(RECORD.read_bytes(), "csa").game.moves]


class BurstScene:
    """The fake's servers, the database's games, and the two bot processes."""

    def __init__(self, fake: FakeDiscord, folder: Path, database: str) -> None:
        self.fake = fake
        self.folder = folder
        self.database = database
        self.clock_file = folder / "clock"
        write_offset(self.clock_file, 0)
        self.servers = []
        for shard in range(SHARDS):
            names = tuple(f"shogi-{n}" for n in range(CHANNELS))
            guild = fake.add_guild(f"club {shard}", channels=names, shard=(shard, SHARDS))
            channels = [c for c in fake.channels.values() if c.guild_id == guild.id]
            alice = fake.add_member(guild, f"alice{shard}")
            bob = fake.add_member(guild, f"bob{shard}")
            # The played game's thread exists before the bots start, so that they know it
            # (from the server's GUILD_CREATE) as they would know a thread they opened.
            thread = fake.new_thread(channels[0], f"played {shard}", owner_id=fake.bot_user.id)
            self.servers.append(Server(guild, channels, alice, bob, thread))
        self.processes: list[asyncio.subprocess.Process] = []
        self._ready: list[asyncio.Event] = []
        self._readers: list[asyncio.Task[None]] = []
        self.line = _moves()

    async def load(self, reminders: int) -> set[int]:
        """Store `reminders` games with their reminders due at `REMINDED_IN`, spread over
        the servers' channels, and one game per server in a thread (the one played); the
        ids of the first."""
        now = datetime.now(UTC)
        terms = Terms(
            bank=timedelta(), period=timedelta(days=3), handicap="even", impasse_rule="27"
        )
        games = []
        for n in range(reminders):
            server = self.servers[n % SHARDS]
            channel = server.channels[(n // SHARDS) % CHANNELS]
            alice, bob = server.alice.user.id, server.bob.user.id
            new = NewGame(server.guild.id, channel.id, alice, bob, terms, Handicap.EVEN.sfen, now)
            due = DeadlineRow(0, alice, now + 2 * REMINDED_IN, now + REMINDED_IN)
            games.append(BulkGame(new, (), Handicap.EVEN.sfen, now, deadline=due))
        played = []
        for server in self.servers:
            alice, bob = server.alice.user.id, server.bob.user.id
            channel = server.channels[0]
            new = NewGame(server.guild.id, channel.id, alice, bob, terms, Handicap.EVEN.sfen, now)
            later = DeadlineRow(0, alice, now + timedelta(days=3), now + timedelta(days=2))
            played.append(BulkGame(new, (), Handicap.EVEN.sfen, now, deadline=later))
        db = await open_database(self.database)
        try:
            async with db.transaction() as tx:
                for server in self.servers:
                    for member in (server.alice, server.bob):
                        player = PlayerRow(member.user.id, member.user.username)
                        await tx.players.upsert(player, now)
                ids = await tx.games.bulk_insert(games + played)
                for server, game_id in zip(self.servers, ids[reminders:], strict=True):
                    assert server.thread is not None
                    await tx.games.set_thread(game_id, server.thread.id)
                    server.game_id = game_id
        finally:
            await db.close()
        return set(ids[:reminders])

    async def start(self, environment: Mapping[str, str]) -> None:
        """Both shard processes, started one after the other (the first migrates)."""
        for shard in range(SHARDS):
            ready = asyncio.Event()
            log = (self.folder / f"shard{shard}.log").open("wb")
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "tests.support.bot_process",
                self.fake.url,
                self.fake.token,
                self.database,
                str(self.clock_file),
                str(shard),
                str(SHARDS),
                cwd=ROOT,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=log,
                env={**os.environ, "PYTHONPATH": str(ROOT), **environment},
            )
            log.close()
            self.processes.append(process)
            self._ready.append(ready)
            self._readers.append(asyncio.get_running_loop().create_task(self._read(process, ready)))
            await asyncio.wait_for(ready.wait(), START_WAIT)

    async def _read(self, process: asyncio.subprocess.Process, ready: asyncio.Event) -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            if line.strip() == b"ready":
                ready.set()
        ready.set()  # ended: the waiter finds out from the exit code

    async def stop(self) -> list[str]:
        """SIGTERM both; the last lines of the log of any that did not stop cleanly."""
        troubles = []
        for shard, process in enumerate(self.processes):
            if process.returncode is None:
                process.send_signal(signal.SIGTERM)
            code = await asyncio.wait_for(process.wait(), START_WAIT)
            if code != 0:
                log = (self.folder / f"shard{shard}.log").read_text(errors="replace")
                troubles.append(f"shard {shard} ended with {code}:\n{log[-3000:]}")
        await asyncio.gather(*self._readers, return_exceptions=True)
        return troubles

    def errors_logged(self) -> list[str]:
        """The processes' ERROR lines, each with the traceback that follows it."""
        found = []
        for shard in range(SHARDS):
            lines = (self.folder / f"shard{shard}.log").read_text(errors="replace").splitlines()
            for n, line in enumerate(lines):
                if " ERROR " in line:
                    found.append("\n".join(lines[n : n + 30]))
        return found

    def reminders_posted(self) -> Counter[int]:
        """Reminder posts per game, read from the Give-time button under each."""
        posted: Counter[int] = Counter()
        for server in self.servers:
            for channel in server.channels:
                for message in self.fake.channel_history(channel):
                    if REMINDER not in message.content:
                        continue
                    for custom_id in message.custom_ids:
                        if custom_id.startswith("gt:"):
                            posted[int(custom_id.split(":")[1])] += 1
        return posted

    async def play(self, ply: int, answers: list[float]) -> None:
        """Move `ply` in every server's played game (as its `/move` in the thread), timed."""
        usi = self.line[ply]
        for server in self.servers:
            assert server.thread is not None
            player = server.alice if ply % 2 == 0 else server.bob
            started = time.perf_counter()
            answer = await self.fake.slash(
                "move", {"move": usi}, user=player, channel=server.thread, wait=False
            )
            await answer.wait_response()  # the answer itself, not the fake's calm after it
            answers.append(time.perf_counter() - started)
            if not answer.content.startswith(f"{ply + 1}. "):
                raise AssertionError(f"move {ply + 1} ({usi}) not played: {answer.content!r}")

    async def burst(self, expected: set[int], *, quiet_moves: int, timeout: float) -> Burst:
        """Play `quiet_moves` before the burst, wake the deadline tasks, and play on while
        the reminders go out; returns when every reminder is posted (or `timeout`)."""
        result = Burst(expected=expected)
        for ply in range(quiet_moves):
            await self.play(ply, result.quiet_answers)
        self.fake.rate_limited.reset()
        # The reminders fall due: both deadline tasks wake at the clock's change.
        write_offset(self.clock_file, int((REMINDED_IN + timedelta(minutes=1)) / MICROSECOND))
        started = time.monotonic()
        ply = quiet_moves
        while len(self.reminders_posted()) < len(expected):
            if time.monotonic() - started > timeout:
                break
            if ply < len(self.line) and ply < 2 * quiet_moves:
                await self.play(ply, result.burst_answers)
                ply += 1
            else:
                await asyncio.sleep(0.5)  # a look over every post costs the fake time
        await asyncio.sleep(1.0)  # a reminder sent twice would show by now
        result.posted = self.reminders_posted()
        times = sorted(
            m.created_at
            for s in self.servers
            for c in s.channels
            for m in self.fake.channel_history(c)
            if REMINDER in m.content
        )
        result.seconds = times[-1] - times[0] if times else 0.0
        result.global_429s = self.fake.rate_limited.global_limit
        result.route_429s = self.fake.rate_limited.route
        return result
