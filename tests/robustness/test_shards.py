"""Two shard processes on one database, the fake Discord serving both shards (issue 16).

Each bot runs in a process of its own (``tests/support/bot_process.py`` with ``SHARDS
SHARD_COUNT``: the real ``create_bot`` as ``python -m bot --shards N --shard-count 2``
builds it) on one SQLite file, with a clock the test moves. Two servers, one on each
shard; in each, one game played from a professional record and two games on a two-hour
clock that wait for their deadlines. The run:

1. processes ``A`` (shard 0) and ``B`` (shard 1) start; the games are set up through
   ``/challenge`` and Accept, each server's interactions reaching its own process only;
2. the played games go on in both servers at once (their moves race for the one
   database) while an *overlapping deploy* starts ``A2``, a second process for shard 0:
   from its IDENTIFY on, the fake sends shard 0's interactions to it while ``A`` finishes
   what it had, so the same games are moved by two processes in turn (each must see the
   other's moves, never its own cached state);
3. the clock jumps to the reminders while ``A`` and ``A2`` both run shard 0's deadline
   task: each reminder must be posted once. Then ``A`` is SIGKILLed mid-play;
4. every post is made slow, and the clock jumps past every deadline and then moves on a
   second at a time, so ``A2`` and ``B`` both check again while the other is still
   posting the time-outs it stored: neither may post those (the other holds their lease).
   ``B`` is SIGKILLed as soon as it has stored its first time-out, while posting it;
   ``B2`` starts for shard 1, and the clock moves past the lease of what ``B`` stored:
   ``B2`` or ``A2`` must post what is not posted, once;
5. ``A2`` and ``B2`` stop with SIGTERM.

Then: every move acknowledged to a player is stored, at its ply, and the stored moves are
the record's, replaying legally; no interaction is answered publicly twice; each board,
reminder and time-out is posted once in its thread (a ply's board at most once); the
commands were published only by the processes of shard 0; no process logged an error.
It takes about 15 seconds and every wait is bounded.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

import asyncpg
import pytest

from rules import Game, Move
from tests.fakediscord import (
    CREATE_MESSAGE,
    E2EGuard,
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
)
from tests.support.bot_process import write_offset
from tests.support.postgres import fresh_schema

from .test_crash import (
    ALLOWED_WARNINGS,
    CUT_OFF,
    MINUTE,
    MOVE_LINE,
    REMINDER,
    US,
    WAIT,
    DeadlineRow,
    GameRow,
    MoveRow,
    Snapshot,
    read_database,
    records,
)

ROOT = Path(__file__).resolve().parents[2]
SHARD_COUNT = 2
TIMER = "2h"
TIMER_OPENING = 2
SEED = 16_2026
BACKENDS = ["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)]
SLOW_POST = 1.5  # seconds Discord takes for each post while the time-outs are posted
NUDGES = 5  # clock moves (a second each) while those posts are under way


@dataclass(eq=False)
class Proc:
    name: str
    shards: str
    process: asyncio.subprocess.Process
    log: Path
    ready: bool = False
    ended: bool = False
    checks: list[int] = field(default_factory=list)
    reader: asyncio.Task[None] | None = None
    killed_at: float | None = None


@dataclass(eq=False)
class Tracked:
    id: int
    guild: FakeGuild
    thread: FakeChannel
    sente: FakeMember
    gote: FakeMember
    record: list[Move]
    timer: bool
    #: (ply, usi) of every move a player was told was played.
    acknowledged: dict[int, str] = field(default_factory=dict)


class ShardRun:
    def __init__(self, fake: FakeDiscord, folder: Path, database: str | None = None) -> None:
        self.fake = fake
        self.folder = folder
        #: The SQLite file, or the PostgreSQL address, every process shares.
        self.database: Path | str = folder / "shards.db" if database is None else database
        self._reader: asyncpg.Connection | None = None
        self._reading = asyncio.Lock()
        self.clock_file = folder / "clock"
        self.offset = 0
        write_offset(self.clock_file, 0)
        self.rng = random.Random(SEED)
        self.records = records()
        self.procs: list[Proc] = []
        self.games: list[Tracked] = []
        self.kills: list[float] = []
        self.guilds = [
            fake.add_guild(f"club {shard}", channels=("shogi",), shard=(shard, SHARD_COUNT))
            for shard in range(SHARD_COUNT)
        ]
        self.members = {
            guild.id: [fake.add_member(guild, f"p{guild.name[-1]}{n}") for n in range(6)]
            for guild in self.guilds
        }

    # -- the database, read as the bots left it ----------------------------------------------

    async def snapshot(self) -> Snapshot:
        if isinstance(self.database, Path):
            return read_database(self.database)
        async with self._reading:  # one connection: the players ask one after the other
            if self._reader is None:
                self._reader = await asyncpg.connect(self.database)
            return await self._read(self._reader)

    @staticmethod
    async def _read(connection: asyncpg.Connection) -> Snapshot:
        snapshot = Snapshot()
        async with connection.transaction(isolation="repeatable_read", readonly=True):
            for row in await connection.fetch(
                "SELECT id, thread_id, sente_id, gote_id, start_sfen, bank_us, period_us,"
                " status, termination, winner, ply, sfen, sente_bank_us, gote_bank_us,"
                " turn_started_at, started_at, finished_at FROM games"
            ):
                snapshot.games[row[0]] = GameRow(*row)
            for game_id, *rest in await connection.fetch(
                "SELECT game_id, ply, usi, player_id, played_at FROM moves ORDER BY game_id, ply"
            ):
                snapshot.moves.setdefault(game_id, []).append(MoveRow(*rest))
            for game_id, *rest in await connection.fetch(
                "SELECT game_id, player_id, due_at, remind_at, reminded_at FROM deadlines"
            ):
                snapshot.deadlines[game_id] = DeadlineRow(*rest)
        return snapshot

    async def close(self) -> None:
        if self._reader is not None:
            await self._reader.close()

    # -- processes ------------------------------------------------------------------------

    async def spawn(self, name: str, shards: str) -> Proc:
        log = self.folder / f"{name}.log"
        with log.open("wb") as stderr:  # the child has its own copy of the descriptor
            process = await self._start(shards, stderr)
        proc = Proc(name, shards, process, log)
        proc.reader = asyncio.get_running_loop().create_task(self.read(proc))
        self.procs.append(proc)
        return proc

    async def _start(self, shards: str, stderr: BinaryIO) -> asyncio.subprocess.Process:
        return await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "tests.support.bot_process",
            self.fake.url,
            self.fake.token,
            str(self.database),
            str(self.clock_file),
            shards,
            str(SHARD_COUNT),
            cwd=ROOT,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=stderr,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )

    async def read(self, proc: Proc) -> None:
        stdout = proc.process.stdout
        assert stdout is not None
        try:
            while True:
                line = await stdout.readline()
                if not line.endswith(b"\n"):
                    break
                text = line.decode().strip()
                if text == "ready":
                    proc.ready = True
                elif text.startswith("checked "):
                    proc.checks.append(int(text.split()[1]))
                await self.fake.notify()
        finally:
            proc.ended = True
            await self.fake.notify()

    async def wait_ready(self, *procs: Proc) -> None:
        await self.fake.wait_for(
            lambda: all(p.ready or p.ended for p in procs), what="ready", timeout=WAIT
        )
        for proc in procs:
            assert proc.ready, f"{proc.name} ended before it was ready:\n{self.tail(proc)}"

    async def kill(self, proc: Proc) -> None:
        proc.killed_at = time.time()
        self.kills.append(proc.killed_at)
        proc.process.send_signal(signal.SIGKILL)
        assert await asyncio.wait_for(proc.process.wait(), WAIT) == -signal.SIGKILL
        assert proc.reader is not None
        await proc.reader

    async def stop(self, proc: Proc) -> None:
        proc.process.send_signal(signal.SIGTERM)
        code = await asyncio.wait_for(proc.process.wait(), WAIT)
        assert proc.reader is not None
        await proc.reader
        assert code == 0, f"{proc.name} did not stop cleanly ({code}):\n{self.tail(proc)}"

    def logged(self, proc: Proc, text: str) -> bool:
        return text in proc.log.read_text(errors="replace")

    def tail(self, proc: Proc, lines: int = 40) -> str:
        return "\n".join(proc.log.read_text(errors="replace").splitlines()[-lines:])

    # -- the clock ------------------------------------------------------------------------

    def now(self) -> int:
        """The bots' clock (µs since the epoch)."""
        return time.time_ns() // 1000 + self.offset

    def jump_to(self, target_us: int) -> None:
        self.offset = max(self.offset, target_us - time.time_ns() // 1000)
        write_offset(self.clock_file, self.offset)

    # -- players --------------------------------------------------------------------------

    async def new_game(
        self, guild: FakeGuild, sente: FakeMember, gote: FakeMember, *, timer: bool
    ) -> Tracked:
        fake = self.fake
        channel = fake.channel("shogi", guild)
        control = TIMER if timer else "14d"
        challenge = await fake.slash(
            "challenge",
            {"opponent": gote, "color": "sente", "time": control},
            user=sente,
            channel=channel,
            wait=False,
        )
        await challenge.wait_final(timeout=WAIT, scope="interaction")
        accept = next(c for c in challenge.custom_ids if c.startswith("ch:accept:"))
        reply = challenge.reply
        assert reply is not None
        await fake.click(challenge, accept, user=gote, wait=False)

        def thread() -> FakeChannel | None:
            found = fake.channels.get(reply.id)
            if found is None or not any(m.attachments for m in fake.channel_history(found)):
                return None
            return found

        await fake.wait_for(lambda: thread() is not None, what="a start board", timeout=WAIT)
        found = thread()
        assert found is not None
        snapshot = await self.snapshot()
        rows = [g for g in snapshot.games.values() if g.thread_id == found.id]
        assert len(rows) == 1
        record = self.records[len(self.games) % len(self.records)]
        game = Tracked(rows[0].id, guild, found, sente, gote, record, timer)
        self.games.append(game)
        if timer:
            for ply in range(TIMER_OPENING):
                kind = await self.move(game, ply)
                assert kind == "board", f"a timer game's opening move was answered {kind}"
        return game

    async def move(self, game: Tracked, ply: int) -> str:
        """``/move`` of the record's next move by its player; how it was answered."""
        usi = game.record[ply].usi()
        player = game.sente if ply % 2 == 0 else game.gote
        result = await self.fake.slash(
            "move", {"move": usi}, user=player, channel=game.thread, wait=False
        )

        sent = time.time()

        def answered() -> bool:
            return result.reply is not None and not result.reply.loading

        def cut() -> bool:  # its process was killed since: it will never be answered
            return any(killed >= sent and time.time() - killed > 2.0 for killed in self.kills)

        await poll(lambda: answered() or cut(), f"the answer to move {ply + 1} of {game.id}")
        reply = result.reply
        if reply is None or reply.loading:
            return "unanswered"
        if not reply.ephemeral and reply.attachments and reply.content.startswith(f"{ply + 1}. "):
            game.acknowledged[ply + 1] = usi
            return "board"
        if reply.ephemeral and reply.content.startswith("Played "):
            game.acknowledged[ply + 1] = usi
            return "played"
        return f"refused: {reply.content!r}"

    async def player(self, game: Tracked, stop: asyncio.Event) -> None:
        while not stop.is_set():
            ply = (await self.snapshot()).games[game.id].ply
            if ply >= len(game.record):
                return
            kind = await self.move(game, ply)
            if kind.startswith("refused"):
                raise AssertionError(f"game {game.id}, move {ply + 1}: {kind}")
            if kind == "unanswered":
                await asyncio.sleep(0.1)  # its process died: the next one answers
            await asyncio.sleep(self.rng.uniform(0, 0.02))

    # -- checks ---------------------------------------------------------------------------

    def bot_posts(self, game: Tracked) -> list[str]:
        return [
            m.content
            for m in self.fake.channel_history(game.thread)
            if m.author.id == self.fake.bot_user.id and m.published and not m.ephemeral
        ]

    def count(self, game: Tracked, text: str) -> int:
        return sum(text in post for post in self.bot_posts(game))

    async def check(self) -> None:
        snapshot = await self.snapshot()
        for game in self.games:
            where = f"game {game.id} (server {game.guild.name})"
            row = snapshot.games[game.id]
            stored = snapshot.moves.get(game.id, [])
            usis = [m.usi for m in stored]
            assert [m.ply for m in stored] == list(range(1, len(stored) + 1)), where
            assert usis == [m.usi() for m in game.record[: len(usis)]], f"{where}: not the record"
            Game(row.start_sfen, usis)  # raises if illegal
            assert row.ply == len(usis), where
            for ply, usi in game.acknowledged.items():
                assert ply <= len(usis) and usis[ply - 1] == usi, f"{where}: lost move {ply}"
            plies: Counter[int] = Counter()
            for post in self.bot_posts(game):
                matched = MOVE_LINE.match(post)
                if matched:
                    plies[int(matched.group(1))] += 1
            again = {ply: n for ply, n in plies.items() if n > 1}
            assert not again, f"{where}: boards posted more than once: {again}"
            assert max(plies, default=0) <= row.ply, f"{where}: a board of a move not stored"
            if game.timer:
                assert (row.status, row.termination) == ("finished", "time"), where
                assert self.count(game, "ran out of time") == 1, f"{where}: {self.bot_posts(game)}"
                reminders = [p for p in self.bot_posts(game) if REMINDER in p]
                assert len(reminders) == 1, f"{where}: reminders {reminders}"
        publics: Counter[int] = Counter()
        for message in self.fake.messages.values():
            if message.interaction_id is not None and message.published and not message.ephemeral:
                publics[message.interaction_id] += 1
        assert not [i for i, n in publics.items() if n > 1], "an interaction answered twice"

    def log_problems(self) -> list[str]:
        problems = []
        for proc in self.procs:
            for line in proc.log.read_text(errors="replace").splitlines():
                bad = " ERROR " in line or "Traceback" in line or " WARNING " in line
                if bad and not any(allowed in line for allowed in ALLOWED_WARNINGS):
                    problems.append(f"{proc.name}: {line}")
        return problems

    def fake_problems(self) -> list[str]:
        """The fake's problems, less requests a SIGKILL cut off."""
        return [
            problem
            for problem in self.fake.problems()
            if not (problem.startswith("internal error") and any(w in problem for w in CUT_OFF))
        ]


async def poll(predicate: Callable[[], bool], what: str) -> None:
    """Until ``predicate()`` (files and the wall clock notify nobody), at most ``WAIT``."""
    deadline = time.monotonic() + WAIT
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"waited {WAIT:g} s in vain for {what}")
        await asyncio.sleep(0.01)


@pytest.fixture(params=BACKENDS)
async def shared_database(request: pytest.FixtureRequest) -> AsyncIterator[str | None]:
    """None: a SQLite file of the test's own; else a fresh PostgreSQL schema's address."""
    if request.param == "postgres":
        async with fresh_schema(request.getfixturevalue("postgres_database")) as url:
            yield url
        return
    yield None


@pytest.mark.slow
async def test_two_shard_processes_share_one_database_without_losing_or_doubling_anything(
    shared_database: str | None, tmp_path: Path, e2e_guard: E2EGuard
) -> None:
    database = shared_database
    fake = FakeDiscord(default_timeout=WAIT)
    await fake.start()
    run = ShardRun(fake, tmp_path, database)
    try:
        # 1. Two processes, one per shard; each server's games set up through its own.
        first = await run.spawn("A", "0")
        second = await run.spawn("B", "1")
        await run.wait_ready(first, second)
        await fake.wait_commands_synced(1, timeout=WAIT)
        played = []
        for guild in run.guilds:
            members = run.members[guild.id]
            played.append(await run.new_game(guild, members[0], members[1], timer=False))
            await run.new_game(guild, members[2], members[3], timer=True)
            await run.new_game(guild, members[4], members[5], timer=True)

        # 2. Moves in both servers at once, while a second process for shard 0 starts.
        stop = asyncio.Event()
        players = [asyncio.create_task(run.player(game, stop)) for game in played]
        await asyncio.sleep(0.5)
        deployed = await run.spawn("A2", "0")
        await run.wait_ready(deployed)
        await asyncio.sleep(0.5)

        # 3. The reminders fall due while shard 0 has two processes; then the first dies.
        snapshot = await run.snapshot()
        timers = [g for g in run.games if g.timer]
        reminds = [snapshot.deadlines[g.id].remind_at for g in timers]
        dues = [snapshot.deadlines[g.id].due_at for g in timers]
        assert max(reminds) < min(dues)
        run.jump_to(max(reminds) + MINUTE)
        await fake.wait_for(
            lambda: all(run.count(g, REMINDER) >= 1 for g in timers),
            what="every reminder",
            timeout=WAIT,
        )
        await asyncio.sleep(run.rng.uniform(0.1, 0.4))
        await run.kill(first)
        await asyncio.sleep(0.5)
        stop.set()
        await asyncio.gather(*players)

        # 4. Past the deadlines: B dies right after storing its first time-out; B2 takes
        # over shard 1 and, once the lease has run out, what B left unposted is posted.
        # Every post now takes Discord a while, so the time-outs are stored and still being
        # posted while the clock moves on and every process checks again and again: none
        # may post what a live peer is posting (its lease holds).
        fake.inject_fault(CREATE_MESSAGE, delay=SLOW_POST, times=len(timers) * 2)
        run.jump_to(max(dues) + MINUTE)
        await poll(lambda: run.logged(second, "lost on time"), "a time-out stored by B")
        for _ in range(NUDGES):
            await asyncio.sleep(SLOW_POST / (NUDGES + 2))
            run.jump_to(run.now() + US)
        await run.kill(second)
        await fake.wait_quiet(0.3, timeout=WAIT)  # what B sent before it died is done
        replacement = await run.spawn("B2", "1")
        await run.wait_ready(replacement)
        # Both live processes have settled what was due (their posts are out: a check
        # finishes after them) before the clock leaps past their own leases too.
        for proc in (deployed, replacement):
            await poll(
                lambda p=proc: any(c >= max(dues) + MINUTE for c in p.checks),  # type: ignore[misc]
                f"a deadline check of {proc.name} past the deadlines",
            )
        run.jump_to(max(dues) + 4 * MINUTE)  # the ending lease (two minutes) has run out
        await fake.wait_for(
            lambda: all(run.count(g, "ran out of time") >= 1 for g in timers),
            what="every time-out posted",
            timeout=WAIT,
        )
        await fake.wait_quiet(0.5, timeout=WAIT)

        # 5. The survivors stop cleanly.
        await run.stop(deployed)
        await run.stop(replacement)
        await fake.wait_quiet(0.2, timeout=WAIT)

        await run.check()
        # Only shard 0's processes published the commands (each start forces it here).
        assert len(fake.command_puts) == 2
        problems = run.log_problems() + run.fake_problems()
        assert not problems, "\n".join(problems)
        moves = sum(len(g.acknowledged) for g in played)
        print(f"\nshard test: {moves} moves acknowledged in the played games")
        assert all(len(g.acknowledged) >= 4 for g in played)
    except AssertionError as failure:
        logs = "\n\n".join(f"== {p.name} ==\n{run.tail(p)}" for p in run.procs)
        raise AssertionError(f"{failure}\n\n{logs}") from failure
    finally:
        for proc in run.procs:
            if proc.process.returncode is None:
                proc.process.kill()
                await proc.process.wait()
            if proc.reader is not None:
                await proc.reader
        await run.close()
        await fake.stop()
