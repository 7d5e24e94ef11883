"""Scaling benchmark: moves per second with 1, 2 and 4 shard processes on one database.

    python bench/bench_shards.py [--processes 1,2,4] [--games 24] [--seconds 6]
                                 [--database postgresql://...]

For each count N, a fresh fake Discord (in this process, on 127.0.0.1) serves eight
servers spread over N shards, and N bot processes run one shard each
(``tests/support/bot_process.py URL TOKEN DATABASE CLOCK i N``: the real ``create_bot``
as ``python -m bot --shards i --shard-count N`` builds it) on one fresh SQLite file, or
with ``--database`` a fresh schema of one PostgreSQL server.
``--games`` games are set up across the servers; then every game's players move as
fast as the bot answers (each move once the previous board has arrived) for
``--seconds``, and the moves answered are counted.

It prints, per N: moves per second, the median and 99th percentile of a move's answer,
and the CPU seconds per move of the bot processes and of this process (the fake Discord
and the players), with the ratio to N = 1 measured in the same run. The machine's cores
bound the whole: the bot processes, the fake and the players share them, so the CPU per
move and the cores (``os.cpu_count()``) say what limits the scaling.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import signal
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.timing import percentile  # noqa: E402
from rules import Move  # noqa: E402
from rules.notation import read_record  # noqa: E402
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMember, Limits  # noqa: E402
from tests.support.bot_process import write_offset  # noqa: E402

RECORDS = ("kfjs_ryuou4.kifu", "bioshogi_sample.csa", "kfjs_20091203.ki2u")
SERVERS = 8
WAIT = 60.0


@dataclass
class Run:
    processes: int
    moves: int = 0
    latencies: list[float] = field(default_factory=list)
    seconds: float = 0.0
    bot_cpu: float = 0.0
    own_cpu: float = 0.0

    @property
    def rate(self) -> float:
        return self.moves / self.seconds


@dataclass
class Table:
    thread: FakeChannel
    sente: FakeMember
    gote: FakeMember
    record: list[Move]
    ply: int = 0


def records() -> list[list[Move]]:
    folder = ROOT / "tests" / "data" / "records"
    return [list(read_record((folder / name).read_bytes()).game.moves) for name in RECORDS]


def cpu(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


async def spawn(
    fake: FakeDiscord, folder: Path, database: str, shard: int, count: int
) -> tuple[asyncio.subprocess.Process, asyncio.Event]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.support.bot_process",
        fake.url,
        fake.token,
        database,
        str(folder / "clock"),
        str(shard),
        str(count),
        cwd=ROOT,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    ready = asyncio.Event()

    async def read() -> None:
        assert process.stdout is not None
        while line := await process.stdout.readline():
            if line.strip() == b"ready":
                ready.set()

    asyncio.get_running_loop().create_task(read())
    return process, ready


async def new_game(fake: FakeDiscord, channel: FakeChannel, pair: list[FakeMember]) -> FakeChannel:
    sente, gote = pair
    challenge = await fake.slash(
        "challenge", {"opponent": gote, "color": "sente"}, user=sente, channel=channel
    )
    accept = next(c for c in challenge.custom_ids if c.startswith("ch:accept:"))
    reply = challenge.reply
    assert reply is not None
    await fake.click(challenge, accept, user=gote, wait=False)
    await fake.wait_for(lambda: reply.id in fake.channels, what="the game's thread", timeout=WAIT)
    return fake.channels[reply.id]


async def player(fake: FakeDiscord, table: Table, run: Run, until: float) -> None:
    while time.monotonic() < until and table.ply < len(table.record):
        mover = table.sente if table.ply % 2 == 0 else table.gote
        started = time.perf_counter()
        result = await fake.slash(
            "move",
            {"move": table.record[table.ply].usi()},
            user=mover,
            channel=table.thread,
            wait=False,
        )
        await result.wait_final(timeout=WAIT, scope="interaction")
        reply = result.reply
        if reply is None or not reply.attachments:
            raise RuntimeError(f"move {table.ply + 1} was not played: {result.content!r}")
        table.ply += 1
        if time.monotonic() < until:
            run.moves += 1
            run.latencies.append(time.perf_counter() - started)


async def fresh_database(server: str | None, folder: Path, count: int) -> str:
    """A SQLite file in `folder`, or a new schema on the PostgreSQL `server`."""
    if server is None:
        return str(folder / "bench.db")
    import asyncpg

    schema = f"bench_shards_{os.getpid()}_{count}"
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    return f"{server}?search_path={schema}"


async def measure(
    count: int, games: int, seconds: float, all_records: list[list[Move]], server: str | None
) -> Run:
    run = Run(count)
    with tempfile.TemporaryDirectory(prefix="bench-shards-") as name:
        folder = Path(name)
        database = await fresh_database(server, folder, count)
        write_offset(folder / "clock", 0)
        # What is measured is the bot's CPU, not Discord's pace: no rate limits.
        fake = FakeDiscord(default_timeout=WAIT, limits=Limits.off())
        guilds = [
            fake.add_guild(f"club {n}", channels=("shogi",), shard=(n % count, count))
            for n in range(SERVERS)
        ]
        pairs = [
            [
                fake.add_member(guilds[n % SERVERS], f"p{n}a"),
                fake.add_member(guilds[n % SERVERS], f"p{n}b"),
            ]
            for n in range(games)
        ]
        await fake.start()
        children = [await spawn(fake, folder, database, shard, count) for shard in range(count)]
        try:
            await asyncio.wait_for(asyncio.gather(*(r.wait() for _, r in children)), WAIT)
            await fake.wait_commands_synced(1, timeout=WAIT)
            tables = []
            for n, pair in enumerate(pairs):
                channel = fake.channel("shogi", guilds[n % SERVERS])
                thread = await new_game(fake, channel, pair)
                tables.append(Table(thread, pair[0], pair[1], all_records[n % len(all_records)]))
            await fake.wait_quiet(0.3, timeout=WAIT)
            own, bots = cpu(resource.RUSAGE_SELF), cpu(resource.RUSAGE_CHILDREN)
            started = time.monotonic()
            until = started + seconds
            await asyncio.gather(*(player(fake, table, run, until) for table in tables))
            run.seconds = min(time.monotonic(), until) - started
            run.own_cpu = cpu(resource.RUSAGE_SELF) - own
        finally:
            for process, _ in children:
                if process.returncode is None:
                    process.send_signal(signal.SIGTERM)
            for process, _ in children:
                await asyncio.wait_for(process.wait(), WAIT)
            await fake.stop()
        # Children's CPU counts once they have exited (set-up and close included: small).
        run.bot_cpu = cpu(resource.RUSAGE_CHILDREN) - bots
    return run


async def bench(counts: list[int], games: int, seconds: float, server: str | None) -> None:
    all_records = records()
    runs = []
    for count in counts:
        run = await measure(count, games, seconds, all_records, server)
        runs.append(run)
    base = runs[0].rate
    where = "one SQLite file" if server is None else "one PostgreSQL"
    print(
        f"{games} games over {SERVERS} servers on {where}, {seconds:g} s each, "
        f"{os.cpu_count()} cores"
    )
    print("processes  moves/s  x first  median ms  p99 ms  bot CPU ms/move  fake+players ms/move")
    for run in runs:
        print(
            f"{run.processes:>9}  {run.rate:7.1f}  {run.rate / base:7.2f}"
            f"  {statistics.median(run.latencies) * 1000:9.1f}"
            f"  {percentile(run.latencies, 0.99) * 1000:6.1f}"
            f"  {run.bot_cpu / run.moves * 1000:15.2f}"
            f"  {run.own_cpu / run.moves * 1000:20.2f}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", default="1,2,4", help="process counts (default 1,2,4)")
    parser.add_argument("--games", type=int, default=24)
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument(
        "--database",
        metavar="URL",
        help="a PostgreSQL server (postgresql://...): each run gets a new schema there "
        "(default: a new SQLite file per run)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.processes.split(",")]
    asyncio.run(bench(counts, args.games, args.seconds, args.database))
    return 0


if __name__ == "__main__":
    sys.exit(main())
