"""Scale benchmark: the deadline task, start-up and memory with 100,000 active games.

    python bench/bench_scale.py [--games 100000] [--reference 1000] [--touch 1000]
                                [--database postgresql://...]

On a fresh SQLite file, then (with ``--database``, e.g. under scripts/test_postgres.sh:
``--database "$TEST_DATABASE_URL"``) on a fresh schema of that PostgreSQL server, twice:
with ``--reference`` active games and with ``--games``. The games are stored in bulk
through the repositories, as a busy server holds them: random legal openings of 0 to 30
plies, deadlines spread over the coming week with their reminders where the clock puts
them, one player in fifty on vacation (their deadlines stand still). Then it measures:

1. The deadline task's cost per wake-up: `Deadlines.check()` with nothing due and with 100
   reminders due (re-armed through the repository before each sample), and
   `Deadlines.next_wakeup()`; medians, and the ratio to the same measure with the
   reference count. Then how the database runs the deadline task's queries (EXPLAIN): a
   query that reads the whole table would show up as a scan here and grow with the games.
2. Start-up: a bot process (`create_bot`, as ``python -m bot`` builds it) against the fake
   Discord (tests/fakediscord) on that database: the seconds until it is connected with
   its commands published, and its resident memory once the warm-up of recent games is
   done. Over `MAX_START_RSS_MIB` is flagged (exit status 1): the budget of a bot at start.
3. Memory per active game: a process with one `GameService` on the database plays a move
   in each of ``--touch`` games, then in as many again (twice, three times ``--touch``
   games in all), printing its RSS, the growth per 1,000 more games touched, and how many
   games the game cache holds: the caches are bounded, so past their caps (once the first
   round has filled them) the growth per 1,000 more games stays near zero.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.memory import rss_mb  # noqa: E402
from bench.timing import NAME_WIDTH, lap  # noqa: E402
from bot.db import (  # noqa: E402
    BulkGame,
    Database,
    DeadlineRow,
    MoveRow,
    NewGame,
    PlayerRow,
    Terms,
    open_database,
)
from bot.services.clock.clocks import reminder_at  # noqa: E402
from rules import Game, Handicap  # noqa: E402
from rules.notation import format_move  # noqa: E402

#: A bot at start, with any number of games in its database, fits in this.
MAX_START_RSS_MIB = 100.0
#: Distinct openings the games are drawn from (a pool keeps generating them cheap).
OPENINGS = 400
MAX_PLIES = 30
GAMES_PER_PLAYER = 5
ON_VACATION = 50  # one player in this many
DUE = 100
SAMPLES = 15
CHUNK = 2_000


@dataclass(frozen=True)
class Opening:
    moves: tuple[str, ...]
    sfen: str
    next_move: str  # a legal move in the position, as a player would type it


def openings(seed: int) -> list[Opening]:
    """`OPENINGS` random legal openings that have not ended, the same for the same seed."""
    rng = random.Random(seed)
    found: list[Opening] = []
    while len(found) < OPENINGS:
        game = Game()
        for _ in range(rng.randint(0, MAX_PLIES)):
            if game.outcome is not None:
                break
            game.push(rng.choice(game.position.legal_moves()))
        if game.outcome is not None or not game.position.legal_moves():
            continue
        move = rng.choice(game.position.legal_moves())
        last = game.moves[-1] if game.moves else None
        found.append(
            Opening(
                tuple(m.usi() for m in game.moves),
                game.position.sfen(),
                format_move(game.position, move, "usi", last_move=last),
            )
        )
    return found


def bulk_game(index: int, opening: Opening, players: int, now: datetime) -> BulkGame:
    """Game `index`: its players, its opening, a deadline in the coming week."""
    rng = random.Random(index)
    sente = 1 + index % players
    gote = 1 + (index + 1 + rng.randrange(players - 1)) % players
    if gote == sente:
        gote = 1 + sente % players
    started = now - timedelta(days=rng.uniform(1, 30))
    step = (now - started) / (len(opening.moves) + 2)
    moves = tuple(
        MoveRow(0, ply, usi, sente if ply % 2 == 1 else gote, started + step * ply)
        for ply, usi in enumerate(opening.moves, start=1)
    )
    last = started + step * len(moves)
    due = now + timedelta(hours=1) + timedelta(days=7) * rng.random()
    waiting = sente if len(moves) % 2 == 0 else gote
    remind = max(reminder_at(last, due), now + timedelta(minutes=30))
    terms = Terms(bank=timedelta(), period=due - last, handicap=Handicap.EVEN.id, impasse_rule="27")
    new = NewGame(1, 1, sente, gote, terms, Handicap.EVEN.sfen, started)
    return BulkGame(new, moves, opening.sfen, last, deadline=DeadlineRow(0, waiting, due, remind))


async def fill(db: Database, games: int, seed: int) -> tuple[list[int], list[BulkGame]]:
    """Store `games` active games; their ids and rows (in order). Player `1 + k *
    ON_VACATION` is on vacation."""
    now = datetime.now(UTC)
    pool = openings(seed)
    players = max(2, games // GAMES_PER_PLAYER)
    async with db.transaction() as tx:
        for user_id in range(1, players + 1):
            await tx.players.upsert(PlayerRow(user_id, f"player{user_id}"), now)
        for user_id in range(1, players + 1, ON_VACATION):
            await tx.vacations.start(user_id, now - timedelta(days=1), now + timedelta(days=30))
    ids: list[int] = []
    rows: list[BulkGame] = []
    for start in range(0, games, CHUNK):
        chunk = [
            bulk_game(i, pool[i % len(pool)], players, now)
            for i in range(start, min(games, start + CHUNK))
        ]
        async with db.transaction() as tx:
            ids += await tx.games.bulk_insert(chunk)
        rows += chunk
    return ids, rows


# --- the deadline task -------------------------------------------------------------------------


@dataclass
class TaskFigures:
    idle: float  # check() with nothing due, median seconds
    due: float  # check() with DUE reminders due
    wakeup: float  # next_wakeup()
    plans: dict[str, list[str]]


async def deadline_task(db: Database, ids: list[int], rows: list[BulkGame]) -> TaskFigures:
    from bot.services import GameService

    service = GameService(db)
    deadlines = service.deadlines
    idle: list[float] = []
    due: list[float] = []
    wakeup: list[float] = []
    await deadlines.check()  # the first check of a start: nothing is due, but it warms up
    for _ in range(SAMPLES):
        with lap(idle):
            await deadlines.check()
        with lap(wakeup):
            await deadlines.next_wakeup()
    rng = random.Random(7)
    running = [
        (game_id, row.deadline)
        for game_id, row in zip(ids, rows, strict=True)
        if row.deadline is not None and (row.deadline.player_id - 1) % ON_VACATION
    ]
    for _ in range(max(3, SAMPLES // 3)):
        chosen = rng.sample(running, DUE)
        now = datetime.now(UTC)
        async with db.transaction() as tx:
            for game_id, deadline in chosen:
                await tx.deadlines.set(
                    DeadlineRow(game_id, deadline.player_id, deadline.due_at, now - timedelta(1))
                )
        with lap(due):
            await deadlines.check()
    async with db.query() as q:
        plans = await q.deadlines.plans(datetime.now(UTC), backend=db.backend)
    await service.close()
    return TaskFigures(
        statistics.median(idle), statistics.median(due), statistics.median(wakeup), plans
    )


# --- the bot process ---------------------------------------------------------------------------


async def run_bot(url: str, token: str, database: str) -> None:
    """The bot, as `python -m bot` builds it, on `database`, talking to the fake at `url`;
    it prints its RSS when asked (SIGUSR1) and once its warm-up is done."""
    from bot import create_bot
    from bot.config import Settings
    from tests.fakediscord import DiscordPointer

    where = {"database_url": database} if "://" in database else {"database_path": Path(database)}
    with DiscordPointer.from_url(url):
        bot = create_bot(
            Settings(discord_token=token, **where),
            sync_global=True,
            guild_ready_timeout=0.05,
        )
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, lambda: loop.create_task(bot.close()))
        async with bot:
            await bot.start(token, reconnect=False)


def process_rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return float("nan")


@dataclass
class StartFigures:
    ready: float  # seconds from spawn to connected with commands published
    rss: float  # MiB once settled


async def start_bot(database: str) -> StartFigures:
    from tests.fakediscord import FakeDiscord

    fake = FakeDiscord(default_timeout=60)
    await fake.start()
    fake.add_guild("Scale club", channels=("shogi",))
    began = time.perf_counter()
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--bot-process", fake.url, fake.token, database,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        await fake.wait_connected(timeout=300)
        await fake.wait_commands_synced(timeout=300)
        ready = time.perf_counter() - began
        await fake.wait_quiet(1.0, timeout=120)
        rss = await settled_rss(process.pid)
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
            await asyncio.wait_for(process.wait(), 60)
        await fake.stop()
    return StartFigures(ready, rss)


async def settled_rss(pid: int) -> float:
    """The process's RSS once it stops growing (the warm-up replays games after ready)."""
    last = process_rss_mib(pid)
    for _ in range(40):
        await asyncio.sleep(0.5)
        now = process_rss_mib(pid)
        if abs(now - last) < 0.25:
            return now
        last = now
    return last


# --- memory per game touched -------------------------------------------------------------------


async def touch(database: str, first_id: int, count: int, seed: int) -> None:
    """In a process of its own: a `GameService` plays a move in `count` games, then in
    `count` more, then `count` more; prints RSS and cache fills as JSON lines."""
    from bot.services import GameService

    pool = openings(seed)
    db = await open_database(database)
    service = GameService(db)
    store = service.store
    points = [{"touched": 0, "rss": rss_mb(), "cached": 0}]
    for round_ in range(3):
        for index in range(round_ * count, (round_ + 1) * count):
            game_id = first_id + index
            game = await service.games.get(game_id)
            assert game.to_move is not None
            await service.moves.play(
                game_id, game.to_move.user_id, pool[index % len(pool)].next_move
            )
        points.append({"touched": (round_ + 1) * count, "rss": rss_mb(), "cached": cached(store)})
    await service.close()
    await db.close()
    print(json.dumps({"points": points, "cache_size": store.cache_size}))


def cached(store: object) -> int:
    """How many games the store's cache holds now (read from its insides)."""
    entries = getattr(getattr(store, "_games", None), "_entries", None)
    return -1 if entries is None else len(entries)


async def touched(database: str, first_id: int, count: int, seed: int) -> dict[str, object]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, __file__, "--touch-process", database, str(first_id), str(count), str(seed),
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await process.communicate()
    if process.returncode != 0:
        raise RuntimeError(f"the touching process failed ({process.returncode})")
    found: dict[str, object] = json.loads(out.decode().strip().splitlines()[-1])
    return found


# --- the run -----------------------------------------------------------------------------------


@dataclass
class Run:
    games: int
    task: TaskFigures
    start: StartFigures
    touch: dict[str, object]


async def fresh(server: str | None, folder: Path, games: int) -> str:
    """A SQLite file in `folder`, or a new schema on the PostgreSQL `server`."""
    if server is None:
        return str(folder / f"scale-{games}.db")
    import asyncpg

    schema = f"bench_scale_{os.getpid()}_{games}"
    connection = await asyncpg.connect(server)
    try:
        await connection.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        await connection.execute(f"CREATE SCHEMA {schema}")
    finally:
        await connection.close()
    return f"{server}?search_path={schema}"


async def one_size(database: str, games: int, touch_count: int, seed: int) -> Run:
    db = await open_database(database)
    try:
        began = time.perf_counter()
        ids, rows = await fill(db, games, seed)
        await db.checkpoint()
        await db.refresh_statistics()  # as autovacuum would
        print(f"stored {games:,} active games in {time.perf_counter() - began:.1f} s")
        task = await deadline_task(db, ids, rows)
    finally:
        await db.close()
    start = await start_bot(database)
    touch_figures = await touched(database, ids[0], min(touch_count, games // 3), seed)
    return Run(games, task, start, touch_figures)


def line(name: str, value: str) -> None:
    print(f"{name:<{NAME_WIDTH}} {value}")


def report(runs: Sequence[Run], backend: str) -> bool:
    """Print one backend's figures; whether a bot at start was over its budget."""
    reference = runs[0]
    print(f"\n-- {backend}: medians, and the ratio to {reference.games:,} games")
    over = False
    for run in runs:
        print(f"{run.games:,} active games")
        measures = (
            ("check(), nothing due", run.task.idle, reference.task.idle),
            (f"check(), {DUE} reminders due", run.task.due, reference.task.due),
            ("next_wakeup()", run.task.wakeup, reference.task.wakeup),
            ("start-up to ready", run.start.ready, reference.start.ready),
        )
        for name, value, base in measures:
            unit = f"{value * 1000:9.2f} ms" if value < 1 else f"{value:9.2f} s "
            line(f"  {name}", f"{unit}   x{value / base:.2f}")
        flag = run.start.rss > MAX_START_RSS_MIB
        over = over or flag
        budget = f"OVER the {MAX_START_RSS_MIB:.0f} MiB budget" if flag else "within budget"
        line("  bot RSS after start", f"{run.start.rss:9.1f} MiB   {budget}")
        points = run.touch["points"]
        assert isinstance(points, list)
        line("  service RSS, none touched", f"{points[0]['rss']:9.1f} MiB")
        for before, point in itertools.pairwise(points):
            grown = point["rss"] - before["rss"]
            per = grown / (point["touched"] - before["touched"]) * 1000
            line(
                f"  service RSS, {point['touched']:,} touched",
                f"{point['rss']:9.1f} MiB   {grown:+.1f} MiB, {per:+.2f} per 1,000 more; "
                f"{point['cached']} of {run.touch['cache_size']} games cached",
            )
    largest = runs[-1]
    print(f"\nquery plans with {largest.games:,} games (EXPLAIN)")
    for query, plan in largest.task.plans.items():
        print(f"  {query}:")
        for step in plan:
            print(f"    {step}")
    return over


async def bench(games: int, reference: int, touch_count: int, server: str | None) -> int:
    over = False
    backends = [("SQLite", None)] + ([("PostgreSQL", server)] if server else [])
    for backend, address in backends:
        print(f"== {backend}")
        with tempfile.TemporaryDirectory() as folder:
            runs = []
            for count in (reference, games):
                database = await fresh(address, Path(folder), count)
                runs.append(await one_size(database, count, touch_count, seed=count))
            over = report(runs, backend) or over
    return 1 if over else 0


def main() -> int:
    if len(sys.argv) == 5 and sys.argv[1] == "--bot-process":
        asyncio.run(run_bot(*sys.argv[2:5]))
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "--touch-process":
        database, first, count, seed = sys.argv[2:6]
        asyncio.run(touch(database, int(first), int(count), int(seed)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--reference", type=int, default=1_000)
    parser.add_argument("--touch", type=int, default=1_000, help="games touched per round")
    parser.add_argument("--database", metavar="URL", help="also on this PostgreSQL server")
    args = parser.parse_args()
    return asyncio.run(bench(args.games, args.reference, args.touch, args.database))


if __name__ == "__main__":
    sys.exit(main())
